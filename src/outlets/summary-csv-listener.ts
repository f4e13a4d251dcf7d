import { appendSummaryRow } from '../files/summary-csv.js';
import type { RunListener } from './run-listener.js';

/**
 * summary.csv: one row per finished iteration, appended as the loop hears of it. The loop waits for
 * the write (combined-listeners.ts), so the row is on disk before the iteration's pace is recorded,
 * the next iteration starts or the ending is reported; a row that cannot be written ends the run
 * (io_error), as every record of the loop's does.
 */
export function summaryCsvListener(root: string, csv: string): RunListener {
  return {
    name: 'summary.csv',
    events: { iterationFinished: ({ row }) => appendSummaryRow(root, csv, row) },
  };
}
