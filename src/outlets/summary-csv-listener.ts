import { appendSummaryRow, summaryHeaderWidth } from '../files/summary-csv.js';
import type { RunListener } from './run-listener.js';

/**
 * summary.csv: one row per finished iteration, appended as the loop hears of it. The loop waits for
 * the write (combined-listeners.ts), so the row is on disk before the iteration's pace is recorded,
 * the next iteration starts or the ending is reported; a row that cannot be written ends the run
 * (io_error), as every record of the loop's does.
 */
export function summaryCsvListener(root: string, csv: string): RunListener {
  // The header is read once a run, not before each row: its width does not change under a run.
  let width: Promise<number> | undefined;
  return {
    name: 'summary.csv',
    events: {
      iterationFinished: async ({ row }) => appendSummaryRow(root, csv, row, await (width ??= summaryHeaderWidth(csv))),
    },
  };
}
