import { join } from 'node:path';
import { gitDirsFromFiles } from './head-file.js';
import { gitOutput } from './safe-git.js';

/**
 * Where ralph keeps the records it decides from, for the work tree at `root`: `ralph/` under that
 * work tree's own git dir (`.git/ralph`, or `.git/worktrees/<name>/ralph` for a linked worktree).
 * The box binds it read-only, so the agent cannot forge what ralph recorded; `git clean -fdx`
 * never touches a git dir, and a fresh clone starts without records, as a fresh start should.
 */
export async function recordDir(root: string): Promise<string> {
  const dirs = await gitDirsFromFiles(root);
  const gitDir = dirs?.gitDir ?? (await gitOutput(root, ['rev-parse', '--absolute-git-dir'])).trim();
  return join(gitDir, 'ralph');
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
