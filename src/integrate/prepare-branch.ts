import { RalphError } from '../errors.js';
import { currentBranch } from '../git/branch.js';
import { branchCommit, integrationStartCommit, moveBranch } from '../git/integration-branch.js';
import { commitOf } from '../git/merge-check.js';
import { runGit } from '../git/safe-git.js';
import { appendIntegration, isRecordedIntegration, readIntegrations } from './integration-records.js';
import type { ListRef } from './integration-order.js';

/** What the integration branch is prepared from. */
export interface BranchRequest {
  root: string;
  into: string;
  /** Where a new integration branch starts (default: the user's HEAD). */
  start?: string;
  lists: readonly ListRef[];
  /** The main checkout's record folder: where ralph's integration commits are recorded. */
  records: string;
  signal?: AbortSignal;
}

/**
 * The integration branch's commit: an existing branch only when its tip is a commit ralph recorded
 * making on it (a `Ralph-Integration` trailer proves nothing: any loop's agent can write one), else
 * a new branch started from `start`, recorded before it is made.
 */
export async function prepareBranch(request: BranchRequest): Promise<string> {
  const { root, into, signal } = request;
  await refuseBranch(request);
  const existing = await branchCommit(root, into, signal);
  if (existing) {
    if (isRecordedIntegration(await readIntegrations(request.records), into, existing)) return existing;
    throw new RalphError(
      'setup',
      `branch ${into} is not one ralph integrate made: ralph has no record of making its commit ${existing.slice(0, 12)} (a Ralph-Integration trailer in a commit message is no record)`,
      `look at what it holds, then delete it (git branch -D ${into}), or integrate into another branch (--into)`,
    );
  }
  const from = await commitOf(root, request.start ?? 'HEAD', signal ? { signal } : {});
  if (!from)
    throw new RalphError(
      'setup',
      `${request.start ?? 'HEAD'} is no commit to start ${into} from`,
      'commit first (or name a start that exists)',
    );
  const commit = await integrationStartCommit(root, into, from, signal);
  const at = new Date().toISOString();
  await appendIntegration(request.records, { commit, branch: into, kind: 'start', lists: [], gated: false, at });
  await moveBranch(root, into, { to: commit, expected: '', why: 'ralph integrate: start' }, signal);
  return commit;
}

/** Refuses (64) a branch name ralph never merges into: not a name, the checked-out branch, a list's branch. */
async function refuseBranch({ root, into, lists, signal }: BranchRequest): Promise<void> {
  const format = await runGit(root, ['check-ref-format', '--branch', into], signal ? { signal } : {});
  if (format.exitCode !== 0)
    throw new RalphError(
      'usage',
      `--into ${into}: not a valid branch name`,
      'name a branch such as ralph/integration/x',
    );
  if ((await currentBranch(root)) === into)
    throw new RalphError(
      'setup',
      `--into ${into}: that is the branch checked out here, and ralph integrate never merges into it`,
      'name another branch, or leave --into out for a fresh one',
    );
  for (const list of lists)
    if (list.branch === into)
      throw new RalphError(
        'setup',
        `--into ${into}: that is the branch of the list ${list.name}`,
        'name another branch',
      );
}
