import { errorLine, knownError, type RalphError } from '../errors.js';
import type { RunPaths } from '../files/record-paths.js';
import { updateRunState } from '../files/run-state.js';
import { uncommittedChanges } from '../git/work-tree.js';
import { monotonicMs } from '../process/monotonic-clock.js';
import type { AgentFailure } from '../domain/agent-failure.js';
import type { IterationRow } from '../loop/port-data.js';
import { bugMessage, reportBug } from './internal-error.js';
import { withLastFailure } from './last-failure.js';
import { endingOf, type Ending } from '../loop/termination.js';
import type { Screen } from '../ui/screen.js';
import { stateAfterRun } from './resume-guard.js';
import { buildRunReport, type RunProgress, type RunReport } from '../loop/run-report.js';
import { recordedReplay, writeLastRun } from '../files/last-run.js';
import { pathExists } from '../files/missing-file.js';
import { withAgentShares } from './agent-shares.js';
import { fanOut } from '../outlets/combined-listeners.js';
import type { RunListener } from '../outlets/run-listener.js';
import { listenersFor } from './run-listeners.js';

/**
 * The ending an error stands for, once the lock is held: a RalphError by its kind, an OS error on
 * a file (ENOSPC, EROFS…) as io_error. Anything else is a bug in ralph: internal_error, recorded
 * like every ending, the bug kept to report.
 */
export function endingOfError(error: unknown): { ending: Ending; error?: RalphError; bug?: unknown } {
  const known = knownError(error);
  if (!known) return { ending: { reason: 'internal_error', message: bugMessage(error) }, bug: error };
  return { ending: endingOf(known), error: known };
}

/** What the run knew when it ended. */
export interface RunEnd {
  ending: Ending;
  /** The RalphError that ended it (a refused start, an I/O fault), shown as its one line. */
  error?: RalphError;
  /** The bug that ended it (internal_error): reported in one line once the run is recorded, its trace in the logs. */
  bug?: unknown;
  progress: RunProgress;
  /**
   * Set when the loop ran: the task list's identity, its resume attempts and the stories complete at
   * the start. Then the summary block is shown and state.json moves on; a refused start changes neither.
   */
  loopRan?: { taskList: string; attempts: number; completeBefore: number };
  rows: readonly IterationRow[];
  /** How the last iteration's agent failed, when it did: the record names it whatever the ending. */
  lastFailure?: AgentFailure;
}

/** What the run's ending is told besides the run itself. */
export interface FinishContext {
  paths: RunPaths;
  out: Screen;
  env: NodeJS.ProcessEnv;
  github: boolean;
  /** When the run started, by the wall clock (its timestamp) and by the monotonic one (its duration). */
  startedAt: number;
  startedMonotonicMs: number;
  /** The clocks read at the ending (default: Date.now and monotonicMs). */
  clock?: { wall: () => number; monotonic: () => number };
  firstIteration: number;
  maxIterations: number;
  strayProcessesEnded: number;
  /** The first line of the agent's `--version`, when the start read it. */
  agentVersion?: string;
  /** How the run kept its processes, and why. */
  containment?: { mode: string; reason: string };
  /** The OS box the agents and gates ran in, and why (none, and why not). */
  box?: { mode: string; reason: string };
  /**
   * The run's listeners, as run-listeners.ts made them (none can change the exit code); default:
   * those of a start refused before its settings resolved (last-run.json, the screen, GitHub).
   */
  outlets?: readonly RunListener[];
  /** The run's own flags as given, for last-run.json (`ralph answer --run` replays them). */
  runArgs?: readonly string[];
  /** What the listeners still deliver (the notifications): counted in last-run.json; default: theirs. */
  notifier?: NonNullable<RunListener['pending']>;
}

/**
 * Ends a run that held the lock: one ending → state.json and the error line, then the same record
 * fanned out once to every outlet (last-run.json, the summary block, the GitHub outputs, the report,
 * the notifications). Resolves to the exit code.
 */
