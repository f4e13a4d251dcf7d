import { lstat, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { RalphError } from '../errors.js';
import { ownFolder } from '../files/own-file.js';
import { gitOutput } from './safe-git.js';
import { worktreeOutput } from './worktree-command.js';
import { foreignGitDirs } from './worktree-git-dirs.js';
import { commonGitDir } from './worktrees.js';

/**
 * The integration's worktree at `dir`, detached at `at.commit`: made when missing, else reset there.
 * Detached, so that checking out a merge to gate it never moves the branch: the branch moves only
 * after the gates pass. A folder there that is not a worktree of this repository, detached or on
 * the integration branch (as an older ralph left it), is refused (64), and nothing in it is touched.
 */
export async function openIntegrationWorktree(
  root: string,
  dir: string,
  at: { branch: string; commit: string },
  signal?: AbortSignal,
): Promise<void> {
  const options = { filters: true, ...(signal ? { signal } : {}) };
  const present = await lstat(dir).catch(() => undefined);
  if (!present) {
    await ownFolder(root, dirname(dir));
    await worktreeOutput(root, ['add', '--quiet', '--detach', dir, at.commit], options);
    return;
  }
  const listed = present.isDirectory() ? await worktreeBranch(root, await realpath(dir), signal) : undefined;
  const foreign =
    listed === DETACHED || listed === `refs/heads/${at.branch}`
      ? await foreignGitDirs(dir, await commonGitDir(root))
      : listed === undefined
        ? 'git lists no worktree there'
        : `it is on ${listed}`;
  if (foreign !== undefined)
    throw new RalphError(
      'setup',
      `${dir} exists but is not a worktree of this repository for ${at.branch} (${foreign})`,
      'move that folder away (nothing in it was changed), then run again',
    );
  await resetWorktree(dir, at.commit, signal);
}

/**
 * Puts the worktree's files at `commit`, its HEAD detached there: ralph's own worktree, and no
 * branch moves. What a gate left there untracked goes too (ignored files and ralph's logs stay),
 * so a branch left out leaves nothing that the next merge's gates would see.
 */
export async function resetWorktree(dir: string, commit: string, signal?: AbortSignal): Promise<void> {
  const options = { filters: true, ...(signal ? { signal } : {}) };
  await gitOutput(dir, ['checkout', '--quiet', '--force', '--detach', commit], options);
  await gitOutput(dir, ['clean', '-ffdq', '-e', '/ralph/logs/'], options);
}

/** What worktreeBranch answers for a worktree whose HEAD is detached. */
const DETACHED = 'detached';

/** The branch ref git lists for the worktree at `dir`; undefined when git lists no worktree there. */
async function worktreeBranch(root: string, dir: string, signal?: AbortSignal): Promise<string | undefined> {
  const listed = await worktreeOutput(root, ['list', '--porcelain', '-z'], signal ? { signal } : {});
  // Records of NUL-ended lines (`worktree <path>`, `HEAD <hash>`, `branch <ref>`), each ended by an empty one.
  let path: string | undefined;
  for (const line of listed.split('\0')) {
    if (line.startsWith('worktree ')) path = await realpath(line.slice('worktree '.length)).catch(() => undefined);
    else if (line.startsWith('branch ') && path === dir) return line.slice('branch '.length);
    else if (line === DETACHED && path === dir) return DETACHED;
  }
  return undefined;
}
