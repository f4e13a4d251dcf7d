import { lstat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { readOwnFile } from '../files/own-file.js';
import { MAX_READ_BYTES } from '../files/read-cap.js';

/** Where a repository keeps HEAD (per work tree) and its refs (shared by all work trees). */
export interface GitDirs {
  gitDir: string;
  commonDir: string;
}

const HASH = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const SYMBOLIC = /^ref: (refs\/\S+)$/;
/** Refs that live in each work tree's own git dir rather than the common one. */
const PER_WORKTREE = /^refs\/(?:bisect|worktree|rewritten)\//;
const MAX_SYMBOLIC_DEPTH = 5;

/** Whether a HEAD file's text is one git reads: a symbolic ref into refs/, or a commit's hash. */
export function isHeadText(text: string): boolean {
  const content = text.trim();
  return HASH.test(content) || SYMBOLIC.test(content);
}
/**
 * The most read of HEAD, a loose ref, a `.git` file or `commondir`: each is one line, a path at
 * most. packed-refs gets the general cap (64 MiB, read-cap.ts): a big repository's is megabytes.
 * The agent writes .git/ in its box, and a HEAD read happens several times an iteration: a 1.9 GB
 * sparse packed-refs was read whole each time (2 GB of memory). Over the cap the read is refused and
 * the caller asks git, as it does for a FIFO.
 */
const SMALL_FILE_BYTES = 64 * 1024;

/**
 * The git dirs of the work tree at `root`: `.git` itself, or the folder a `.git` file points
 * to (linked work trees, submodules), with its `commondir`. Undefined for anything else.
 */
export async function findGitDirs(root: string): Promise<GitDirs | undefined> {
  const dotGit = join(root, '.git');
  const stats = await lstat(dotGit).catch(() => undefined);
  let gitDir: string;
  if (stats?.isDirectory()) {
    gitDir = dotGit;
  } else if (stats?.isFile()) {
    const target = /^gitdir: (.+)$/m.exec((await readText(dotGit)) ?? '')?.[1]?.trim();
    if (!target) return undefined;
    gitDir = resolve(root, target);
  } else {
    return undefined;
  }
  const common = (await readText(join(gitDir, 'commondir')))?.trim();
  return { gitDir, commonDir: common ? (isAbsolute(common) ? common : resolve(gitDir, common)) : gitDir };
}

/**
 * The git dirs from the files, where they settle them: undefined when GIT_DIR or GIT_COMMON_DIR
 * move the repository away from root/.git (only git knows where then), or the files say nothing
 * this reader knows. Ask git then.
 */
export async function gitDirsFromFiles(root: string): Promise<GitDirs | undefined> {
  if (process.env.GIT_DIR !== undefined || process.env.GIT_COMMON_DIR !== undefined) return undefined;
  return await findGitDirs(root).catch(() => undefined);
}

/**
 * The commit HEAD points at, read from the files the way git's files backend does — HEAD,
 * the loose ref, then packed-refs — without starting a process. Undefined whenever the files
 * do not settle it (no commit yet, another ref backend, anything unexpected): ask git then.
 */
export async function readHeadFromFiles(dirs: GitDirs): Promise<string | undefined> {
  let content = (await readText(join(dirs.gitDir, 'HEAD')))?.trim();
  for (let depth = 0; depth < MAX_SYMBOLIC_DEPTH && content !== undefined; depth++) {
    if (HASH.test(content)) return content;
    const ref = SYMBOLIC.exec(content)?.[1];
    if (!ref) return undefined;
    // A loose ref wins over packed-refs, as in git; git packs before it deletes a loose ref,
    // so reading loose first and packed second never misses one that exists.
    const loose = (await readText(join(PER_WORKTREE.test(ref) ? dirs.gitDir : dirs.commonDir, ref)))?.trim();
    content = loose ?? (await readPackedRef(dirs.commonDir, ref));
  }
  return undefined;
}

/**
 * The branch HEAD is on (`main`), null when HEAD is detached, read from the HEAD file; undefined
 * when the file does not settle it.
 */
export async function readBranchFromFiles(dirs: GitDirs): Promise<string | null | undefined> {
  const content = (await readText(join(dirs.gitDir, 'HEAD')))?.trim();
  if (content === undefined) return undefined;
  if (HASH.test(content)) return null;
  const ref = SYMBOLIC.exec(content)?.[1];
  return ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
}

/** The hash packed-refs holds for a ref, or undefined. */
async function readPackedRef(commonDir: string, ref: string): Promise<string | undefined> {
  const packed = await readText(join(commonDir, 'packed-refs'), MAX_READ_BYTES);
  if (packed === undefined) return undefined;
  for (const line of packed.split('\n')) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space > 0 && line.slice(space + 1).trimEnd() === ref) return line.slice(0, space);
  }
  return undefined;
}

/**
 * A file's text, or undefined when there is no such file. Anything but a regular file (a FIFO the
 * agent put in .git/, a folder) is refused without blocking: the callers then ask git, in time.
 */
function readText(path: string, maxBytes = SMALL_FILE_BYTES): Promise<string | undefined> {
  return readOwnFile(path, { maxBytes });
}
