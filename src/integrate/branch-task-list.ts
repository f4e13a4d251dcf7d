import { parseTasks } from '../files/tasks.js';
import { runGit } from '../git/safe-git.js';

/** The task list's path on a loop's branch: a list run in its worktree is that worktree's ralph/tasks.json. */
export const BRANCH_TASKS_PATH = 'ralph/tasks.json';

/** Larger than any task list: a file the agent blew up is not read into memory. */
const MAX_TASKS_BYTES = 4 * 1024 * 1024;

/** Whether a loop's branch holds finished work, and if not, why not. */
export type BranchProgress = { complete: true } | { complete: false; why: string };

/**
 * Whether the task list committed on `branch` has every story passing: the work that branch holds
 * is what gets merged, so its own committed list says whether it is done — on this machine or on
 * a CI runner that has only the pushed branches. (The gates on the merged result are what checks it.)
 */
export async function branchProgress(root: string, branch: string, signal?: AbortSignal): Promise<BranchProgress> {
  const object = `refs/heads/${branch}:${BRANCH_TASKS_PATH}`;
  const options = signal ? { signal } : {};
  const size = await runGit(root, ['cat-file', '-s', object], options);
  if (size.exitCode !== 0) return { complete: false, why: `no ${BRANCH_TASKS_PATH} on ${branch}` };
  if (Number(size.stdout.trim()) > MAX_TASKS_BYTES)
    return { complete: false, why: `${BRANCH_TASKS_PATH} on ${branch} is larger than ${MAX_TASKS_BYTES} bytes` };
  const shown = await runGit(root, ['cat-file', 'blob', object], options);
  const parsed = parseTasks(shown.exitCode === 0 ? shown.stdout : '');
  if (!parsed.ok) return { complete: false, why: `${BRANCH_TASKS_PATH} on ${branch}: ${parsed.error}` };
  const { stories } = parsed.tasks;
  const open = stories.filter((story) => !story.passes).length;
  if (stories.length === 0) return { complete: false, why: `${BRANCH_TASKS_PATH} on ${branch} has no stories` };
  return open === 0 ? { complete: true } : { complete: false, why: `${open} of ${stories.length} stories still open` };
}
