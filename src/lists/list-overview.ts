import { lstat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { countStories, type ReviewPolicy } from '../domain/tasks.js';
import { isKernelLockHeld, lockScope } from '../files/kernel-lock.js';
import { readLiveActive } from '../files/active-lock.js';
import { readLastRun } from '../files/last-run.js';
import { readOwnFile } from '../files/own-file.js';
import { ralphPaths } from '../files/paths.js';
import { recordPaths } from '../files/record-paths.js';
import { MAX_BRANCH_TASKS_BYTES, parseTasks } from '../files/tasks.js';
import { currentBranch } from '../git/branch.js';
import { recordDir } from '../git/record-dir.js';
import { branchExists, listWorktrees, showFile, type WorktreeEntry } from '../git/worktrees.js';
import { notOurWorktree } from './list-worktree.js';
import { errorLine, RalphError } from '../errors.js';
import { surveyTaskLists, worktreeDir, type BrokenList } from './task-lists.js';

/** Where a list's progress was read from: its worktree, its branch's last commit, or the file itself. */
export type ProgressSource = 'worktree' | 'branch' | 'file';

/** One task list as `ralph lists` shows it. */
export interface ListOverview {
  /** The name under ralph/lists/; null for ralph/tasks.json. */
  name: string | null;
  /** The list's file, relative to the repository root. */
  file: string;
  /** The branch its loop works on; null when ralph/tasks.json names none (the loop stays on the current branch). */
  branch: string | null;
  dependsOn: readonly string[];
  /** Its worktree, relative to the root, when there is one. */
  worktree: string | null;
  /** Stories complete and in all; null when the list could not be read (see `problem`). */
  stories: { complete: number; total: number } | null;
  storiesFrom: ProgressSource;
  problem: string | null;
  /**
   * The list's own file is no task list (bad name, unreadable, invalid): `problem` says why and the
   * fix, and nothing else about it is known. A problem with the progress alone (a worktree's copy) is not this.
   */
  broken: boolean;
  /** The loop running on it now (its lock held), if any. */
  running: { pid: number; iteration: number } | null;
  /** How its last run ended, as ralph recorded it in that checkout's git dir. */
  lastEnding: { reason: string; exitCode: number; endedAt: string | null } | null;
}

/**
 * Every task list — ralph/tasks.json first (when there is one), then those under ralph/lists/ —
 * with its progress: from its worktree when there is one, else from its branch (`git show`), else
 * from its file. The main checkout's lock and last run belong to the list whose branch it has
 * checked out (ralph/tasks.json without a branchName: whenever no other list's branch is).
 */
export async function readListOverviews(root: string, policy: ReviewPolicy): Promise<ListOverview[]> {
  const [{ lists, broken }, worktrees, current] = await Promise.all([
    surveyTaskLists(root),
    listWorktrees(root),
    currentBranch(root),
  ]);
  const defaultFile = ralphPaths(root).tasks;
  const defaultList = await readDefaultList(defaultFile);
  const entries = [
    ...(defaultList === undefined || defaultList.error
      ? []
      : [{ name: null, file: defaultFile, branch: defaultList.branch, dependsOn: [] as readonly string[] }]),
    ...lists.map((list) => ({ ...list, branch: list.branch })),
  ];
  const listed = new Set(entries.map((entry) => entry.branch).filter((branch) => branch !== null));
  const mainHolds = (branch: string | null) => (branch === null ? !listed.has(current ?? '') : branch === current);
  const read = await Promise.all(
    entries.map(async (entry): Promise<ListOverview> => {
      const tree = entry.branch === null ? undefined : await ownWorktree(root, entry.branch, worktrees);
      const checkout = tree ?? (mainHolds(entry.branch) ? root : undefined);
      const progress = await readProgress(root, entry.file, entry.branch, tree, checkout === root, policy);
      return {
        name: entry.name,
        file: shown(root, entry.file),
        branch: entry.branch,
        dependsOn: entry.dependsOn,
        worktree: tree ? shown(root, tree) : null,
        ...progress,
        broken: false,
        running: checkout ? await runningLoop(checkout) : null,
        lastEnding: checkout ? await lastEnding(checkout) : null,
      };
    }),
  );
  const brokenDefault = defaultList?.error ? [brokenOverview(root, null, defaultFile, defaultList.error)] : [];
  const brokenNamed = broken.map((list: BrokenList) => brokenOverview(root, list.name, list.file, list.error));
  // ralph/tasks.json first, then the named lists by name, the broken ones among them.
  const named = [...read.filter((list) => list.name !== null), ...brokenNamed].sort((a, b) =>
    a.name! < b.name! ? -1 : a.name! > b.name! ? 1 : 0,
  );
  return [...read.filter((list) => list.name === null), ...brokenDefault, ...named];
}

/** ralph/tasks.json's branch, or why it is no task list; undefined when there is none. */
async function readDefaultList(
  file: string,
): Promise<{ branch: string | null; error?: undefined } | { branch?: undefined; error: RalphError } | undefined> {
  let text: string | undefined;
  try {
    text = await readOwnFile(file);
  } catch (error) {
    if (error instanceof RalphError) return { error };
    throw error;
  }
  if (text === undefined) return undefined;
  const parsed = parseTasks(text);
  if (!parsed.ok)
    return { error: new RalphError('setup', `ralph/tasks.json: ${parsed.error}`, 'fix the task list, then run again') };
  return { branch: parsed.tasks.branchName?.trim() || null };
}

/** A list known only by its file: no branch, no progress, no loop. */
function brokenOverview(root: string, name: string | null, file: string, error: RalphError): ListOverview {
  return {
    name,
    file: shown(root, file),
    branch: null,
    dependsOn: [],
    worktree: null,
    stories: null,
    storiesFrom: 'file',
    // The user's line without its `ralph: `: what is wrong and the fix.
    problem: errorLine(error).replace(/^ralph: /, ''),
    broken: true,
    running: null,
    lastEnding: null,
  };
}

/** The list's worktree folder when it is provably this repository's worktree, on the list's branch. */
async function ownWorktree(root: string, branch: string, worktrees: WorktreeEntry[]): Promise<string | undefined> {
  const dir = worktreeDir(root, branch);
  const entry = worktrees.find((worktree) => worktree.path === dir);
  if (!entry || entry.branch !== branch) return undefined;
  return (await notOurWorktree(root, dir, worktrees)) === undefined ? dir : undefined;
}

async function readProgress(
  root: string,
  file: string,
  branch: string | null,
  tree: string | undefined,
  checkedOut: boolean,
  policy: ReviewPolicy,
): Promise<Pick<ListOverview, 'stories' | 'storiesFrom' | 'problem'>> {
  let text: string | undefined;
  let from: ProgressSource = 'file';
  let problem: string | null = null;
  if (tree) {
    from = 'worktree';
    // The agent writes the worktree: its tasks.json is read only as a regular file, never through a link.
    const path = ralphPaths(tree).tasks;
    const stats = await lstat(path).catch(() => undefined);
    if (stats?.isFile()) text = await readOwnFile(path).catch(() => undefined);
    else if (stats) problem = "the worktree's ralph/tasks.json is not a regular file";
  } else if (branch !== null && !checkedOut && (await branchExists(root, branch))) {
    from = 'branch';
    const shown = await showFile(root, `refs/heads/${branch}`, 'ralph/tasks.json', MAX_BRANCH_TASKS_BYTES);
    if ('text' in shown) text = shown.text;
    else if ('tooLarge' in shown)
      return {
        stories: null,
        storiesFrom: from,
        problem: `its ralph/tasks.json is ${shown.tooLarge} bytes, over the ${MAX_BRANCH_TASKS_BYTES} read from a branch`,
      };
    // A branch made before the list was committed on it: the file is all there is.
    else from = 'file';
  }
  if (from === 'file') text = await readOwnFile(file).catch(() => undefined);
  const parsed = text === undefined ? undefined : parseTasks(text);
  if (parsed?.ok) return { stories: countStories(parsed.tasks, policy), storiesFrom: from, problem };
  return { stories: null, storiesFrom: from, problem: problem ?? (parsed ? parsed.error : 'cannot be read') };
}

/** The loop holding a checkout's lock (the kernel's, which no agent can forge), if one does. */
async function runningLoop(checkout: string): Promise<ListOverview['running']> {
  const { active } = ralphPaths(checkout);
  if (!(await isKernelLockHeld(lockScope(active)))) return null;
  const described = await readLiveActive(active).catch(() => undefined);
  return { pid: described?.pid ?? 0, iteration: described?.iteration ?? 0 };
}

/** The ending ralph recorded for a checkout's last run; a record that does not read as one is none. */
async function lastEnding(checkout: string): Promise<ListOverview['lastEnding']> {
  const dir = await recordDir(checkout).catch(() => undefined);
  const record = dir === undefined ? undefined : await readLastRun(recordPaths(dir));
  if (!record || typeof record.reason !== 'string' || !/^[a-z_]{1,40}$/.test(record.reason)) return null;
  if (typeof record.exitCode !== 'number') return null;
  const endedAt = typeof record.endedAt === 'string' ? record.endedAt : null;
  return { reason: record.reason, exitCode: record.exitCode, endedAt };
}

function shown(root: string, path: string): string {
  return relative(root, path).split(sep).join('/') || join('.');
}
