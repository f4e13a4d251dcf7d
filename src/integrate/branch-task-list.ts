import { MAX_BRANCH_TASKS_BYTES as MAX_TASKS_BYTES, parseTasks } from '../files/tasks.js';
import { runGit, type GitOptions } from '../git/safe-git.js';
import { LISTS_DIR } from '../lists/task-lists.js';
import { counted } from '../domain/plural.js';

/** A list run in its worktree is that worktree's ralph/tasks.json, committed on its branch. */
export const BRANCH_TASKS_PATH = 'ralph/tasks.json';

/** Whether a loop's branch holds finished work, and if not, why not. */
export type BranchProgress = { complete: true; file: string } | { complete: false; why: string };

/**
 * Whether the list's task list, as committed on its branch, has every story passing: the work the
 * branch holds is what gets merged, so its own committed list says whether it is done — on this
 * machine or on a CI runner that has only the pushed branches. The list is on the branch as
 * ralph/lists/<name>.json (a loop run with --tasks), or as ralph/tasks.json (a loop in its
 * worktree), then different from `base`'s. The gates on the merged result are what checks the work.
 */
export async function branchProgress(
  root: string,
  list: { name: string; branch: string },
  base: string,
  signal?: AbortSignal,
): Promise<BranchProgress> {
  const options = signal ? { signal } : {};
  const inLists = await fileProgress(root, list.branch, `${LISTS_DIR}/${list.name}.json`, options);
  if (inLists.complete) return inLists;
  const copy = await blobOf(root, `refs/heads/${list.branch}:${BRANCH_TASKS_PATH}`, options);
  if (copy === undefined || copy === (await blobOf(root, `${base}:${BRANCH_TASKS_PATH}`, options))) return inLists;
  return fileProgress(root, list.branch, BRANCH_TASKS_PATH, options);
}

/** Whether the task list at `path` on `branch` has every story passing. */
async function fileProgress(root: string, branch: string, path: string, options: GitOptions): Promise<BranchProgress> {
  const object = `refs/heads/${branch}:${path}`;
  const size = await runGit(root, ['cat-file', '-s', object], options);
  if (size.exitCode !== 0) return { complete: false, why: `no ${path} on ${branch}` };
  if (Number(size.stdout.trim()) > MAX_TASKS_BYTES)
    return { complete: false, why: `${path} on ${branch} is larger than ${MAX_TASKS_BYTES} bytes` };
  const shown = await runGit(root, ['cat-file', 'blob', object], options);
  const parsed = parseTasks(shown.exitCode === 0 ? shown.stdout : '');
  if (!parsed.ok) return { complete: false, why: `${path} on ${branch}: ${parsed.error}` };
  const { stories } = parsed.tasks;
  const open = stories.filter((story) => !story.passes).length;
  if (stories.length === 0) return { complete: false, why: `${path} on ${branch} has no stories` };
  return open === 0
    ? { complete: true, file: path }
    : { complete: false, why: `${open} of ${counted(stories.length, 'story')} still open in ${path}` };
}

/** The blob a `<rev>:<path>` names; undefined when there is none. */
async function blobOf(root: string, object: string, options: GitOptions): Promise<string | undefined> {
  const result = await runGit(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', object], options);
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}
