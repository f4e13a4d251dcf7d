import { setTimeout as sleep } from 'node:timers/promises';
import { gitFailure, gitOutput, runGit, type GitResult } from './safe-git.js';

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
  const args = ['worktree', 'list', '--porcelain'];
  const listed = await despiteHalfWrittenRecords(() => answer(root, args));
  if (listed.exitCode !== 0) throw gitFailure(listed, args);
  const text = listed.stdout;
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
  const result = await answer(root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  return result.exitCode === 0;
}

/** Whether a local branch of this name exists. */
export async function branchExists(root: string, branch: string): Promise<boolean> {
  const result = await answer(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
  return result.exitCode === 0;
}

/** Whether `name` is a valid branch name (git's own rule). */
export async function isValidBranchName(root: string, name: string): Promise<boolean> {
  return (await answer(root, ['check-ref-format', '--branch', name])).exitCode === 0;
}

/** The commit a revision names, or undefined when it names none. */
export async function resolveCommit(root: string, revision: string): Promise<string | undefined> {
  if (revision.startsWith('-')) return undefined;
  const result = await answer(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`]);
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
  if (startPoint !== undefined) {
    // Made first, not by `worktree add -b`: that makes the branch before it reads the other
    // worktrees' records, and asked again after a half-written one, it would find the branch taken.
    const made = await answer(root, ['branch', '--no-track', branch, startPoint]);
    if (made.exitCode !== 0) return { ok: false, reason: gitReason(made) };
  }
  const args = ['worktree', 'add', '--quiet', dir, branch];
  const result = await despiteHalfWrittenRecords(() => answer(root, args, { filters: true }));
  return result.exitCode === 0 ? { ok: true } : { ok: false, reason: gitReason(result) };
}

/** Removes a clean worktree (git refuses one with changes: no --force, ever). */
export async function removeWorktree(root: string, dir: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  const result = await despiteHalfWrittenRecords(() => answer(root, ['worktree', 'remove', dir]));
  return result.exitCode === 0 ? { ok: true } : { ok: false, reason: gitReason(result) };
}

/** Forgets the worktrees whose folder is gone (git's own bookkeeping under .git/worktrees/). */
export async function pruneWorktreeRecords(root: string): Promise<void> {
  await gitOutput(root, ['worktree', 'prune']);
}

/** Whether `ancestor` is contained in `descendant` (merged into it). */
export async function isMergedInto(root: string, ancestor: string, descendant: string): Promise<boolean> {
  const result = await answer(root, ['merge-base', '--is-ancestor', ancestor, descendant]);
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
  const found = await answer(root, ['cat-file', '--batch-check'], { input: `${revision}:${path}\n` });
  const [id, type, size] = found.exitCode === 0 ? found.stdout.trim().split(' ') : [];
  if (id === undefined || type !== 'blob' || size === undefined) return { missing: true };
  if (!(Number(size) <= maxBytes)) return { tooLarge: Number(size) };
  const result = await answer(root, ['cat-file', 'blob', id]);
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

/**
 * git reads every worktree's record before it lists the worktrees, adds or removes one, and dies on
 * a record another git is still writing: `failed to read .git/worktrees/<id>/commondir: Success`
 * (git creates the file, then writes it). The loops of `ralph run --parallel` add their worktrees
 * at the same moment, so such a command is asked again, a few times. git dies before it changes
 * anything; a record that stays unreadable (a real fault, or one the agent left) fails as before.
 */
export async function despiteHalfWrittenRecords(
  ask: () => Promise<GitResult>,
  wait: (ms: number) => Promise<unknown> = sleep,
): Promise<GitResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await ask();
    if (result.exitCode === 0 || attempt === RECORD_ATTEMPTS || !HALF_WRITTEN_RECORD.test(result.stderr)) return result;
    await wait(RECORD_RETRY_MS * attempt);
  }
}

const HALF_WRITTEN_RECORD = /failed to read \S*worktrees\/[^/\s]+\/(?:commondir|gitdir)\b/;
/** Some 300 ms in all: a record is written within microseconds, even on a loaded machine. */
const RECORD_ATTEMPTS = 6;
const RECORD_RETRY_MS = 20;

function answer(root: string, args: string[], options: { filters?: boolean; input?: string } = {}): Promise<GitResult> {
  return runGit(root, args, options).catch((error: unknown) => {
    throw gitFailure(error, args);
  });
}

/** The sentence git gave for a refusal: its `fatal:`/`error:` line. */
function gitReason(result: GitResult): string {
  const lines = result.stderr.split('\n').map((line) => line.trim());
  const said = lines.find((line) => /^(error|fatal):/.test(line)) ?? lines.find(Boolean) ?? 'git refused';
  return said.replace(/^(error|fatal):\s*/, '');
}
