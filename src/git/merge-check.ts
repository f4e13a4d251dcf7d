import { gitFailure, runGit, type GitOptions, type GitResult } from './safe-git.js';

/** Whether one branch would merge into another: cleanly, with conflicts in these files, or not checked (and why). */
export type MergeCheck =
  { state: 'clean' } | { state: 'conflicts'; files: string[] } | { state: 'skipped'; why: string };

/**
 * The loop's records, committed on every loop's branch and different on each (a list in its
 * worktree is that worktree's ralph/tasks.json): a conflict there is expected and no conflict of the
 * work. The integration branch keeps its own copies (src/integrate/integrate.ts).
 */
export const LOOP_RECORD_FILES: readonly string[] = ['ralph/tasks.json', 'ralph/progress.txt'];

/** The git that first has `merge-tree --write-tree`, a merge that needs no work tree. */
export const MERGE_TREE_GIT = '2.38';

/**
 * Would `theirs` merge into `ours` cleanly? Asked of `git merge-tree --write-tree` (git >= 2.38),
 * which writes the merged tree as objects only: the work tree, the index and every ref stay as
 * they are. A conflict only in the loop's records (LOOP_RECORD_FILES) is none. Older git, a name
 * that is no commit, or branches with no common history: skipped,
 * with the reason. The repository's merge drivers are not run (a file that names one conflicts):
 * the agent can write them into `.git/config`. A timeout or the interrupt is a set-up error.
 */
export async function checkMerge(
  root: string,
  ours: string,
  theirs: string,
  signal?: AbortSignal,
): Promise<MergeCheck> {
  const merged = await mergedTree(root, ours, theirs, signal);
  return merged.state === 'clean' ? { state: 'clean' } : merged;
}

/** A merge check that, when clean, holds the merged tree's hash: what a merge commit of the two holds. */
export type MergedTree = { state: 'clean'; tree: string } | Exclude<MergeCheck, { state: 'clean' }>;

/**
 * checkMerge, with the merged tree when the merge is clean (written as objects, reachable from no
 * ref yet). Its loop records may hold conflict markers: the caller puts its own copies there.
 */
export async function mergedTree(
  root: string,
  ours: string,
  theirs: string,
  signal?: AbortSignal,
): Promise<MergedTree> {
  const options: GitOptions = signal ? { signal } : {};
  const [oursCommit, theirsCommit] = [await commitOf(root, ours, options), await commitOf(root, theirs, options)];
  return mergedCommits(root, { name: ours, commit: oursCommit }, { name: theirs, commit: theirsCommit }, options);
}

/** A branch (or any name) and the commit it pointed to when resolved; undefined when it named none. */
export interface Resolved {
  name: string;
  commit: string | undefined;
}

/**
 * mergedTree of two names already resolved (the supervisor resolves every branch of a round of
 * checks with one git process, commitsOf): the names only word the reasons.
 */
export async function mergedCommits(
  root: string,
  ours: Resolved,
  theirs: Resolved,
  options: GitOptions = {},
): Promise<MergedTree> {
  const [oursCommit, theirsCommit] = [ours.commit, theirs.commit];
  if (oursCommit === undefined) return { state: 'skipped', why: `${ours.name} is no commit` };
  if (theirsCommit === undefined) return { state: 'skipped', why: `${theirs.name} is no commit` };
  const args = ['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', oursCommit, theirsCommit];
  const result = await ask(root, args, { ...options, mergeDrivers: true });
  // 0: merges cleanly; 1: conflicts, listed after the tree; 129: this git does not know the option.
  const tree = result.stdout.split('\0')[0] ?? '';
  if (result.exitCode === 0) return { state: 'clean', tree };
  if (result.exitCode === 1) {
    const files = conflictingFiles(result.stdout).filter((file) => !LOOP_RECORD_FILES.includes(file));
    return files.length === 0 ? { state: 'clean', tree } : { state: 'conflicts', files };
  }
  if (result.exitCode === 129) return { state: 'skipped', why: await olderGit(root, options) };
  if (/unrelated histories/.test(result.stderr))
    return { state: 'skipped', why: `${ours.name} and ${theirs.name} share no history` };
  throw gitFailure(result, args);
}

/** The files `merge-tree -z --name-only` names after the merged tree, each once, in git's order. */
export function conflictingFiles(stdout: string): string[] {
  const [, ...names] = stdout.split('\0');
  return [...new Set(names.filter((name) => name !== ''))];
}

/** The commit a name points to, as its hash; undefined when it names none. */
export async function commitOf(root: string, ref: string, options: GitOptions): Promise<string | undefined> {
  // --end-of-options: a branch the agent named `--output=…` stays a name.
  const result = await ask(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], options);
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}

/**
 * The commits several names point to, asked of one `git cat-file --batch-check` (names read from
 * its input, so a name like `--output=…` stays a name): the same resolution as commitOf, one
 * process for all. A name that points to no commit maps to undefined.
 */
export async function commitsOf(
  root: string,
  refs: readonly string[],
  options: GitOptions,
): Promise<Map<string, string | undefined>> {
  const names = [...new Set(refs)];
  const resolved = new Map<string, string | undefined>(names.map((name) => [name, undefined]));
  // A name holding a line break would read as two: no ref name can, so it names no commit.
  const asked = names.filter((name) => !/[\n\r]/.test(name));
  if (asked.length === 0) return resolved;
  const args = ['cat-file', '--batch-check=%(objectname) %(objecttype)'];
  const result = await ask(root, args, { ...options, input: asked.map((name) => `${name}^{commit}\n`).join('') });
  if (result.exitCode !== 0) throw gitFailure(result, args);
  // One answer line per name, in order: `<hash> commit`, or `<name> missing` / `ambiguous`.
  const lines = result.stdout.split('\n');
  asked.forEach((name, index) => {
    const [hash, type] = (lines[index] ?? '').split(' ');
    if (type === 'commit' && hash && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(hash)) resolved.set(name, hash);
  });
  return resolved;
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
