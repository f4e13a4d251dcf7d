import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { findGitDirs } from './head-file.js';

/**
 * Why the worktree at `dir` is not the repository's own by its git dirs, or undefined when it is:
 * its git dir must really be a folder of `<common git dir>/worktrees/` (no link out of it), and that
 * git dir's `commondir` must lead back to the repository's own common dir. A worktree the agent made
 * with a `commondir` into a folder of its own (the client's state) would have git, yours later,
 * read that folder's config and hooks. Every path is compared real, as the kernel resolves it.
 */
export async function foreignGitDirs(dir: string, commonDir: string): Promise<string | undefined> {
  const dirs = await findGitDirs(dir).catch(() => undefined);
  if (!dirs) return 'its .git names no git dir';
  const [gitDir, ownCommon, itsCommon] = await Promise.all(
    [dirs.gitDir, commonDir, dirs.commonDir].map((path) => realpath(path).catch(() => undefined)),
  );
  if (gitDir === undefined || ownCommon === undefined) return 'its git dir is missing';
  if (dirname(gitDir) !== join(ownCommon, 'worktrees') || basename(gitDir) === '')
    return `its git dir is ${gitDir}, not one of ${join(ownCommon, 'worktrees')}`;
  if (itsCommon !== ownCommon)
    return `its git dir's commondir leads to ${itsCommon ?? dirs.commonDir}, not ${ownCommon}`;
  return undefined;
}
