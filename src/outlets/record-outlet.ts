import { writeLastRun } from '../files/last-run.js';
import type { Screen } from '../ui/screen.js';
import type { Outlet } from './run-listener.js';

/**
 * The run's record (last-run.json: ralph's own, and the published copy in ralph/logs/ for scripts and
 * CI): the first outlet, since the report reads it. A record that cannot be written says so in its
 * own words (the previous run's may still be there).
 */
export function recordOutlet(out: Pick<Screen, 'error'>): Outlet {
  return {
    name: 'record (ralph/logs/last-run.json)',
    async deliver({ report, paths }) {
      const unwritten = await writeLastRun(paths, report);
      if (unwritten) out.error(`ralph: ${unwritten}; the previous run's record may still be there`);
    },
  };
}
