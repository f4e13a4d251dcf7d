import { RalphError } from '../errors.js';
import { commitOf } from './merge-check.js';
import { gitOutput, runGit, type GitOptions } from './safe-git.js';

/**
 * The trailer on every commit `ralph integrate` makes: `start` on the first one, `merge` on each
 * merge. For people reading the history only: any process sharing `.git` can write it, so ralph
 * never decides from it (its record of the commits it made decides: src/integrate/integration-records.ts).
 */
export const INTEGRATION_TRAILER = 'Ralph-Integration';

/** Whether a branch exists, as its commit. */
export function branchCommit(root: string, branch: string, signal?: AbortSignal): Promise<string | undefined> {
  return commitOf(root, `refs/heads/${branch}`, signal ? { signal } : {});
}

/** The empty commit an integration branch starts with, on `start`; the branch is not made here. */
export function integrationStartCommit(
  root: string,
  branch: string,
  start: string,
  signal?: AbortSignal,
): Promise<string> {
  const subject = `ralph: integration branch ${branch}, from ${start.slice(0, 12)}`;
  return commitTree(root, `${start}^{tree}`, [start], [subject, `${INTEGRATION_TRAILER}: start`], opts(signal));
}

/** A merge commit of `parents` holding `tree`, made without a work tree; its hash. */
export function mergeCommit(
  root: string,
  tree: string,
  parents: readonly string[],
  subject: string,
  signal?: AbortSignal,
): Promise<string> {
  return commitTree(root, tree, parents, [subject, `${INTEGRATION_TRAILER}: merge`], opts(signal));
}

/**
 * Points `branch` at `to` only if it still points at `expected` (`''`: only if it does not exist):
 * git refuses the move otherwise, and so does ralph (64), naming the branch. Nothing is forced
 * over a move someone else made meanwhile.
 */
export async function moveBranch(
  root: string,
  branch: string,
  move: { to: string; expected: string; why: string },
  signal?: AbortSignal,
): Promise<void> {
  const ref = `refs/heads/${branch}`;
  const moved = await runGit(root, ['update-ref', '-m', move.why, ref, move.to, move.expected], opts(signal));
  if (moved.exitCode === 0) return;
  throw new RalphError(
    'setup',
    `branch ${branch} moved while ralph integrated (it was ${move.expected ? move.expected.slice(0, 12) : 'absent'}); it was left as it is`,
    'look at what moved it, then run ralph integrate again',
  );
}

/** Whether `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(
  root: string,
  ancestor: string,
  descendant: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const result = await runGit(root, ['merge-base', '--is-ancestor', ancestor, descendant], opts(signal));
  if (result.exitCode === 0 || result.exitCode === 1) return result.exitCode === 0;
  throw new Error(`git merge-base --is-ancestor failed: ${result.stderr.trim()}`);
}

/** A commit as a line names it. */
export interface NamedCommit {
  hash: string;
  subject: string;
}

/** The commits on `to` that `from` does not hold: how many, and the oldest of them (the first one put there). */
export async function commitsBeyond(
  root: string,
  range: { from: string; to: string },
  signal?: AbortSignal,
): Promise<{ count: number; oldest?: NamedCommit }> {
  const listed = await gitOutput(root, ['rev-list', '--reverse', `${range.from}..${range.to}`, '--'], opts(signal));
  const hashes = listed.split('\n').filter((line) => line !== '');
  const [hash] = hashes;
  if (hash === undefined) return { count: 0 };
  const subject = (await gitOutput(root, ['log', '-1', '--format=%s', hash, '--'], opts(signal))).trim();
  return { count: hashes.length, oldest: { hash, subject } };
}

function opts(signal?: AbortSignal): GitOptions {
  return signal ? { signal } : {};
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
