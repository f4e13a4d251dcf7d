import { RalphError } from '../errors.js';
import { gitFailure, gitOutput, runGit, type GitResult } from './safe-git.js';
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
  const current = await currentBranch(root);
  if (current === branch) return { kind: 'already', branch };
  // Stopped by the run's interrupt or a timeout: no verdict on the name.
  const format = await answer(root, ['check-ref-format', '--branch', branch], signal);
  if (format.exitCode !== 0)
    throw new RalphError(
      'setup',
      `${source}: branchName "${branch}" is not a valid git branch name`,
      'fix branchName, or run with --no-branch',
    );
  const exists = (await gitOutput(root, ['branch', '--list', branch], signal)).trim() !== '';
  const switchArgs = exists ? ['switch', '--no-guess', branch] : ['switch', '--create', branch];
  // Stopped by the run's interrupt or a timeout: not a refusal that stashing would mend.
  const switched = await answer(root, switchArgs, signal, { filters: true });
  if (switched.exitCode !== 0)
    throw new RalphError(
      'setup',
      `cannot switch to branch ${branch}: ${gitReason(switched.stderr)}`,
      'commit or stash your changes, then run again (or run with --no-branch)',
    );
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

/** A git command whose exit code is its answer; ended by a timeout or the interrupt, a set-up error. */
function answer(
  root: string,
  args: string[],
  signal: AbortSignal | undefined,
  options: { filters?: boolean } = {},
): Promise<GitResult> {
  return runGit(root, args, { ...options, ...(signal ? { signal } : {}) }).catch((error: unknown) => {
    throw gitFailure(error, args);
  });
}

/** The sentence git gave for a refusal: its `error:` line, without the file list. */
function gitReason(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim());
  const said = lines.find((line) => /^(error|fatal):/.test(line)) ?? lines[0] ?? 'git refused';
  return said.replace(/^(error|fatal):\s*/, '').replace(/:$/, '');
}
