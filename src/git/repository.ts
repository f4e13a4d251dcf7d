import { RalphError } from '../errors.js';
import type { Git } from '../loop/ports.js';
import { gitFailure, gitOutput, runGit, type GitResult } from './safe-git.js';
import { reachesThroughLooseCommits } from './loose-commits.js';
import { gitDirsFromFiles, readBranchFromFiles, readHeadFromFiles, type GitDirs } from './head-file.js';
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
  let dirs: Promise<GitDirs | undefined> | undefined;
  const gitDirs = () => (dirs ??= gitDirsFromFiles(root));
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
