import { formatDurationSpec } from '../domain/duration.js';
import { gateKind } from './gate-kind.js';
import { unreachable } from '../loop/termination.js';

/** What the agent needs to know about a failed gate to suggest next steps. */
export interface FailedGate {
  name: string;
  command: string;
  timedOut: boolean;
  timeoutMs: number;
  /** As the agent should read it: relative to the repository root. */
  logPath: string;
}

/**
 * Numbered next steps for the failed gates: each gate's actions for its kind (prefixed with its
 * name when several failed), then where to read each full log.
 */
export function suggestionsFor(failed: readonly FailedGate[]): string[] {
  const several = failed.length > 1;
  const actions = failed.flatMap((gate) =>
    actionsFor(gate).map((action) => (several ? `${gate.name}: ${action}` : action)),
  );
  const logs = failed.map((gate) =>
    several ? `Read the full log of ${gate.name}: ${gate.logPath}` : `Read the full log: ${gate.logPath}`,
  );
  return [...new Set(actions), ...logs];
}

/** Two or three concrete actions for one failed gate. */
function actionsFor({ name, command, timedOut, timeoutMs }: FailedGate): string[] {
  const run = `\`${command}\``;
  if (timedOut) {
    return [
      `Find what keeps ${run} running past ${formatDurationSpec(timeoutMs)}: a watch mode, a server or process left running, a prompt waiting for input, an endless loop`,
      `Run ${run} yourself and check that it ends on its own`,
    ];
  }
  const kind = gateKind(name);
  switch (kind) {
    case 'build':
      return [
        `Fix the build errors listed above first: gates that run after ${name} were skipped`,
        'Check the files you changed for missing imports, renamed symbols and typos',
        `Run ${run} and repeat until it succeeds`,
      ];
    case 'lint':
      return [
        'Fix each reported problem at its file and line',
        `Run ${run} to see every problem; if the linter has a fix option, it can repair some of them`,
      ];
    case 'tests':
      return [
        'Review the failing test assertions',
        'Check whether your recent changes broke behaviour the tests rely on; change a test only when the test itself is wrong',
        `Run ${run} and make it pass before claiming \`COMPLETE\` again`,
      ];
    case 'typecheck':
      return [
        'Fix the type errors at the listed locations',
        'Check the types and signatures you changed against every place that uses them',
        `Run ${run} until it reports no errors`,
      ];
    case 'custom':
      return ['Read the issues above and fix their cause', `Run ${run} yourself until it exits 0`];
    default:
      return unreachable(kind);
  }
}
