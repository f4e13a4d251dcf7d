import { readFileWithin } from '../files/file-within.js';
import type { UsageWindow } from '../domain/usage.js';
import { readDeadActive, readLiveActive } from '../files/active-lock.js';
import { readCsvEnds } from '../files/csv-tail.js';
import { readCheckedLastRun } from '../files/last-run.js';
import type { RecordPaths, RunPaths } from '../files/record-paths.js';
import { blockedReason, decideAnswer, decideQuestion } from '../files/signal-files.js';
import { readOwnFileNoLink } from '../files/own-file.js';
import { readRunState, taskListId } from '../files/run-state.js';
import { doubtedApprovals } from '../files/doubted-approvals.js';
import { countStories, openStories, type ReviewPolicy } from '../domain/tasks.js';
import type { LastRunFile } from '../files/last-run-schema.js';
import { currentBranch } from '../git/branch.js';
import type { Forecast } from '../domain/forecast.js';
import { forecastOfState } from './read-forecast.js';

/** Everything `ralph status` knows, read from ralph's files; the `--json` output, its instants as ISO-8601. */
export interface StatusReport {
  root: string;
  /** The branch checked out (null: detached HEAD), and the one the task list names (null: none). */
  branch: { current: string | null; tasks: string | null };
  tasks: TasksStatus;
  loop: LoopStatus;
  blocked: { reason: string } | null;
  decide: { question: string; answered: boolean } | null;
  lastRun: LastRunStatus | null;
  /**
   * A run that ended without recording its ending (killed, crashed): later than `lastRun`, which is
   * the record before it. Null when none did.
   */
  killed: { startedAt: string; iteration: number } | null;
  recentIterations: IterationStatus[];
  /**
   * The stories left at the pace ralph measured (its records, never summary.csv); null without a
   * task list to count them in.
   */
  forecast: Forecast | null;
}

export type TasksStatus =
  | { state: 'missing' }
  | { state: 'invalid'; error: string }
  | {
      state: 'ok';
      project: string | null;
      branchName: string | null;
      complete: number;
      total: number;
      next: NextStory | null;
    };

export interface NextStory {
  id: string;
  title: string;
  priority: number | null;
}

export type LoopStatus =
  | { running: false }
  | {
      running: true;
      pid: number;
      iteration: number;
      /** Its place among the run's counted iterations (absent from the lock of an older ralph). */
      thisRun?: number;
      maxIterations: number;
      stuckCount: number;
      mode: string;
      startedAt: string;
      elapsedSeconds: number;
      /** The latest utilization per usage window, when the agent reported any. */
      usage?: UsageWindow[];
    };

export type LastRunStatus = ({ state: 'ok' } & LastRunFile) | { state: 'invalid'; error: string };

/** One summary.csv row; a column the file does not have is null. */
export interface IterationStatus {
  iteration: number | null;
  mode: string | null;
  durationSeconds: number | null;
  commit: string | null;
  outcome: string | null;
  /** The story ralph chose for the iteration's prompt (null: none, or a CSV an older ralph began). */
  story: string | null;
}

/** Reads the status from the files alone; a missing file is a fresh project, not an error. */
export async function readStatus(
  paths: RunPaths,
  options: { now: number; rows: number; policy: ReviewPolicy },
): Promise<StatusReport> {
  const [current, { tasks, forecast }, loop, killed, blocked, decide, lastRun, recentIterations] = await Promise.all([
    currentBranch(paths.root),
    readTasksStatus(paths, options.policy, options.now),
    readLoopStatus(paths.active, options.now),
    readKilledRun(paths.active),
    // Shown outside the agent's box: a link it planted (to ~/.ssh/id_rsa) is refused, never followed.
    readOwnFileNoLink(paths.blocked),
    readOwnFileNoLink(paths.decide),
    readLastRunStatus(paths.records),
    readRecentIterations(paths.summaryCsv, options.rows),
  ]);
  return {
    root: paths.root,
    branch: { current: current ?? null, tasks: tasks.state === 'ok' ? tasks.branchName : null },
    tasks,
    loop,
    blocked: blocked === undefined ? null : { reason: blockedReason(blocked) },
    decide: decide === undefined ? null : { question: decideQuestion(decide), answered: decideAnswer(decide) !== '' },
    lastRun,
    killed,
    recentIterations,
    forecast,
  };
}

