import type { Stats } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { isErrno } from '../errors.js';
import { readOwnFile } from '../files/own-file.js';

/** The variables that move the repository or limit git's search for it: with any of them, only git knows. */
const SEARCH_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
];

/** A HEAD file as git writes it: a symbolic ref or a commit hash. */
const VALID_HEAD = /^(?:ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\s*$/;

/**
 * The top of the work tree that contains `cwd`, as `git rev-parse --show-toplevel` would print it,
 * found from the files without starting git: the nearest folder above `cwd` with a `.git` folder
 * (or a `.git` file naming one) that git would take for a repository. Undefined whenever the files
 * leave any doubt — a variable that moves the repository, a `.git` inside a `.git`, a link, another
 * owner (safe.directory), a configuration that names a work tree, includes others or says `bare`,
 * another filesystem on the way up (git stops there), nothing found: then ask git.
 */
export async function findRootFromFiles(
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  if (SEARCH_VARIABLES.some((name) => env[name] !== undefined)) return undefined;
  const start = await realpath(resolve(cwd)).catch(() => undefined);
  if (start === undefined) return undefined;
  const device = (await stat(start)).dev;
  for (let dir = start; ;) {
    if (basename(dir) === '.git') return undefined;
    const dotGit = join(dir, '.git');
    const stats = await lstatIfAny(dotGit);
    if (stats === 'unknown') return undefined;
    if (stats) return (await isPlainRepository(dir, dotGit, stats.isDirectory(), stats.isFile())) ? dir : undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    const parentStats = await stat(parent).catch(() => undefined);
    if (!parentStats || parentStats.dev !== device) return undefined;
    dir = parent;
  }
}

/** What is at `path`: undefined when nothing is, `unknown` when it cannot be told (EACCES…). */
async function lstatIfAny(path: string): Promise<Stats | undefined | 'unknown'> {
  try {
    return await lstat(path);
  } catch (error) {
    return isErrno(error, 'ENOENT') ? undefined : 'unknown';
  }
}

/** Whether `root` with its `.git` (a folder, or a file naming one) is a repository git would find as it is. */
async function isPlainRepository(root: string, dotGit: string, isFolder: boolean, isFile: boolean): Promise<boolean> {
  let gitDir: string;
  if (isFolder) gitDir = dotGit;
  else if (isFile) {
    const target = /^gitdir: (.+)$/m.exec((await readOwnFile(dotGit)) ?? '')?.[1]?.trim();
    if (!target) return false;
    gitDir = resolve(root, target);
  } else return false;
  const uid = process.getuid?.();
  const [rootStats, dirStats] = await Promise.all([stat(root), stat(gitDir).catch(() => undefined)]);
  if (!dirStats?.isDirectory() || uid === undefined || rootStats.uid !== uid || dirStats.uid !== uid) return false;
  const head = await readOwnFile(join(gitDir, 'HEAD')).catch(() => undefined);
  if (head === undefined || !VALID_HEAD.test(head)) return false;
  const common = (await readOwnFile(join(gitDir, 'commondir')).catch(() => undefined))?.trim();
  const commonDir = common ? resolve(gitDir, common) : gitDir;
  const folders = await Promise.all(
    ['objects', 'refs'].map((name) => stat(join(commonDir, name)).catch(() => undefined)),
  );
  if (!folders.every((folder) => folder?.isDirectory())) return false;
  const worktreeConfig = await lstat(join(gitDir, 'config.worktree')).catch(() => undefined);
  if (worktreeConfig) return false;
  const config = await readOwnFile(join(commonDir, 'config')).catch(() => '\0');
  return config === undefined || plainConfig(config);
}

/**
 * Whether a repository's configuration leaves the work tree where `.git` is: no `core.worktree`,
 * no include (which could set one) and no `bare` other than `bare = false`. Any doubt is a no.
 */
function plainConfig(text: string): boolean {
  if (text.includes('\0') || text.includes('\\')) return false;
  return text.split('\n').every((line) => {
    const lower = line.toLowerCase();
    if (lower.includes('worktree') || lower.includes('include')) return false;
    return !lower.includes('bare') || /^\s*bare\s*=\s*false\s*$/.test(lower);
  });
}
