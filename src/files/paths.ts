import { isAbsolute, join, relative } from 'node:path';

/** Where ralph keeps its files in a repository. */
export interface RalphPaths {
  root: string;
  dir: string;
  prompt: string;
  tasks: string;
  progress: string;
  prd: string;
  config: string;
  logs: string;
  summaryCsv: string;
  /** The published copy of the last run's record, for scripts and CI (ralph decides from its own: record-paths.ts). */
  lastRun: string;
  blocked: string;
  decide: string;
  active: string;
}

/**
 * The loop's own files: git-ignored so they never dirty the tree or land in an agent's commit.
 * state.json and .tasks-snapshot.json now live in the records (record-paths.ts); their old names stay
 * ignored, so a copy an older ralph left (or an agent wrote) never lands in a commit either.
 * A `*` pattern covers the temporary files written beside one (`.ralph-active.<pid>.tmp`, `.new`,
 * `.stale`; `state.json.<pid>.tmp`), which an agent's `git add -A` could otherwise catch mid-write.
 */
export const LOOP_OWNED_PATHS = [
  'ralph/logs/',
  'ralph/blocked.txt',
  'ralph/decide.txt',
  'ralph/.ralph-active',
  'ralph/.ralph-active.*',
  'ralph/.tasks-snapshot.json',
  'ralph/state.json',
  'ralph/state.json.*',
  // The task lists' worktrees (ralph run --worktree): checkouts of their own, never the main one's files.
  'ralph/worktrees/',
];

/**
 * The paths of ralph's files under a repository root. `tasks` (absolute) is the task list `--tasks`
 * chose; every other file is the work tree's own, whichever list runs in it.
 */
export function ralphPaths(root: string, tasks?: string): RalphPaths {
  const dir = join(root, 'ralph');
  const logs = join(dir, 'logs');
  return {
    root,
    dir,
    prompt: join(dir, 'prompt.md'),
    tasks: tasks ?? join(dir, 'tasks.json'),
    progress: join(dir, 'progress.txt'),
    prd: join(dir, 'prd.md'),
    config: join(dir, 'config.json'),
    logs,
    summaryCsv: join(logs, 'summary.csv'),
    lastRun: join(logs, 'last-run.json'),
    blocked: join(dir, 'blocked.txt'),
    decide: join(dir, 'decide.txt'),
    active: join(dir, '.ralph-active'),
  };
}

/** `iteration-007.log`: zero-padded to three digits, wider past 999. */
export function iterationFileName(iteration: number, extension: 'log' | 'jsonl', fallback?: string): string {
  // A fallback agent's call has logs of its own beside the first agent's, in the same iteration.
  return `iteration-${String(iteration).padStart(3, '0')}.${fallback ? `${fallback}.` : ''}${extension}`;
}

/**
 * A path as a person in `from` would type it: relative inside `from` (`.` for `from` itself),
 * absolute outside it (a `../../x` says less than `/x`).
 */
export function shownPath(from: string, path: string): string {
  const inside = relative(from, path);
  if (inside === '') return '.';
  return inside === '..' || inside.startsWith('../') || isAbsolute(inside) ? path : inside;
}
