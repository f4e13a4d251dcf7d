import { appendFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeLastRunNow } from '../files/last-run.js';
import { buildRunReport } from '../loop/run-report.js';
import { exitCodeFor } from '../loop/termination.js';
import { PACKAGE_VERSION, whereToReport } from '../package-info.js';
import { monotonicMs } from '../process/monotonic-clock.js';
import { bugMessage } from './internal-error.js';
import { progressOfRows } from './run-under-lock.js';
import type { RunContext } from './run-context.js';

/**
 * Keeps the README's promise for a fault no code path caught (a throw in a stream callback, a
 * rejected promise nobody awaited): the run still ends as internal_error with last-run.json and
 * internal-error.log written, synchronously, and exits 70 — its agent and gates killed by the
 * containment's exit handler. Returns the function that stops listening.
 */
export function recordCrashes(run: RunContext): () => void {
  const crash = (bug: unknown) => {
    const message = recordCrash(run, bug);
    run.terminal.stderr.write(`${message}\n`);
    process.exit(exitCodeFor({ reason: 'internal_error', message: bugMessage(bug) }));
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  return () => {
    process.off('uncaughtException', crash);
    process.off('unhandledRejection', crash);
  };
}

/** Writes the trace and the run's record; the line the terminal gets. Never throws: it is the last word. */
export function recordCrash(run: RunContext, bug: unknown): string {
  const { paths } = run;
  const log = join(paths.logs, 'internal-error.log');
  const trace = bug instanceof Error ? (bug.stack ?? bugMessage(bug)) : String(bug);
  const now = new Date();
  let saved = `its stack trace is in ${relative(paths.root, log)}`;
  try {
    mkdirSync(paths.logs, { recursive: true });
    appendFileSync(log, `${now.toISOString()} ralph ${PACKAGE_VERSION} node ${process.version}\n${trace}\n\n`);
    const ending = { reason: 'internal_error', message: bugMessage(bug) } as const;
    const progress = progressOfRows(run.rows, { complete: 0, total: 0 });
    const report = buildRunReport(ending, progress, {
      startedAt: run.startedAt,
      endedAt: now.getTime(),
      durationMs: monotonicMs() - run.startedMonotonicMs,
      firstIteration: run.start.facts.firstIteration,
      maxIterations: run.start.facts.maxIterations,
      strayProcessesEnded: run.containment.ended,
    });
    writeLastRunNow(paths, report);
  } catch (error) {
    saved = `its record could not be written: ${(error as Error).message}`;
  }
  return `ralph: internal error: ${bugMessage(bug)} — a bug in ralph, not in your project. Please report it ${whereToReport()}; ${saved}`;
}
