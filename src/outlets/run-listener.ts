import type { RalphError } from '../errors.js';
import type { RunPaths } from '../files/record-paths.js';
import type { IterationRow } from '../loop/port-data.js';
import type { RunReport } from '../loop/run-report.js';
import type { TerminalReporter } from '../ui/reporter.js';

/** The loop's events as they happen: what the loop reports, and what the agent's stream adds. */
export type RunEvents = TerminalReporter;

/** What every listener of a run's ending receives: the one record, and where ralph's files are. */
export interface EndingNote {
  report: RunReport;
  paths: RunPaths;
  /** The rows of the iterations the run finished. */
  rows: readonly IterationRow[];
  /** Whether the run reached its loop (a refused start did not: no summary block then). */
  loopRan: boolean;
}

/**
 * One thing that listens to a run (the screen, last-run.json, the parallel channel, the
 * notifications, the report, the GitHub job summary…): an object with one job, hearing the events
 * it cares for. The ending is decided before any listener hears of it, and none can change it.
 * run-lifecycle/run-listeners.ts is the table of which listeners a run has.
 */
export interface RunListener {
  /** Named in the warning when its ending fails. */
  readonly name: string;
  /**
   * The loop's events it hears as they happen (the combiner fans each one out). `iterationFinished`
   * may return the promise of a record's write (summary.csv's row): the loop waits for it.
   */
  readonly events?: Partial<RunEvents>;
  /** The run's ending, once its record is built. */
  deliver?(note: EndingNote): Promise<void>;
  /** A start refused before any lock was taken (a bad command line): nothing of the run is recorded. */
  refused?(error: RalphError): Promise<void>;
  /** Deliveries still under way when the run ends (notifications): the record waits and counts the failures. */
  readonly pending?: { settled(): Promise<void>; failed(): number };
}

/** A listener of the ending. */
export type Outlet = RunListener & Required<Pick<RunListener, 'deliver'>>;
