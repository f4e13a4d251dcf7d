import type { GatePlace } from '../gates/types.js';
import type { Box, BoxChoice } from './open-box.js';

/**
 * The gates' place inside the box, from `root`: the same shell command as on the host, wrapped. A
 * box ends with its program, so ralph has nothing else to stop when it stops a gate there; after
 * each gate it takes away the git redirects and nested repositories the gate's code made.
 */
export function boxGatePlace(box: Box, root: string): GatePlace {
  return {
    label: `the box (${box.kind})`,
    launch: (_command, onHost) => box.wrap(onHost, root),
    settle: () => box.sweep(),
  };
}

/** The box as one line: `box: bubblewrap (…)`, `box: none (no bubblewrap: apt install bubblewrap)`. */
export function boxLine({ mode, reason }: BoxChoice): string {
  return `box: ${mode} (${reason})`;
}
