import { gitFailure, runGit, type GitOptions, type GitResult } from './safe-git.js';

/** Whether one branch would merge into another: cleanly, with conflicts in these files, or not checked (and why). */
export type MergeCheck =
  { state: 'clean' } | { state: 'conflicts'; files: string[] } | { state: 'skipped'; why: string };

/** The git that first has `merge-tree --write-tree`, a merge that needs no work tree. */
export const MERGE_TREE_GIT = '2.38';

/**
 * Would `theirs` merge into `ours` cleanly? Asked of `git merge-tree --write-tree` (git >= 2.38),
 * which writes the merged tree as objects only: the work tree, the index and every ref stay as
 * they are. Older git, a name that is no commit, or branches with no common history: skipped,
 * with the reason. The repository's merge drivers are not run (a file that names one conflicts):
 * the agent can write them into `.git/config`. A timeout or the interrupt is a set-up error.
 */
export async function checkMerge(
  root: string,
  ours: string,
  theirs: string,
  signal?: AbortSignal,
): Promise<MergeCheck> {
  const options: GitOptions = signal ? { signal } : {};
  const [oursCommit, theirsCommit] = [await commitOf(root, ours, options), await commitOf(root, theirs, options)];
  if (oursCommit === undefined) return { state: 'skipped', why: `${ours} is no commit` };
  if (theirsCommit === undefined) return { state: 'skipped', why: `${theirs} is no commit` };
  const args = ['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', oursCommit, theirsCommit];
  const result = await ask(root, args, { ...options, mergeDrivers: true });
  // 0: merges cleanly; 1: conflicts, listed after the tree; 129: this git does not know the option.
  if (result.exitCode === 0) return { state: 'clean' };
  if (result.exitCode === 1) return { state: 'conflicts', files: conflictingFiles(result.stdout) };
  if (result.exitCode === 129) return { state: 'skipped', why: await olderGit(root, options) };
  if (/unrelated histories/.test(result.stderr))
    return { state: 'skipped', why: `${ours} and ${theirs} share no history` };
  throw gitFailure(result, args);
}

/** The files `merge-tree -z --name-only` names after the merged tree, each once, in git's order. */
export function conflictingFiles(stdout: string): string[] {
  const [, ...names] = stdout.split('\0');
  return [...new Set(names.filter((name) => name !== ''))];
}

/** The commit a name points to, as its hash; undefined when it names none. */
async function commitOf(root: string, ref: string, options: GitOptions): Promise<string | undefined> {
  // --end-of-options: a branch the agent named `--output=…` stays a name.
  const result = await ask(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], options);
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}

/** Why a git that refused `--write-tree` cannot check, naming its version. */
async function olderGit(root: string, options: GitOptions): Promise<string> {
  const version = (await ask(root, ['version'], options)).stdout.trim().replace(/^git version /, '');
  return `git ${version || '(unknown version)'} has no merge-tree --write-tree (git ${MERGE_TREE_GIT} or later has)`;
}

/** A git command whose exit code is an answer; ended by a timeout or the interrupt, a set-up error. */
function ask(root: string, args: string[], options: GitOptions): Promise<GitResult> {
  return runGit(root, args, options).catch((error: unknown) => {
    throw gitFailure(error, args);
  });
}
