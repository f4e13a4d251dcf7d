import { createHash, type Hash } from 'node:crypto';
import { constants, type BigIntStats } from 'node:fs';
import { lstat, open, readlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { WorkTreeChanges } from '../domain/work-tree-changes.js';
import { isErrno } from '../errors.js';
import { pathExists } from '../files/missing-file.js';
import { gitOutput } from './safe-git.js';
import { gitDirsFromFiles } from './head-file.js';

/** ralph's own folder (or a link to it): its files change during every run and never count as the user's changes. */
const isRalphs = (path: string) => path === 'ralph' || path.startsWith('ralph/');

/**
 * Every uncommitted path outside ralph/ — modified, staged, deleted or untracked (ignored files
 * are not changes) — with a hash of its content, so a later start can tell whether it changed since.
 */
export async function uncommittedChanges(root: string, signal?: AbortSignal): Promise<WorkTreeChanges> {
  const status = await gitOutput(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'], {
    filters: true,
    ...(signal ? { signal } : {}),
  });
  const paths = status
    .split('\0')
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3))
    .filter((path) => !isRalphs(path));
  const changes: WorkTreeChanges = {};
  for (const path of paths.sort()) changes[path] = await contentHash(join(root, path));
  return changes;
}

/** The paths changed now that were not left exactly so by the previous run. */
export function foreignChanges(now: WorkTreeChanges, leftBehind: WorkTreeChanges): string[] {
  return Object.keys(now).filter((path) => leftBehind[path] !== now[path]);
}

/** A file up to this size is hashed whole; a larger one by its identity and its two ends (sampledHash). */
const WHOLE_HASH_BYTES = 8 * 1024 * 1024;
/** How much of each end of a large file goes into its hash. */
const END_BYTES = 1024 * 1024;

/** sha256 of a file's bytes (streamed; a large file's by sampledHash), of a link's target, or `deleted`. */
async function contentHash(path: string): Promise<string> {
  try {
    const stats = await lstat(path);
    const hash = createHash('sha256');
    if (stats.isSymbolicLink()) hash.update(`link:${await readlink(path)}`);
    else if (stats.isFile()) await hashFile(path, hash);
    else hash.update(`${stats.mode}`);
    return hash.digest('hex');
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return 'deleted';
    throw error;
  }
}

/**
 * A regular file into `hash`, opened without blocking and judged on what was opened (a FIFO swapped
 * in after the lstat is hashed by its mode, never waited on).
 */
async function hashFile(path: string, hash: Hash): Promise<void> {
  const handle = await open(
    path,
    constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | constants.O_NOFOLLOW,
  );
  try {
    const stats = await handle.stat({ bigint: true });
    if (!stats.isFile()) hash.update(`${stats.mode}`);
    else if (stats.size <= WHOLE_HASH_BYTES) await pipeline(handle.createReadStream({ autoClose: false }), hash);
    else await sampledHash(handle, stats, hash);
  } finally {
    await handle.close();
  }
}

/**
 * A large file by its size, device, inode, mtime and ctime (nanoseconds), and its first and last MiB.
 * The agent can leave a 20 GiB sparse file uncommitted (16 TiB on ext4): hashed whole, the run's end
 * and the next start took minutes (days for 16 TiB). The hash only answers "is this file exactly as
 * the last run left it?" (foreignChanges, at the next start), and for that the identity is enough:
 * any write to the file, and any change of its times, sets its ctime to the kernel's clock, which no
 * program can set back (utimes sets ctime too), so a person's edit anywhere in it changes the hash.
 * The two ends catch a file replaced by a same-sized copy on a file system with coarse timestamps. A
 * file merely copied or restored elsewhere (a new inode) reads as changed: a refusal to start, with
 * --allow-dirty, never a change passed over.
 */
async function sampledHash(handle: FileHandle, stats: BigIntStats, hash: Hash): Promise<void> {
  hash.update(`sampled:${stats.size}:${stats.dev}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`);
  const end = Buffer.alloc(END_BYTES);
  for (const position of [0, Number(stats.size) - END_BYTES]) {
    const { bytesRead } = await handle.read(end, 0, END_BYTES, position);
    hash.update(end.subarray(0, bytesRead));
  }
}

/** A git operation that stopped halfway and waits for a human: what it is, and how to end it. */
export interface PendingOperation {
  what: string;
  /** The commands that finish or abort it. */
  howToEnd: string;
}

/** Each half-finished operation by the file git keeps for it in the git directory, most specific first. */
const OPERATIONS: readonly (PendingOperation & { marker: string })[] = [
  {
    marker: 'rebase-apply/applying',
    what: 'a `git am` is in progress',
    howToEnd: 'finish it with `git am --continue` or abort it with `git am --abort`',
  },
  {
    marker: 'rebase-merge',
    what: 'a rebase is in progress',
    howToEnd: 'finish it with `git rebase --continue` or abort it with `git rebase --abort`',
  },
  {
    marker: 'rebase-apply',
    what: 'a rebase is in progress',
    howToEnd: 'finish it with `git rebase --continue` or abort it with `git rebase --abort`',
  },
  {
    marker: 'MERGE_HEAD',
    what: 'a merge is in progress',
    howToEnd: 'finish it with `git commit` or abort it with `git merge --abort`',
  },
  {
    marker: 'CHERRY_PICK_HEAD',
    what: 'a cherry-pick is in progress',
    howToEnd: 'finish it with `git cherry-pick --continue` or abort it with `git cherry-pick --abort`',
  },
  {
    marker: 'REVERT_HEAD',
    what: 'a revert is in progress',
    howToEnd: 'finish it with `git revert --continue` or abort it with `git revert --abort`',
  },
  { marker: 'BISECT_LOG', what: 'a bisect is in progress', howToEnd: 'end it with `git bisect reset`' },
];

/** The merge, rebase, cherry-pick, revert or bisect this work tree is in the middle of, if any. */
export async function pendingOperation(root: string, signal?: AbortSignal): Promise<PendingOperation | undefined> {
  // From the files when they settle it: no process started.
  const found = await gitDirsFromFiles(root);
  const gitDir = found?.gitDir ?? (await gitOutput(root, ['rev-parse', '--absolute-git-dir'], signal)).trim();
  // Looked for all at once; the first of the list found is the one named.
  const present = await Promise.all(OPERATIONS.map(({ marker }) => pathExists(join(gitDir, marker))));
  const operation = OPERATIONS.find((_, index) => present[index]);
  return operation ? { what: operation.what, howToEnd: operation.howToEnd } : undefined;
}
