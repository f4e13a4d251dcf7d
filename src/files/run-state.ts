import { relative, sep } from 'node:path';
import { listKey } from './list-record.js';
import { ownFile } from '../errors.js';
import type { WorkTreeChanges } from '../domain/work-tree-changes.js';
import type { Reason } from '../loop/termination.js';
import { readOwnFile } from './own-file.js';
import { replaceOwnFile } from './replace-own-file.js';
import { parseJson } from './json-text.js';
import type { RecordPaths } from './record-paths.js';
import type { Pace, PaceWindow } from '../domain/pace.js';
import { copyCounts, countOf, emptyCounts, withCount, type KeyedCounts } from '../domain/keyed-counts.js';

/**
 * ralph's memory of one task list across runs (state.json in the records, record-paths.ts). This
 * module is its one owner: every reading and every write goes through the functions below.
 */
export interface RunState {
  /**
   * The task list this state belongs to: its file's path in the work tree (`ralph/tasks.json`), which
   * ralph chose, never a name the agent writes; another list starts afresh.
   */
  taskList: string;
  /** Set by this ralph: the key is the list's file (an older ralph keyed by branchName or project). */
  keyedBy?: 'file';
  runs: number;
  /** Consecutive resumes after runs that completed no new story. */
  resumeAttempts: number;
  lastReason?: Reason;
  lastStoriesComplete?: number;
  /** Stories the last run completed. */
  lastRunCompleted?: number;
  /** Per story, the reviews that sent it back (ralph's own count; the agent's reviewCount is informational). */
  reviewRejections: KeyedCounts;
  /** Stories marked approved outside a review iteration: not complete until a review approves them (absent: none). */
  unconfirmedApprovals?: string[];
  /** Set as an iteration starts, cleared when the run records its ending: found set at a start, ralph was killed. */
  runOpen?: boolean;
  /** The stories approved as the last iteration started: a killed run's later approvals are doubted. */
  seenApprovals?: string[];
  /** The sha256 of the question ralph last wrote to decide.txt: only an answer to it is a human's. */
  decideAsked?: string;
  /** A BLOCKED `ralph answer` resolved, until the next prompt has shown it. */
  resolvedBlock?: { reason: string; answer: string };
  /**
   * The uncommitted changes outside ralph/ as the last run ended (whatever its task list): a start
   * accepts these without --allow-dirty, and catches anything a person changed since.
   */
  leftBehind?: WorkTreeChanges;
  /** What this list's iterations cost and took, and the stories they completed: the forecast's measure (pace.ts). */
  pace?: Pace;
  /** The usage windows' first and latest readings over those iterations. */
  paceWindows?: PaceWindow[];
}

/** The state for a task list: what state.json holds when it is about that list, else a fresh start. */
export async function readRunState(records: RecordPaths, taskList: string): Promise<RunState> {
  const state = await readStored(records);
  const fresh: RunState = {
    taskList,
    keyedBy: 'file',
    runs: 0,
    resumeAttempts: 0,
    reviewRejections: emptyCounts(),
    ...(state.leftBehind ? { leftBehind: state.leftBehind } : {}),
  };
  if (state.taskList !== taskList || state.keyedBy !== 'file') return fresh;
  return { ...fresh, ...state, reviewRejections: copyCounts(state.reviewRejections) };
}

/** The task list state.json is about (the last run's), or undefined when there is no state yet. */
export async function storedTaskList(records: RecordPaths): Promise<string | undefined> {
  const { taskList } = await readStored(records);
  return typeof taskList === 'string' ? taskList : undefined;
}

/**
 * The one writer of state.json: whole or not at all, never through a link. An OS error is an `io`
 * error naming the file (the run ends io_error).
 */
function writeRunState(records: RecordPaths, state: RunState): Promise<void> {
  return ownFile(records.state, 'write', () =>
    replaceOwnFile(records.base, records.state, `${JSON.stringify(state, null, 2)}\n`),
  );
}

/** Changes state.json under a lock-free read-modify-write (only the one running loop writes it). */
export async function updateRunState(
  records: RecordPaths,
  taskList: string,
  change: (state: RunState) => RunState,
): Promise<RunState> {
  const next = change(await ownFile(records.state, 'read', () => readRunState(records, taskList)));
  await writeRunState(records, next);
  return next;
}