/** The run `.ralph-active` names whose owner is gone, in the fields status shows (checked, re-written). */
async function readKilledRun(path: string): Promise<StatusReport['killed']> {
  const dead = await readDeadActive(path);
  if (!dead) return null;
  const started = Date.parse(dead.startedAt);
  return {
    startedAt: Number.isNaN(started) ? 'an unknown time' : new Date(started).toISOString().replace(/\.\d+Z$/, 'Z'),
    iteration: Number.isInteger(dead.iteration) && dead.iteration >= 0 ? dead.iteration : 0,
  };
}

/** The task list's stories, and the forecast for those left (null without a list to count them in). */
async function readTasksStatus(
  paths: RunPaths,
  reviewPolicy: ReviewPolicy,
  now: number,
): Promise<{ tasks: TasksStatus; forecast: Forecast | null }> {
  const text = readFileWithin(paths.root, paths.tasks);
  if (text === undefined) return { tasks: { state: 'missing' }, forecast: null };
  // zod (the schema, and its error messages) is loaded only where there is a task list to check.
  const parsed = (await import('../files/tasks.js')).parseTasks(text);
  if (!parsed.ok) return { tasks: { state: 'invalid', error: parsed.error }, forecast: null };
  // Approvals no review made do not count, as in the run (docs/review-cycle.md).
  const id = taskListId(paths.root, paths.tasks);
  const state = await readRunState(paths.records, id);
  const unconfirmed = await doubtedApprovals(paths.records, id, parsed.tasks, state.unconfirmedApprovals);
  const policy = { ...reviewPolicy, unconfirmed };
  const next = openStories(parsed.tasks, policy)[0];
  const counts = countStories(parsed.tasks, policy);
  return {
    tasks: {
      state: 'ok',
      project: parsed.tasks.project ?? null,
      branchName: parsed.tasks.branchName || null,
      ...counts,
      next: next ? { id: next.id, title: next.title, priority: next.priority ?? null } : null,
    },
    forecast: forecastOfState(state, counts.total - counts.complete, now),
  };
}

async function readLoopStatus(path: string, now: number): Promise<LoopStatus> {
  const active = await readLiveActive(path);
  if (!active) return { running: false };
  const started = Date.parse(active.startedAt);
  return {
    running: true,
    pid: active.pid,
    iteration: active.iteration,
    ...(Number.isInteger(active.thisRun) ? { thisRun: active.thisRun } : {}),
    maxIterations: active.maxIterations,
    stuckCount: active.stuckCount,
    mode: active.mode,
    startedAt: active.startedAt,
    elapsedSeconds: Number.isNaN(started) ? 0 : Math.max(0, Math.round((now - started) / 1000)),
    ...(usageOf(active.usage) ? { usage: usageOf(active.usage) } : {}),
  };
}

/** The usage windows `.ralph-active` holds, when they are well formed. */
function usageOf(value: unknown): UsageWindow[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const windows = value.filter(
    (item): item is UsageWindow =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as Partial<UsageWindow>).window === 'string' &&
      typeof (item as Partial<UsageWindow>).utilization === 'number',
  );
  return windows.length > 0 ? windows : undefined;
}

/** The last run as ralph recorded it (never the published copy in ralph/logs/, which the agent can rewrite). */
async function readLastRunStatus(records: RecordPaths): Promise<LastRunStatus | null> {
  const checked = await readCheckedLastRun(records);
  if (checked === undefined) return null;
  return checked.ok ? { state: 'ok', ...checked.run } : { state: 'invalid', error: checked.error };
}

async function readRecentIterations(path: string, count: number): Promise<IterationStatus[]> {
  const csv = await readCsvEnds(path, count);
  if (!csv) return [];
  // By header name: columns may be appended (outcome comes later), never assumed by position.
  const column = (name: string) => csv.header.indexOf(name);
  const at = (row: string[], index: number) => (index === -1 ? null : (row[index] ?? null) || null);
  const number = (value: string | null) => (value === null || !Number.isFinite(Number(value)) ? null : Number(value));
  const columns = {
    iteration: column('iteration'),
    mode: column('mode'),
    duration: column('duration_seconds'),
    commit: column('commit_hash'),
    outcome: column('outcome'),
    story: column('story'),
  };
  return csv.rows.map((row) => ({
    iteration: number(at(row, columns.iteration)),
    mode: at(row, columns.mode),
    durationSeconds: number(at(row, columns.duration)),
    commit: at(row, columns.commit),
    outcome: at(row, columns.outcome),
    story: at(row, columns.story),
  }));
}
