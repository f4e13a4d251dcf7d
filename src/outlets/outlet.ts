import type { RunPaths } from '../files/record-paths.js';
import type { RunReport } from '../loop/run-report.js';

/** What every outlet of a run's ending receives: the one record, and where ralph's files are. */
export interface EndingNote {
  report: RunReport;
  paths: RunPaths;
}

/**
 * One place a run's ending goes (last-run.json, the summary block, the GitHub job summary, the
 * report file, the notifications): an object with one job. The ending is decided before any
 * outlet hears of it.
 */
export interface Outlet {
  /** Named in the warning when it fails. */
  readonly name: string;
  deliver(note: EndingNote): Promise<void>;
}

/**
 * Sends the ending to every outlet, one after another. A failing outlet is one warning line and
 * never changes the outcome; resolves to how many failed.
 */
export async function fanOut(
  outlets: readonly Outlet[],
  note: EndingNote,
  warn: (line: string) => void,
): Promise<number> {
  let failed = 0;
  for (const outlet of outlets) {
    try {
      await outlet.deliver(note);
    } catch (error) {
      failed += 1;
      warn(`ralph: warning: the ${outlet.name} could not be written: ${(error as Error).message}`);
    }
  }
  return failed;
}
