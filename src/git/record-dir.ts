import { join } from 'node:path';
import { gitDirsFromFiles, type GitDirs } from './head-file.js';
import { gitOutput } from './safe-git.js';

/** The git dirs of the work tree at `root`, from its files where they settle it, else from git. */
export async function workTreeGitDirs(root: string): Promise<GitDirs> {
  const dirs = await gitDirsFromFiles(root);
  if (dirs) return dirs;
  const [gitDir = '', commonDir = ''] = (
    await gitOutput(root, ['rev-parse', '--path-format=absolute', '--absolute-git-dir', '--git-common-dir'])
  ).split('\n');
  return { gitDir: gitDir.trim(), commonDir: commonDir.trim() };
}

/**
 * Where ralph keeps the records it decides from, for the work tree at `root`: `ralph/` under that
 * work tree's own git dir (`.git/ralph`, or `.git/worktrees/<name>/ralph` for a linked worktree).
 * The box binds it read-only, so the agent cannot forge what ralph recorded; `git clean -fdx`
 * never touches a git dir, and a fresh clone starts without records, as a fresh start should.
 */
export async function recordDir(root: string): Promise<string> {
  return join((await workTreeGitDirs(root)).gitDir, 'ralph');
}

/**
 * The main checkout's record folder (`<common git dir>/ralph`), from any work tree of the
 * repository: the records about the whole repository (the integration commits ralph made) must be
 * the same ones whichever worktree ralph is started in.
 */
export async function sharedRecordDir(root: string): Promise<string> {
  const dirs = await gitDirsFromFiles(root);
  const common =
    dirs?.commonDir ?? (await gitOutput(root, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim();
  return join(common, 'ralph');
}