/** Counts one more review that sent the story back; resolves to its count so far (any id is a plain key). */
export async function addReviewRejection(records: RecordPaths, taskList: string, storyId: string): Promise<number> {
  const state = await updateRunState(records, taskList, (current) => ({
    ...current,
    reviewRejections: withCount(current.reviewRejections, storyId, countOf(current.reviewRejections, storyId) + 1),
  }));
  return countOf(state.reviewRejections, storyId);
}

/** The identity of a task list, for state.json: its file's path in the work tree (list-record.ts). */
export function taskListId(root: string, file: string): string {
  return listKey(root, file);
}

/**
 * An older ralph's state, keyed by the list's branchName or project, taken over once for the list
 * in `file` when that name is the list's (`legacy`). The state's own doubts count whatever its key:
 * resolves to the approvals it held unconfirmed, which the first record of the lists must not trust.
 */
export async function adoptOlderState(records: RecordPaths, taskList: string, legacy: string): Promise<string[]> {
  const stored = await readStored(records);
  if (stored.keyedBy === 'file' || stored.taskList === undefined) return [];
  if (stored.taskList === legacy) await writeRunState(records, { ...(stored as RunState), taskList, keyedBy: 'file' });
  return doubtsOf(stored);
}

/** The approvals an older ralph's state held unconfirmed (none once this ralph keyed it by file). */
export async function olderDoubts(records: RecordPaths): Promise<string[]> {
  const stored = await readStored(records);
  return stored.keyedBy === 'file' ? [] : doubtsOf(stored);
}

function doubtsOf(stored: Partial<RunState>): string[] {
  const doubted: unknown = stored.unconfirmedApprovals;
  return Array.isArray(doubted) ? doubted.filter((id): id is string => typeof id === 'string') : [];
}

/** The name an older ralph kept a list's state under: its branchName, else its project. */
export function olderTaskListId(tasks: { branchName?: string; project?: string }): string {
  return tasks.branchName ?? tasks.project ?? '';
}

/**
 * The list in `file` as a run works on it: a list under ralph/lists/ without a branchName works on
 * `ralph/<name>` (as `ralph lists` shows it). Every reader of state.json keys it by this list's
 * identity, so run, status, archive and answer must all take it from here.
 */
export function withListBranch<T extends { branchName?: string }>(tasks: T, root: string, file: string): T {
  if (tasks.branchName?.trim()) return tasks;
  const inside = relative(root, file).split(sep);
  const [top, folder, name] = inside;
  if (inside.length !== 3 || top !== 'ralph' || folder !== 'lists' || !name?.endsWith('.json')) return tasks;
  return { ...tasks, branchName: `ralph/${name.slice(0, -'.json'.length)}` };
}

/**
 * Counts what ralph itself just wrote outside ralph/ (`ralph init`: .gitignore, the client's hook settings,
 * a CI workflow) as left behind by ralph, so the first `ralph run` does not refuse over it. `now`: the
 * work tree's uncommitted changes as they stand (git/work-tree.ts), read by the caller.
 */
export async function acceptAsLeftBehind(
  records: RecordPaths,
  written: readonly string[],
  now: WorkTreeChanges,
): Promise<void> {
  const ours = Object.entries(now).filter(([changed]) => written.includes(changed));
  if (ours.length === 0) return;
  const stored = await readStored(records);
  await writeRunState(records, {
    ...stored,
    leftBehind: { ...stored.leftBehind, ...Object.fromEntries(ours) },
  } as RunState);
}

/** What state.json holds; a damaged file must not stop the loop (it only holds counters), so it reads as empty. */
async function readStored(records: RecordPaths): Promise<Partial<RunState>> {
  const text = await readOwnFile(records.state);
  const parsed = text === undefined ? undefined : parseJson(text);
  return parsed?.ok && typeof parsed.value === 'object' && parsed.value !== null ? parsed.value : {};
}

/** Takes the BLOCKED resolution state.json holds (gone once taken); anything but two strings is none. */
export async function takeResolvedBlock(
  records: RecordPaths,
  taskList: string,
): Promise<{ reason: string; answer: string } | undefined> {
  const { resolvedBlock, ...rest } = await readRunState(records, taskList);
  if (resolvedBlock === undefined) return undefined;
  await writeRunState(records, rest);
  const { reason, answer } = resolvedBlock as Partial<Record<string, unknown>>;
  return typeof reason === 'string' && typeof answer === 'string' ? { reason, answer } : undefined;
}