export async function finishRun(end: RunEnd, context: FinishContext): Promise<number> {
  let { ending, error, bug } = end;
  if (end.loopRan) {
    try {
      await recordState(end.loopRan, end, context.paths);
    } catch (stateError) {
      // The ending of a run that could not record its state is that fault (unless it already was one).
      if (ending.reason !== 'io_error' && ending.reason !== 'internal_error')
        ({ ending, error, bug } = endingOfError(stateError));
    }
  }
  let report: RunReport;
  try {
    report = reportOf(ending, end, context);
  } catch (reportBugFound) {
    // A record that cannot be built (a date no Date holds) is itself the bug: it is still recorded.
    ({ ending, error, bug } = endingOfError(reportBugFound));
    report = reportOf(ending, end, context);
  }
  const listeners = context.outlets ?? listenersFor(undefined, context);
  const notifier = context.notifier ?? listeners.find((listener) => listener.pending)?.pending;
  // Mid-run notifications still under way finish first: the record counts them.
  await notifier?.settled();
  if (notifier) report = { ...report, notificationsFailed: notifier.failed() };
  if (context.runArgs) report = { ...report, ...(await replayable(context.runArgs, end, context)) };
  if (error) context.out.error(errorLine(error));
  // One record, fanned out once, in the table's order: the report reads last-run.json.
  const note = { report, paths: context.paths, rows: end.rows, loopRan: end.loopRan !== undefined };
  await fanOut(listeners, note, (line) => context.out.error(line));
  if (notifier && notifier.failed() !== report.notificationsFailed) {
    // The ending's own notifications failed after the record was written: it is written again, counting them.
    const recount = await writeLastRun(context.paths, { ...report, notificationsFailed: notifier.failed() });
    if (recount) context.out.error(`ralph: ${recount}; it does not count the failed notifications`);
  }
  if (bug !== undefined) context.out.error(await reportBug(bug, context.paths, new Date()));
  return report.exitCode;
}

/** The one record of the run's ending: last-run.json, the summary and the GitHub outputs all read it. */
function reportOf(ending: Ending, end: RunEnd, context: FinishContext): RunReport {
  const { startedAt, firstIteration, maxIterations, strayProcessesEnded, containment, box } = context;
  const clock = context.clock ?? { wall: Date.now, monotonic: monotonicMs };
  const built = buildRunReport(ending, end.progress, {
    startedAt,
    endedAt: clock.wall(),
    durationMs: clock.monotonic() - context.startedMonotonicMs,
    firstIteration,
    maxIterations,
    strayProcessesEnded,
    ...(containment ? { containment } : {}),
    ...(box ? { box } : {}),
  });
  return withAgentShares(
    {
      ...withLastFailure(built, end.lastFailure),
      ...(context.agentVersion === undefined ? {} : { agentVersion: context.agentVersion }),
    },
    end.rows,
  );
}

/** state.json after a run that reached its loop: the resume count, and the work tree as the run leaves it. */
async function recordState(run: NonNullable<RunEnd['loopRan']>, end: RunEnd, paths: RunPaths): Promise<void> {
  // Should git fail now, the last record stands: a later start then asks about more, never less.
  const leftBehind = await uncommittedChanges(paths.root).catch(() => undefined);
  // Changed from the latest state: review counts may have changed during the run.
  await updateRunState(paths.records, run.taskList, (latest) => {
    const next = stateAfterRun(latest, {
      reason: end.ending.reason,
      attempts: run.attempts,
      completeBefore: run.completeBefore,
      completeAfter: end.progress.stories.complete,
    });
    // The run recorded its ending: no longer under way (a start that finds it so knows ralph was killed).
    const { runOpen: _ended, leftBehind: _before, ...recorded } = next;
    const kept = leftBehind ?? latest.leftBehind;
    return { ...recorded, ...(kept ? { leftBehind: kept } : {}) };
  });
}

/**
 * The flags `ralph answer --run` goes on with: this run's, but for a start refused (for whatever
 * reason) while a BLOCKED or a DECIDE waits. While one waits every start is refused, so the last
 * record is the run that asked, or a refused start that kept its flags: the question is the asking
 * run's, and so are the flags its answer goes on with, and the iteration limit they had.
 */
async function replayable(
  typed: readonly string[],
  end: RunEnd,
  { paths, maxIterations }: FinishContext,
): Promise<Pick<RunReport, 'runArgs' | 'replayMaxIterations'>> {
  const own = { runArgs: [...typed], ...(maxIterations > 0 ? { replayMaxIterations: maxIterations } : {}) };
  if (end.loopRan) return own;
  const waits = (await pathExists(paths.blocked)) || (await pathExists(paths.decide));
  return (waits ? await recordedReplay(paths.records) : undefined) ?? own;
}
