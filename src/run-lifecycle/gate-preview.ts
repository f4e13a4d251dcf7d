import { formatDurationSpec } from '../domain/duration.js';
import type { ResolvedSettings } from '../config/resolve-settings.js';
import { gateProgram } from '../gates/run-gate.js';
import type { GateEnvironment, GatePlace } from '../gates/types.js';

/**
 * The dry run's view of the quality gates: each one's program exactly as a run would start it —
 * with --sandbox the `docker sandbox exec` line, so where the agent's code will run is plain —
 * its dependency and its timeout. None without gates.
 */
export function previewGates(
  resolved: ResolvedSettings,
  env: GateEnvironment,
  how: { noGates: boolean; place: GatePlace | undefined },
  quote: (arg: string) => string,
): string[] {
  const { gates } = resolved;
  if (gates.length === 0) return [];
  if (how.noGates) return ['', 'Quality gates: none run (--no-gates).'];
  return [
    '',
    'Quality gates, in order (each from the repository root, in its own process group):',
    ...gates.map((gate) => {
      const { file, args } = gateProgram(gate.command, env, how.place);
      const after = gate.after === undefined ? '' : `after ${gate.after}, `;
      return `  ${gate.name}: ${[file, ...args].map(quote).join(' ')} (${after}timeout ${formatDurationSpec(gate.timeoutMs)})`;
    }),
  ];
}
