import { RalphError } from '../errors.js';
import { commitOf } from './merge-check.js';
import { gitOutput, type GitOptions } from './safe-git.js';

/**
 * The trailer on every commit `ralph integrate` makes: `start` on the first one, `merge` on each
 * merge. An integration branch is one whose first-parent history, down to its `start`, is only those.
 */
export const INTEGRATION_TRAILER = 'Ralph-Integration';

/** How far down the first-parent history the ownership check reads before it gives up. */
const MAX_OWNED_COMMITS = 10_000;

/** Whether a branch exists, as its commit. */
export function branchCommit(root: string, branch: string, signal?: AbortSignal): Promise<string | undefined> {
  return commitOf(root, `refs/heads/${branch}`, signal ? { signal } : {});
}

/**
 * Starts an integration branch at `start`: one empty commit on it, marked as ralph's, so that a
 * later run can tell this branch from one that holds someone else's commits. Refused (by git) if
 * the branch exists meanwhile.
 */
export async function startIntegrationBranch(
  root: string,
  branch: string,
  start: string,
  signal?: AbortSignal,
): Promise<string> {
  const options = signal ? { signal } : {};
  const subject = `ralph: integration branch ${branch}, from ${start.slice(0, 12)}`;
  const commit = await commitTree(
    root,
    `${start}^{tree}`,
    [start],
    [subject, `${INTEGRATION_TRAILER}: start`],
    options,
  );
  // An empty old value: the branch must not exist yet.
  await gitOutput(root, ['update-ref', '-m', 'ralph integrate: start', `refs/heads/${branch}`, commit, ''], options);
  return commit;
}

/** A merge commit of `parents` holding `tree`, made without a work tree; its hash. */
export function mergeCommit(
  root: string,
  tree: string,
  parents: readonly string[],
  subject: string,
  signal?: AbortSignal,
): Promise<string> {
  return commitTree(root, tree, parents, [subject, `${INTEGRATION_TRAILER}: merge`], signal ? { signal } : {});
}

/**
 * Refuses (64) an existing branch that holds commits `ralph integrate` did not make: its
 * first-parent history must be ralph's merges down to ralph's start commit. The user's branch,
 * or an integration branch someone committed on, is never merged into.
 */
export async function checkIntegrationBranch(root: string, branch: string, signal?: AbortSignal): Promise<void> {
  const args = [
    'log',
    '--first-parent',
    `-n${MAX_OWNED_COMMITS}`,
    `--format=%H %(trailers:key=${INTEGRATION_TRAILER},valueonly,separator=%x2c)%x00`,
    `refs/heads/${branch}`,
    '--',
  ];
  const listed = await gitOutput(root, args, signal ? { signal } : {});
  for (const entry of listed.split('\0')) {
    const [hash, mark] = entry.trim().split(' ');
    if (!hash) continue;
    if (mark === 'start') return;
    if (mark !== 'merge')
      throw new RalphError(
        'setup',
        `branch ${branch} has commits ralph integrate did not make (${hash.slice(0, 12)} first)`,
        'name a new branch with --into, or leave --into out for a fresh one',
      );
  }
  throw new RalphError(
    'setup',
    `branch ${branch} was not started by ralph integrate`,
    'name a new branch with --into, or leave --into out for a fresh one',
  );
}

/** Runs `git commit-tree`: never signed (gpg.program is the repository's to set), no hook. */
async function commitTree(
  root: string,
  tree: string,
  parents: readonly string[],
  paragraphs: readonly string[],
  options: GitOptions,
): Promise<string> {
  const args = [
    'commit-tree',
    '--no-gpg-sign',
    ...parents.flatMap((parent) => ['-p', parent]),
    ...paragraphs.flatMap((paragraph) => ['-m', paragraph]),
    tree,
  ];
  return (await gitOutput(root, args, options)).trim();
}
