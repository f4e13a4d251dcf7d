import { replaysAgentBin } from '../run-lifecycle/replay-agent-bin.js';
import { nextStepWithoutReplay, renderSummary } from '../ui/run-summary.js';
import type { Screen } from '../ui/screen.js';
import type { Outlet } from './outlet.js';

/**
 * The summary block on the terminal, after a run that reached its loop. Its next step after a
 * BLOCKED or DECIDE is `ralph answer --run` — unless that would refuse the run's --agent-bin: then
 * it says to answer and run again, as the refusal would.
 */
export function summaryOutlet(out: Pick<Screen, 'line'>): Outlet {
  return {
    name: 'summary',
    async deliver({ report, paths }) {
      const waits = report.reason === 'blocked' || report.reason === 'decide';
      const replays = !waits || (await replaysAgentBin(report.runArgs, paths.root));
      out.line('');
      out.line(
        replays ? renderSummary(report) : renderSummary(report, undefined, nextStepWithoutReplay(report.reason)),
      );
    },
  };
}
