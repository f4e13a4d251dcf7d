import type { Outlet } from './run-listener.js';

/**
 * `ralph run --report`: ralph/logs/report.html rewritten at every ending, from the files the run
 * just wrote, its stories counted complete as the run counted them.
 */
export function reportOutlet(review: boolean): Outlet {
  return {
    name: 'report (ralph/logs/report.html)',
    async deliver({ paths }) {
      // The report's renderers and d3 are loaded only at an ending, never before the first agent starts.
      const { writeReport } = await import('../report/write-report.js');
      await writeReport(paths, { review: { review } });
    },
  };
}
