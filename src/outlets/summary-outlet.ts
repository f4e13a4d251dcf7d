import { renderSummary } from '../ui/run-summary.js';
import type { Screen } from '../ui/screen.js';
import type { Outlet } from './outlet.js';

/** The summary block on the terminal, after a run that reached its loop. */
export function summaryOutlet(out: Pick<Screen, 'line'>): Outlet {
  return {
    name: 'summary',
    deliver({ report }) {
      out.line('');
      out.line(renderSummary(report));
      return Promise.resolve();
    },
  };
}
