import { gitAnswer, gitFailure, gitOutput, gitRefusal } from './safe-git.js';
import { worktreeGit, worktreeOutput } from './worktree-command.js';

/**
 * The git worktree operations ralph's task lists need, each one small and named for what it does,
 * each through safe-git (neutral configuration: no hook, filter or fsmonitor program runs).
 */

/** One worktree as `git worktree list --porcelain` describes it. */
export interface WorktreeEntry {
  /** Absolute path, as git recorded it. */
  path: string;
  /** The commit checked out; undefined in a repository with no commit. */
  head?: string;
  /** The branch checked out (without refs/heads/); undefined when detached. */
  branch?: string;
  /** git finds its folder gone (or otherwise prunable). */
  prunable: boolean;
  /** Locked with `git worktree lock`. */
  locked: boolean;
}

/** Every worktree of the repository, the main one first. */
export async function listWorktrees(root: string): Promise<WorktreeEntry[]> {
  const text = await worktreeOutput(root, ['list', '--porcelain']);
  const entries: WorktreeEntry[] = [];
  for (const block of text.split(/\n\n+/)) {
    const lines = block.split('\n').filter(Boolean);
    const path = lines.find((line) => line.startsWith('worktree '))?.slice('worktree '.length);
    if (path === undefined) continue;
    const value = (key: string) => lines.find((line) => line === key || line.startsWith(`${key} `));
    const branch = value('branch')?.slice('branch '.length);
    const head = value('HEAD')?.slice('HEAD '.length);
    entries.push({
      path,
      ...(head && !/^0+$/.test(head) ? { head } : {}),
      ...(branch ? { branch: branch.replace(/^refs\/heads\//, '') } : {}),
      prunable: value('prunable') !== undefined,
      locked: value('locked') !== undefined,
    });
  }
  return entries;
}

/** Whether HEAD names a commit: a repository with no commit has nothing to branch a worktree from. */
export async function hasCommit(root: string): Promise<boolean> {
  const result = await gitAnswer(root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  return result.exitCode === 0;
}

/** Whether a local branch of this name exists. */
export async function branchExists(root: string, branch: string): Promise<boolean> {
  const result = await gitAnswer(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
  return result.exitCode === 0;
}

/** Whether `name` is a valid branch name (git's own rule). */
export async function isValidBranchName(root: string, name: string): Promise<boolean> {
  return (await gitAnswer(root, ['check-ref-format', '--branch', name])).exitCode === 0;
}

/** The commit a revision names, or undefined when it names none. */
export async function resolveCommit(root: string, revision: string): Promise<string | undefined> {
  if (revision.startsWith('-')) return undefined;
  const result = await gitAnswer(root, [
    'rev-parse',
    '--verify',
    '--quiet',
    '--end-of-options',
    `${revision}^{commit}`,
  ]);
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}

/**
 * Adds a worktree at `dir` on `branch`: the branch checked out when it exists, else created from
 * `startPoint`. git's refusal (the branch checked out elsewhere, a bad name) is returned, not thrown.
 */
export async function addWorktree(
  root: string,
  dir: string,
  branch: string,
  startPoint: string | undefined,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  // A new branch is made first, not by `worktree add -b`: that makes it before it reads the other
  // worktrees' records, and asked again after a half-written one (worktree-command.ts), it would
  // find the branch taken. A worktree that then cannot be added takes its new branch with it.
  const made = startPoint === undefined ? undefined : await makeBranch(root, branch, startPoint);
  if (made && 'reason' in made) return { ok: false, reason: made.reason };
  const result = await worktreeGit(root, ['add', '--quiet', dir, branch], { filters: true });
  if (result.exitCode === 0) return { ok: true };
  if (made) await gitAnswer(root, ['update-ref', '-d', `refs/heads/${branch}`, made.commit]);
  return { ok: false, reason: gitRefusal(result.stderr) };
}

/** A new branch at `startPoint`, with no upstream; the commit it was made at, or git's refusal. */
async function makeBranch(
  root: string,
  branch: string,
  startPoint: string,
): Promise<{ commit: string } | { reason: string }> {
  const commit = await resolveCommit(root, startPoint);
  if (commit === undefined) return { reason: `${startPoint} names no commit` };
  const made = await gitAnswer(root, ['branch', '--no-track', branch, commit]);
  return made.exitCode === 0 ? { commit } : { reason: gitRefusal(made.stderr) };
}

/** Removes a clean worktree (git refuses one with changes: no --force, ever). */
export async function removeWorktree(root: string, dir: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  const result = await worktreeGit(root, ['remove', dir]);
  return result.exitCode === 0 ? { ok: true } : { ok: false, reason: gitRefusal(result.stderr) };
}

/** Forgets the worktrees whose folder is gone (git's own bookkeeping under .git/worktrees/). */
export async function pruneWorktreeRecords(root: string): Promise<void> {
  await worktreeOutput(root, ['prune']);
}

/** Whether `ancestor` is contained in `descendant` (merged into it). */
export async function isMergedInto(root: string, ancestor: string, descendant: string): Promise<boolean> {
  const result = await gitAnswer(root, ['merge-base', '--is-ancestor', ancestor, descendant]);
  if (result.exitCode === 0 || result.exitCode === 1) return result.exitCode === 0;
  throw gitFailure(result, ['merge-base']);
}

/** Whether some local branch holds the commit (so removing a worktree detached at it loses nothing). */
export async function onSomeBranch(root: string, commit: string): Promise<boolean> {
  const out = await gitOutput(root, [
    'for-each-ref',
    '--count=1',
    '--format=%(refname)',
    '--contains',
    commit,
    'refs/heads/',
  ]);
  return out.trim() !== '';
}

/** Whether a worktree holds uncommitted work: any change, staged or not, or an untracked file git does not ignore. */
export async function hasUncommittedWork(dir: string): Promise<boolean> {
  const status = await gitOutput(dir, ['status', '--porcelain=v1', '-z', '--untracked-files=all'], { filters: true });
  return status !== '';
}

/** A file of a revision: its text (the final newline dropped, as git's output is read), none, or too large to read. */
export type ShownFile = { text: string } | { missing: true } | { tooLarge: number };

/**
 * A file of `revision`, read only up to `maxBytes`: the agent commits what it likes on its branch,
 * and a file past the limit is a finding about that file, not a failure of the command reading it.
 * The blob is named by its id once looked up, so a branch moved in between cannot swap in another.
 */
export async function showFile(root: string, revision: string, path: string, maxBytes: number): Promise<ShownFile> {
  const found = await gitAnswer(root, ['cat-file', '--batch-check'], { input: `${revision}:${path}\n` });
  const [id, type, size] = found.exitCode === 0 ? found.stdout.trim().split(' ') : [];
  if (id === undefined || type !== 'blob' || size === undefined) return { missing: true };
  if (!(Number(size) <= maxBytes)) return { tooLarge: Number(size) };
  const result = await gitAnswer(root, ['cat-file', 'blob', id]);
  return result.exitCode === 0 ? { text: result.stdout } : { missing: true };
}

/** Commits one file of a work tree, with the hooks off and no signing program started. */
export async function commitFile(dir: string, path: string, message: string): Promise<void> {
  await gitOutput(dir, ['add', '--', path], { filters: true });
  await gitOutput(dir, ['-c', 'commit.gpgSign=false', 'commit', '--quiet', '--no-verify', '-m', message, '--', path], {
    filters: true,
  });
}

/** The repository's common git directory (the main .git, from any of its worktrees), absolute. */
export async function commonGitDir(root: string): Promise<string> {
  return (await gitOutput(root, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim();
}
