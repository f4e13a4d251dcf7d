import type { GatePlace } from '../gates/types.js';
import type { Box, BoxChoice } from './open-box.js';

/**
 * The gates' place inside the box, from `root`: the same shell command as on the host, wrapped. A
 * box ends with its program, so ralph has nothing else to stop when it stops a gate there; after
 * each gate it takes away the git redirects the gate's code made (git-redirects.ts).
 */
export function boxGatePlace(box: Box, root: string): GatePlace {
  return {
    label: `the box (${box.kind})`,
    launch: (_command, onHost) => box.wrap(onHost, root),
    settle: async () => (await box.sweep()).map(sweptLine),
  };
}

/** The line for a git redirect the agent (or its gate) made, which ralph took away after its command. */
export function sweptLine(path: string): string {
  return `the box removed ${path}, which the agent made: git outside the box would have followed it to a config of the agent's`;
}

/** The box as one line: `box: bubblewrap (…)`, `box: none (no bubblewrap: apt install bubblewrap)`. */
export function boxLine({ mode, reason }: BoxChoice): string {
  return `box: ${mode} (${reason})`;
}
