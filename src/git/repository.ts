import { lstat } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { RalphError } from '../errors.js';
import { appendOwnFile, readOwnFile } from '../files/own-file.js';
import type { Git } from '../loop/ports.js';
import { gitFailure, gitOutput, runGit, type GitResult } from './safe-git.js';
import { reachesThroughLooseCommits } from './loose-commits.js';
import { findGitDirs, readBranchFromFiles, readHeadFromFiles, type GitDirs } from './head-file.js';
import { findRootFromFiles } from './find-root.js';

/** How far back the reflog is searched for the commit to get back to. */
const REFLOG_ENTRIES = 200;

/** The top of the git work tree that contains `cwd`; a set-up error outside one. */
export async function findRepoRoot(cwd: string): Promise<string> {
  // From the files when they settle it: no git process (and no execa) for `ralph status`.
  const found = await findRootFromFiles(cwd).catch(() => undefined);
  if (found !== undefined) return found;
  try {
    return (await gitOutput(cwd, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    throw new RalphError(
      'setup',
      `${cwd} is not inside a git repository`,
      'run `git init` first (ralph measures progress by commits)',
    );
  }
}

/**
 * The loop's git port, on the host. HEAD, its branch and the ancestry of the agent's new commits
 * are read from the repository's files when they settle it (no process started, as this happens
 * every iteration), otherwise from git; the reflog, asked only when history was rewritten, always
 * from git.
 */
export function createGit(root: string): Git {
  // GIT_DIR and GIT_COMMON_DIR move the repository away from root/.git: only git knows where.
  const overridden = process.env.GIT_DIR !== undefined || process.env.GIT_COMMON_DIR !== undefined;
  let dirs: Promise<GitDirs | undefined> | undefined;
  const gitDirs = () => (dirs ??= overridden ? Promise.resolve(undefined) : findGitDirs(root).catch(() => undefined));
  // Exit codes are answers here (1: not an ancestor, no commit yet): execa reports them as they are.
  const run = (args: string[]): Promise<GitResult> =>
    runGit(root, args).catch((error: unknown) => {
      throw gitFailure(error, args);
    });
  return {
    head: async () => {
      const found = await gitDirs();
      const hash = found && (await readHeadFromFiles(found).catch(() => undefined));
      return hash ?? readHead(run);
    },
    branch: async () => {
      const found = await gitDirs();
      const branch = found && (await readBranchFromFiles(found).catch(() => undefined));
      if (branch !== undefined) return branch;
      const result = await run(['symbolic-ref', '--quiet', '--short', 'HEAD']);
      if (result.exitCode === 1) return null; // detached
      return result.exitCode === 0 ? result.stdout.trim() : gitFailed(result);
    },
    isAncestor: async (ancestor, descendant) => {
      // The usual iteration's commits are still loose files: read them, no process started.
      const found = await gitDirs();
      if (found && (await reachesThroughLooseCommits(found, ancestor, descendant).catch(() => undefined))) return true;
      // Exit 0: an ancestor; 1: not; anything else: git could not tell.
      const result = await run(['merge-base', '--is-ancestor', ancestor, descendant]);
      return result.exitCode === 0 || (result.exitCode === 1 ? false : gitFailed(result));
    },
    countLeft: async (from, to) => {
      const result = await run(['rev-list', '--count', from, ...(to === null ? [] : ['--not', to])]);
      return result.exitCode === 0 ? Number(result.stdout.trim()) : gitFailed(result);
    },
    reflogEntry: async (hash) => {
      // No reflog (core.logAllRefUpdates off) is no error: the hash alone still names the commit.
      const result = await run(['reflog', 'show', '--format=%H', `-n${REFLOG_ENTRIES}`, 'HEAD']);
      const index = result.exitCode === 0 ? result.stdout.split('\n').indexOf(hash) : -1;
      return index >= 0 ? `HEAD@{${index}}` : undefined;
    },
  };
}

/** A git command that failed in a way the loop cannot read as an answer. */
function gitFailed(result: GitResult): never {
  const cause = result.stderr.split('\n')[0] || `exit ${result.exitCode ?? 'unknown'}`;
  throw new RalphError('setup', `${result.command} failed: ${cause}`, 'check the repository with `git status`');
}

/**
 * The commit HEAD points at, or null in a repository with no commit yet (`--verify --quiet`
 * prints nothing then). Any other git failure is an error, never mistaken for "no commit".
 */
async function readHead(run: (args: string[]) => Promise<GitResult>): Promise<string | null> {
  const result = await run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  // Exit 1 and nothing printed: HEAD names no commit yet.
  if (result.exitCode === 1 && result.stdout.trim() === '') return null;
  return result.exitCode === 0 ? result.stdout.trim() : gitFailed(result);
}

/**
 * Makes sure git ignores each path: those that `.gitignore` does not already cover are added
 * to `.git/info/exclude`, a local file, so the run never edits a tracked one. Returns what it added.
 */
export async function ensureIgnored(root: string, wanted: readonly string[]): Promise<string[]> {
  const missing = await notYetIgnored(root, wanted);
  await addToExclude(root, missing);
  return missing;
}

/** The paths, as git sees them, that nothing ignores yet: a question to git that writes nothing. */
export async function notYetIgnored(root: string, wanted: readonly string[]): Promise<string[]> {
  const paths = [...new Set(await Promise.all(wanted.map((path) => asGitSeesIt(root, path))))];
  // --non-matching prints a line for every path, matched or not; exit 1 says none is ignored.
  const args = ['check-ignore', '--no-index', '--verbose', '--non-matching', ...paths];
  const report = await runGit(root, args).catch((error: unknown) => {
    throw gitFailure(error, args);
  });
  if (report.exitCode !== 0 && report.exitCode !== 1) throw gitFailure(report, args);
  const ignored = new Set(report.stdout.split('\n').flatMap(ignoredPath));
  return paths.filter((path) => !ignored.has(path));
}

/** Adds the paths to `.git/info/exclude`, a local file: git ignores them from now on. */
export async function addToExclude(root: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  const gitPath = (await gitOutput(root, ['rev-parse', '--git-path', 'info/exclude'])).trim();
  const exclude = isAbsolute(gitPath) ? gitPath : join(root, gitPath);
  // Never through a link or into a FIFO the agent put at .git/info/exclude: inside the git dir only.
  const existing = (await readOwnFile(exclude)) ?? '';
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  await appendOwnFile(
    dirname(dirname(exclude)),
    exclude,
    `${separator}# ralph: the loop's own files\n${paths.map((path) => `/${path}`).join('\n')}\n`,
  );
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
