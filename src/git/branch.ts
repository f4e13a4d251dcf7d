import { GitPluginError } from 'simple-git';
import { RalphError } from '../errors.js';
import { boundedGit, gitFailure, gitOutput } from './bounded-git.js';
import { createGit } from './repository.js';

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
  const git = boundedGit(root, signal);
  const current = await currentBranch(root);
  if (current === branch) return { kind: 'already', branch };
  try {
    await git.raw(['check-ref-format', '--branch', branch]);
  } catch (error) {
    // Stopped by the run's interrupt or a timeout: no verdict on the name.
    if (error instanceof GitPluginError) throw gitFailure(error, ['check-ref-format']);
    throw new RalphError(
      'setup',
      `${source}: branchName "${branch}" is not a valid git branch name`,
      'fix branchName, or run with --no-branch',
    );
  }
  const exists = (await gitOutput(root, ['branch', '--list', branch], signal)).trim() !== '';
  const switchArgs = exists ? ['switch', '--no-guess', branch] : ['switch', '--create', branch];
  try {
    await git.raw(switchArgs);
  } catch (error) {
    // Stopped by the run's interrupt or a timeout: not a refusal that stashing would mend.
    if (error instanceof GitPluginError) throw gitFailure(error, switchArgs);
    throw new RalphError(
      'setup',
      `cannot switch to branch ${branch}: ${gitReason(error)}`,
      'commit or stash your changes, then run again (or run with --no-branch)',
    );
  }
  return { kind: exists ? 'switched' : 'created', branch, from: current };
}

/** The checked-out branch, as the loop's git port reads it; undefined on a detached HEAD or when git cannot tell. */
export async function currentBranch(root: string): Promise<string | undefined> {
  return (
    (await createGit(root)
      .branch()
      .catch(() => null)) ?? undefined
  );
}

/** The sentence git gave for a refusal: its `error:` line, without the file list. */
function gitReason(error: unknown): string {
  const lines = (error as Error).message.split('\n').map((line) => line.trim());
  const said = lines.find((line) => /^(error|fatal):/.test(line)) ?? lines[0] ?? 'git refused';
  return said.replace(/^(error|fatal):\s*/, '').replace(/:$/, '');
}
