import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * git's files that send it elsewhere — `commondir` (another git dir, its config and hooks with it)
 * and `config.worktree` (read when the repository enables it) — that do not exist as the box is
 * made. A bind cannot hold a file that is not there (it would leave an empty one, which breaks git),
 * so ralph records their absence here and takes away whatever the agent put there, after each of
 * its commands: your next `git status`, outside the box, would otherwise run what they name.
 */
export async function absentRedirects(gitDir: string, commonDir: string): Promise<string[]> {
  const candidates = [
    ...(gitDir === commonDir ? [join(gitDir, 'commondir')] : []),
    join(commonDir, 'config.worktree'),
    join(gitDir, 'config.worktree'),
  ];
  const absent = await Promise.all(candidates.map(async (path) => ((await exists(path)) ? undefined : path)));
  return [...new Set(absent.filter((path) => path !== undefined))];
}

/** Removes each recorded-absent redirect that is now there; resolves to what it removed. */
export async function sweepRedirects(paths: readonly string[]): Promise<string[]> {
  const found = await Promise.all(paths.map(async (path) => ((await exists(path)) ? path : undefined)));
  const planted = found.filter((path) => path !== undefined);
  await Promise.all(planted.map((path) => rm(path, { recursive: true, force: true })));
  return planted;
}

async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined)) !== undefined;
}
