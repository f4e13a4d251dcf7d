import { lstat, realpath, rename } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { isErrno, RalphError } from '../errors.js';
import { lockRefusal } from '../files/active-lock.js';
import { createUniqueDir } from '../files/archive-name.js';
import { pathExists } from '../files/missing-file.js';
import { ownFolder } from '../files/own-file.js';
import { ralphPaths } from '../files/paths.js';
import {
  branchExists,
  hasUncommittedWork,
  isMergedInto,
  listWorktrees,
  onSomeBranch,
  pruneWorktreeRecords,
  removeWorktree,
  resolveCommit,
  type WorktreeEntry,
} from '../git/worktrees.js';
import { notOurWorktree } from './list-worktree.js';
import { WORKTREES_DIR } from './task-lists.js';

/** What prune did with one worktree, and why. */
export type PruneVerdict =
  | { dir: string; action: 'removed'; why: string; logsKeptIn?: string }
  | { dir: string; action: 'forgotten'; why: string }
  | { dir: string; action: 'kept'; why: string };

/**
 * Removes the worktrees under ralph/worktrees/ whose branch is merged into `base` (default HEAD)
 * or gone — never one with uncommitted work, a live loop, or a commit no branch holds — and says
 * for each what it did and why. Their logs move to the main checkout's ralph/logs/worktrees/: a
 * run's records are never deleted. The branches stay as they are.
 */
export async function pruneWorktrees(root: string, base = 'HEAD'): Promise<PruneVerdict[]> {
  const into = await resolveCommit(root, base);
  if (into === undefined)
    throw new RalphError('usage', `--base ${base}: no commit of that name`, 'name a branch, tag or commit');
  // git's own records of worktrees whose folder was deleted by hand: only bookkeeping goes.
  const verdicts: PruneVerdict[] = (await listWorktrees(root))
    .filter((entry) => entry.prunable && !entry.locked && isUnderWorktrees(root, entry.path))
    .map((entry) => ({
      dir: shown(root, entry.path),
      action: 'forgotten',
      why: "its folder is gone: git's record of it",
    }));
  await pruneWorktreeRecords(root);
  const entries = await listWorktrees(root);
  const ours = entries.filter((entry) => isUnderWorktrees(root, entry.path));
  for (const entry of ours) verdicts.push(await judge(root, entry, entries, base, into));
  return verdicts;
}

async function judge(
  root: string,
  entry: WorktreeEntry,
  entries: readonly WorktreeEntry[],
  base: string,
  into: string,
): Promise<PruneVerdict> {
  const dir = shown(root, entry.path);
  const kept = (why: string): PruneVerdict => ({ dir, action: 'kept', why });
  const foreign = await notOurWorktree(root, entry.path, entries);
  if (foreign) return kept(`${foreign}: left alone`);
  if (entry.locked) return kept('locked with git worktree lock');
  const live = await lockRefusal(ralphPaths(entry.path).active);
  if (live) return kept('a loop runs in it');
  // HEAD names a branch that no longer exists: nothing records the commit its files came from.
  if (entry.head === undefined)
    return kept(`branch ${entry.branch ?? '?'} is gone and nothing records its last commit`);
  if (await hasUncommittedWork(entry.path)) return kept('it holds uncommitted work: commit or stash it first');
  const why = await removable(root, entry, base, into);
  if (typeof why !== 'string') return kept(why.keep);
  return remove(root, entry, dir, why);
}

/** Why the worktree may go (its branch merged or gone, its commit safe), or why it stays. */
async function removable(
  root: string,
  entry: WorktreeEntry,
  base: string,
  into: string,
): Promise<string | { keep: string }> {
  const { branch, head } = entry;
  if (branch !== undefined && (await branchExists(root, branch))) {
    if (await isMergedInto(root, `refs/heads/${branch}`, into)) return `branch ${branch} is merged into ${base}`;
    return { keep: `branch ${branch} is not merged into ${base}` };
  }
  const gone = branch === undefined ? 'its HEAD is detached' : `branch ${branch} is gone`;
  // Gone or detached: removing it must not leave its last commit on no branch.
  if (head === undefined) return { keep: `${gone} and nothing records its last commit` };
  if ((await isMergedInto(root, head, into)) || (await onSomeBranch(root, head)))
    return `${gone}, its commit on a branch`;
  return {
    keep: `${gone} and its commit ${head.slice(0, 12)} is on no branch: git branch <name> ${head.slice(0, 12)} keeps it`,
  };
}

async function remove(root: string, entry: WorktreeEntry, dir: string, why: string): Promise<PruneVerdict> {
  const logs = ralphPaths(entry.path).logs;
  const foreign = await foreignLogs(entry.path);
  if (foreign) return { dir, action: 'kept', why: `${foreign}: its logs are not moved, nor is it removed` };
  let kept: string | undefined;
  if (await pathExists(logs)) {
    const parent = join(ralphPaths(root).logs, 'worktrees');
    await ownFolder(root, parent);
    kept = await createUniqueDir(parent, entry.path.split(sep).pop() ?? 'worktree');
    await rename(logs, kept);
  }
  const removed = await removeWorktree(root, entry.path);
  if (!removed.ok) {
    if (kept) await rename(kept, logs).catch(() => undefined);
    return { dir, action: 'kept', why: `git would not remove it: ${removed.reason}` };
  }
  return { dir, action: 'removed', why, ...(kept ? { logsKeptIn: shown(root, kept) } : {}) };
}

function isUnderWorktrees(root: string, path: string): boolean {
  return dirname(path) === join(root, WORKTREES_DIR);
}

function shown(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/**
 * Why the worktree's `ralph/` or `ralph/logs/` is no folder of its own, if it is not: the agent can
 * make either a link to a folder outside the repository, and moving "its logs" would then move that
 * folder (or a link to it) into the main checkout. Each must be missing or a real folder inside the
 * worktree.
 */
async function foreignLogs(worktree: string): Promise<string | undefined> {
  const real = await realpath(worktree);
  for (const part of ['ralph', 'ralph/logs']) {
    const path = join(worktree, part);
    const stats = await lstat(path).catch((error: unknown) => {
      if (isErrno(error, 'ENOENT')) return undefined;
      throw error;
    });
    if (stats === undefined) return undefined;
    if (stats.isSymbolicLink()) return `its ${part} is a symbolic link`;
    if (!stats.isDirectory()) return `its ${part} is not a folder`;
    const inside = relative(real, await realpath(path));
    if (inside.startsWith('..') || isAbsolute(inside)) return `its ${part} lies outside it`;
  }
  return undefined;
}
