import { readFileWithin } from '../files/file-within.js';
import { RalphError } from '../errors.js';
import { shownPath } from '../files/paths.js';
import { currentBranch, switchToBranch, type BranchSwitch } from '../git/branch.js';
import type { TaskList } from '../domain/tasks.js';
import { parseTasks } from '../files/tasks.js';

/**
 * Before the first iteration: onto the task list's `branchName`, unless --no-branch. After a
 * switch to a branch that already existed the task list is read again: that branch's is the one
 * the loop continues.
 */
export async function enterTaskBranch(options: {
  root: string;
  tasks: TaskList;
  tasksPath: string;
  enabled: boolean;
  say: (line: string) => void;
  /** A warning line: HEAD detached, with no branch to go to. */
  warn: (text: string) => void;
  /** Aborts the git commands (the run's Ctrl-C or SIGTERM). */
  signal?: AbortSignal;
}): Promise<{ tasks: TaskList; branch?: string }> {
  const branchName = branchToEnter(options.tasks, options.enabled);
  if (branchName === undefined) {
    if ((await currentBranch(options.root)) === undefined) options.warn(DETACHED_HEAD);
    return { tasks: options.tasks };
  }
  const listFile = shownPath(options.root, options.tasksPath);
  const result = await switchToBranch(options.root, branchName, listFile, options.signal);
  options.say(describeSwitch(result));
  if (result.kind !== 'switched') return { tasks: options.tasks, branch: branchName };
  const parsed = parseTasks(readFileWithin(options.root, options.tasksPath) ?? '');
  if (!parsed.ok) {
    throw new RalphError(
      'setup',
      `${listFile} on branch ${branchName} is not a valid task list: ${parsed.error}`,
      'fix it on that branch, or run with --no-branch',
    );
  }
  return { tasks: parsed.tasks, branch: branchName };
}

/** The branch a run enters: the list's branchName, unless --no-branch or it names none. */
export function branchToEnter(tasks: TaskList, enabled: boolean): string | undefined {
  const { branchName } = tasks;
  return enabled && branchName !== undefined && branchName.trim() !== '' ? branchName : undefined;
}

/** Said before a loop on a detached HEAD: its commits would be on no branch, easy to lose. */
export const DETACHED_HEAD =
  "HEAD is detached: the loop's commits will be on no branch, and the next checkout leaves them behind " +
  '(create one first with git switch -c NAME, or set branchName in the task list)';

/** The line that says which branch the loop works on, and how it got there. */
function describeSwitch(result: BranchSwitch): string {
  const from = result.kind !== 'already' && result.from ? ` from ${result.from}` : '';
  switch (result.kind) {
    case 'already':
      return `on branch ${result.branch} (the task list's branchName)`;
    case 'switched':
      return `switched to branch ${result.branch}${from} (the task list's branchName)`;
    case 'created':
      return `created branch ${result.branch}${from || ' from HEAD'} and switched to it (the task list's branchName)`;
  }
}
