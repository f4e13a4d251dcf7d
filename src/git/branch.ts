import { RalphError } from '../errors.js';
import { fewNamed, gitAnswer, gitOutput, gitRefusal } from './safe-git.js';
import { createGit } from './repository.js';
import { hasCommit, listWorktrees } from './worktrees.js';

/** What switching to the task list's branch did. */
export type BranchSwitch =
  | { kind: 'already'; branch: string }
  | { kind: 'switched'; branch: string; from: string | undefined }
  | { kind: 'created'; branch: string; from: string | undefined };

/**
 * Puts the work tree on `branch`: nothing when it is checked out already, a switch when it
 * exists, otherwise a new branch from the current HEAD. When git refuses (local changes the
 * switch would overwrite, a bad name) the error says so and nothing has changed.
 */
export async function switchToBranch(
  root: string,
  branch: string,
  source: string,
  signal?: AbortSignal,
): Promise<BranchSwitch> {
  const planned = await planBranchSwitch(root, branch, source, signal);
  if (planned.kind === 'already') return planned;
  const switchArgs = planned.kind === 'switched' ? ['switch', '--no-guess', branch] : ['switch', '--create', branch];
  // Stopped by the run's interrupt or a timeout: not a refusal that stashing would mend.
  const switched = await gitAnswer(root, switchArgs, { filters: true, ...(signal ? { signal } : {}) });
  if (switched.exitCode !== 0) throw switchRefused(branch, gitRefusal(switched.stderr));
  return planned;
}

/**
 * What `switchToBranch` would do, without doing it (the dry run): refused for a name git does not
 * take as a branch; otherwise already there, a switch, or a new branch from HEAD.
 */
export async function planBranchSwitch(
  root: string,
  branch: string,
  source: string,
  signal?: AbortSignal,
): Promise<BranchSwitch> {
  const current = await currentBranch(root);
  if (current === branch) return { kind: 'already', branch };
  // Stopped by the run's interrupt or a timeout: no verdict on the name.
  const format = await gitAnswer(root, ['check-ref-format', '--branch', branch], signal ? { signal } : {});
  if (format.exitCode !== 0)
    throw new RalphError(
      'setup',
      `${source}: branchName "${branch}" is not a valid git branch name`,
      'fix branchName, or run with --no-branch',
    );
  const exists = (await gitOutput(root, ['branch', '--list', branch], signal)).trim() !== '';
  if (exists) {
    // git refuses a branch another worktree has checked out (a list's, after `ralph run --worktree`).
    const holder = (await listWorktrees(root)).find((entry) => entry.branch === branch);
    if (holder)
      throw new RalphError(
        'setup',
        `cannot switch to branch ${branch}: it is checked out in the worktree ${holder.path}`,
        'run the list there (ralph run --worktree --tasks FILE), or remove that worktree first (ralph worktrees prune)',
      );
  }
  if (exists) await refuseLeavingBehind(root, branch, current, source, signal);
  return { kind: exists ? 'switched' : 'created', branch, from: current };
}

/**
 * A switch to an existing branch that lacks commits of the current one would run the loop without
 * them — the task list edited and committed here, a fix made since — and nothing would say so.
 * Refused, with the ways on: merge them in, switch by hand to leave them, or stay with --no-branch.
 * Merge commits are not counted: a branch merged back here lacks only the merge.
 */
async function refuseLeavingBehind(
  root: string,
  branch: string,
  current: string | undefined,
  source: string,
  signal?: AbortSignal,
): Promise<void> {
  if (!(await hasCommit(root))) return;
  const range = `refs/heads/${branch}..HEAD`;
  const count = Number((await gitOutput(root, ['rev-list', '--count', '--no-merges', range], signal)).trim());
  if (!(count > 0)) return;
  const here = current ?? 'HEAD';
  throw new RalphError(
    'setup',
    `${source}: branchName "${branch}" exists and lacks ${count} commit${count === 1 ? '' : 's'} of ${here}; switching to it would leave ${count === 1 ? 'it' : 'them'} behind`,
    `merge ${here} into it first (git switch ${branch} && git merge ${here}), or switch yourself to leave ${count === 1 ? 'it' : 'them'} (git switch ${branch}), or stay on ${here} with --no-branch`,
  );
}

/**
 * The files a switch to the existing `branch` would refuse to overwrite, by git's own rule for a
 * checkout: uncommitted changes, and untracked files, at paths whose committed content differs
 * between HEAD and that branch. ralph/ counts too, where the start's work tree check does not look.
 */
export async function filesBlockingSwitch(root: string, branch: string): Promise<string[]> {
  // No commit yet (an orphan branch): every path the branch has differs from nothing.
  const base = (await hasCommit(root)) ? 'HEAD' : await emptyTree(root);
  // Each path by its own name (a rename is a file gone and one new), the branch by its full ref (a
  // tag of the same name would win otherwise).
  const [changed, untracked, differing] = await Promise.all([
    gitOutput(root, ['diff', '--name-only', '-z', '--no-renames', base, '--'], { filters: true }),
    gitOutput(root, ['ls-files', '--others', '--exclude-standard', '-z']),
    gitOutput(root, ['diff', '--name-only', '-z', '--no-renames', base, `refs/heads/${branch}`, '--']),
  ]);
  const between = new Set(differing.split('\0').filter(Boolean));
  return [...changed.split('\0'), ...untracked.split('\0')].filter((path) => between.has(path));
}

/** The empty tree in this repository's hash: what an unborn HEAD holds. */
async function emptyTree(root: string): Promise<string> {
  return (await gitOutput(root, ['hash-object', '-t', 'tree', '--stdin'], { input: '' })).trim();
}

function switchRefused(branch: string, reason: string): RalphError {
  return new RalphError(
    'setup',
    `cannot switch to branch ${branch}: ${reason}`,
    'commit or stash your changes, then run again (or run with --no-branch)',
  );
}

/** The refusal a switch to `branch` would meet for these local changes, as the run would say it. */
export function blockedSwitch(branch: string, files: readonly string[]): RalphError {
  return switchRefused(branch, `your local changes to ${fewNamed(files)} would be overwritten by checkout`);
}

/** The checked-out branch, as the loop's git port reads it; undefined on a detached HEAD or when git cannot tell. */
export async function currentBranch(root: string): Promise<string | undefined> {
  return (
    (await createGit(root)
      .branch()
      .catch(() => null)) ?? undefined
  );
}
