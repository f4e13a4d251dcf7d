import { writeReport } from '../commands/report.js';
import type { Outlet } from './outlet.js';

/** `ralph run --report`: ralph/logs/report.html rewritten at every ending, from the files the run just wrote. */
export const reportOutlet: Outlet = {
  name: 'report (ralph/logs/report.html)',
  async deliver({ paths }) {
    await writeReport(paths, {});
  },
};

/** The outlets the run's settings ask for. */
export function outletsFor(settings: { report: boolean }): Outlet[] {
  return settings.report ? [reportOutlet] : [];
}
