import { rename, writeFile } from 'node:fs/promises';
import type { Reason } from '../loop/termination.js';
import { readOptional } from './signal-files.js';

/** ralph's memory of one task list across runs (ralph/state.json). */
export interface RunState {
  /** The task list this state belongs to (its branchName or project); another list starts afresh. */
  taskList: string;
  runs: number;
  /** Consecutive resumes after runs that completed no new story. */
  resumeAttempts: number;
  lastReason?: Reason;
  lastStoriesComplete?: number;
  /** Stories the last run completed. */
  lastRunCompleted?: number;
  /** Per story, the reviews that sent it back (ralph's own count; the agent's reviewCount is informational). */
  reviewRejections: Record<string, number>;
  /** Stories marked approved outside a review iteration: not complete until a review approves them (absent: none). */
  unconfirmedApprovals?: string[];
}

/** The state for a task list: what state.json holds when it is about that list, else a fresh start. */
export async function readRunState(path: string, taskList: string): Promise<RunState> {
  const fresh: RunState = { taskList, runs: 0, resumeAttempts: 0, reviewRejections: {} };
  const text = await readOptional(path);
  if (text === undefined) return fresh;
  try {
    const state = JSON.parse(text) as Partial<RunState>;
    if (state.taskList !== taskList) return fresh;
    return { ...fresh, ...state, reviewRejections: { ...state.reviewRejections } };
  } catch {
    return fresh; // A damaged state file must not stop the loop; it only holds counters.
  }
}

/** Writes state.json atomically. */
export async function writeRunState(path: string, state: RunState): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`);
  await rename(temporary, path);
}

/** Changes state.json under a lock-free read-modify-write (only the one running loop writes it). */
export async function updateRunState(path: string, taskList: string, change: (state: RunState) => RunState): Promise<RunState> {
  const next = change(await readRunState(path, taskList));
  await writeRunState(path, next);
  return next;
}

/** The identity of a task list, for state.json: its branchName, else its project. */
export function taskListId(tasks: { branchName?: string; project?: string }): string {
  return tasks.branchName ?? tasks.project ?? '';
}
