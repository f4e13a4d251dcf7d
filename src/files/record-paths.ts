import { dirname, join } from 'node:path';
import type { RalphPaths } from './paths.js';

/**
 * Where ralph keeps the records it decides from: the folder `recordDir` names (`.git/ralph`, or
 * `.git/worktrees/<name>/ralph`), which the agent's box binds read-only. ralph/ is the agent's to
 * write, so nothing there is read to decide again; ralph/logs/last-run.json is the published copy.
 */
export interface RecordPaths {
  dir: string;
  /** The git dir that holds the folder: every folder from here down is made real (own-file.ts). */
  base: string;
  /** ralph's memory of the task list across runs: run-open mark, seen approvals, the question's digest… */
  state: string;
  /** tasks.json as the running iteration began (for the Stop hook). */
  tasksSnapshot: string;
  /** How the last run ended, with the flags `ralph answer --run` replays (see last-run.ts). */
  lastRun: string;
  /** Per task list file, the stories and the approvals ralph saw (list-record.ts). */
  lists: string;
}

/** A work tree's files and ralph's records about it: what a command that decides is given. */
export interface RunPaths extends RalphPaths {
  records: RecordPaths;
}

/** The records' paths in `dir`, the folder `recordDir` resolved once for the command. */
export function recordPaths(dir: string): RecordPaths {
  return {
    dir,
    base: dirname(dir),
    state: join(dir, 'state.json'),
    tasksSnapshot: join(dir, 'tasks-snapshot.json'),
    lastRun: join(dir, 'last-run.json'),
    lists: join(dir, 'lists.json'),
  };
}

/** The work tree's paths with its records in `dir` (recordDir's answer for `paths.root`). */
export function withRecords(paths: RalphPaths, dir: string): RunPaths {
  return { ...paths, records: recordPaths(dir) };
}
