import { replaysAgentBin } from '../answer/replay-agent-bin.js';
import type { TerminalReporter } from '../ui/reporter.js';
import { nextStepWithoutReplay, renderSummary } from '../ui/run-summary.js';
import type { Screen } from '../ui/screen.js';
import type { RunListener } from './run-listener.js';

/**
 * The terminal: the loop's events as lines (once the settings say how), then the summary block
 * after a run that reached its loop. Its next step after a BLOCKED or DECIDE is `ralph answer
 * --run` — unless that would refuse the run's --agent-bin: then it says to answer and run again,
 * as the refusal would.
 */
export function screenListener(out: Pick<Screen, 'line'>, reporter?: TerminalReporter): RunListener {
  return {
    name: 'summary',
    ...(reporter ? { events: reporter } : {}),
    async deliver({ report, paths, loopRan }) {
      if (!loopRan) return;
      const waits = report.reason === 'blocked' || report.reason === 'decide';
      const replays = !waits || (await replaysAgentBin(report.runArgs, paths.root));
      out.line('');
      out.line(
        replays ? renderSummary(report) : renderSummary(report, undefined, nextStepWithoutReplay(report.reason)),
      );
    },
  };
}
