import { appendFile, lstat, mkdir, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { RalphError } from '../errors.js';
import type { Git } from '../loop/ports.js';
import { findGitDirs, readHeadFromFiles, type GitDirs } from './head-file.js';

/** The top of the git work tree that contains `cwd`; a set-up error outside one. */
export async function findRepoRoot(cwd: string): Promise<string> {
  try {
    return (await simpleGit(cwd).revparse(['--show-toplevel'])).trim();
  } catch {
    throw new RalphError('setup', `${cwd} is not inside a git repository`, 'run `git init` first (ralph measures progress by commits)');
  }
}

/**
 * The loop's git port: HEAD, read on the host — from the repository's files when they settle
 * it (no process started), otherwise from `git rev-parse`.
 */
export function createGit(root: string): Git {
  const git = simpleGit(root);
  // GIT_DIR and GIT_COMMON_DIR move the repository away from root/.git: only git knows where.
  const overridden = process.env.GIT_DIR !== undefined || process.env.GIT_COMMON_DIR !== undefined;
  let dirs: Promise<GitDirs | undefined> | undefined;
  return {
    head: async () => {
      dirs ??= overridden ? Promise.resolve(undefined) : findGitDirs(root).catch(() => undefined);
      const found = await dirs;
      const hash = found && (await readHeadFromFiles(found).catch(() => undefined));
      return hash ?? readHead(git);
    },
  };
}

/**
 * The commit HEAD points at, or null in a repository with no commit yet (`--verify --quiet`
 * prints nothing then). Any other git failure is an error, never mistaken for "no commit".
 */
export async function readHead(git: SimpleGit): Promise<string | null> {
  let head: string;
  try {
    head = (await git.raw(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).trim();
  } catch (error) {
    throw new RalphError('setup', `git rev-parse HEAD failed: ${(error as Error).message.split('\n')[0]}`, 'check the repository with `git status`');
  }
  return head || null;
}

/**
 * Makes sure git ignores each path: those that `.gitignore` does not already cover are added
 * to `.git/info/exclude`, a local file, so the run never edits a tracked one. Returns what it added.
 */
export async function ensureIgnored(root: string, wanted: readonly string[]): Promise<string[]> {
  const git = simpleGit(root);
  const paths = [...new Set(await Promise.all(wanted.map((path) => asGitSeesIt(root, path))))];
  // --non-matching prints a line for every path: simple-git waits 50 ms more for a command that prints nothing.
  const report = await git.raw(['check-ignore', '--no-index', '--verbose', '--non-matching', ...paths]);
  const ignored = new Set(report.split('\n').flatMap(ignoredPath));
  const missing = paths.filter((path) => !ignored.has(path));
  if (missing.length === 0) return [];
  const gitPath = (await git.raw(['rev-parse', '--git-path', 'info/exclude'])).trim();
  const exclude = isAbsolute(gitPath) ? gitPath : join(root, gitPath);
  await mkdir(dirname(exclude), { recursive: true });
  const existing = await readFile(exclude, 'utf8').catch(() => '');
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  await appendFile(exclude, `${separator}# ralph: the loop's own files\n${missing.map((path) => `/${path}`).join('\n')}\n`);
  return missing;
}

/**
 * The path as git sees it. git does not follow symbolic links: a symlinked `ralph/logs` (logs on a
 * bigger disk) is one file to git, `ralph/logs`, which a directory pattern (`ralph/logs/`) does
 * not ignore, and a path beyond it makes `git check-ignore` fail. So the link itself is the path.
 */
async function asGitSeesIt(root: string, path: string): Promise<string> {
  const parts = path.split('/').filter(Boolean);
  for (let depth = 1; depth <= parts.length; depth++) {
    const prefix = parts.slice(0, depth).join('/');
    const isLink = await lstat(join(root, prefix)).then(
      (stats) => stats.isSymbolicLink(),
      () => false,
    );
    if (isLink) return prefix;
  }
  return path;
}

/**
 * The path of one `check-ignore --verbose` line ("source:line:pattern<TAB>path") when a pattern
 * ignores it: not for "::<TAB>path" (nothing matched) nor for a "!" pattern (it un-ignores).
 */
function ignoredPath(line: string): string[] {
  const match = /^.*?:\d+:(.*)\t(.*)$/.exec(line);
  return match && !match[1]!.startsWith('!') ? [match[2]!] : [];
}
