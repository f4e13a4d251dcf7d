import type { TaskList } from '../domain/tasks.js';
import { RalphError } from '../errors.js';
import { shownPath } from '../files/paths.js';
import type { RunPaths } from '../files/record-paths.js';
import { readRunState, taskListId, withListBranch } from '../files/run-state.js';
import { blockedSwitch, currentBranch, filesBlockingSwitch, planBranchSwitch } from '../git/branch.js';
import { branchToEnter, DETACHED_HEAD } from './task-branch.js';
import { failed, type Check } from './check.js';
import { checkResume } from './resume-guard.js';

/**
 * What a real run checks after its start checks, before its first iteration, as the dry run lists
 * it: the task list's branch (a name git refuses, local changes a switch would overwrite) and the
 * resume count. Nothing is switched or written.
 */
export async function startStateChecks(
  paths: RunPaths,
  tasks: TaskList,
  settings: { branch: boolean; maxResumes: number },
  resetResumes: boolean,
): Promise<Check[]> {
  const listed = withListBranch(tasks, paths.root, paths.tasks);
  return [
    await branchCheck(paths.root, listed, settings.branch, shownPath(paths.root, paths.tasks)),
    await resumeCheck(paths, listed, settings, resetResumes),
  ];
}

async function branchCheck(root: string, tasks: TaskList, enabled: boolean, listFile: string): Promise<Check> {
  const branch = branchToEnter(tasks, enabled);
  if (branch === undefined) {
    if ((await currentBranch(root)) === undefined) return { name: 'branch', status: 'warning', detail: DETACHED_HEAD };
    return { name: 'branch', status: 'ok', detail: enabled ? 'the task list names no branchName' : '--no-branch' };
  }
  try {
    const planned = await planBranchSwitch(root, branch, listFile);
    if (planned.kind === 'already') return { name: 'branch', status: 'ok', detail: `on ${branch} already` };
    if (planned.kind === 'created')
      return { name: 'branch', status: 'ok', detail: `would create ${branch} from ${planned.from ?? 'HEAD'}` };
    const blocking = await filesBlockingSwitch(root, branch);
    if (blocking.length > 0) return failed('branch', blockedSwitch(branch, blocking));
    return { name: 'branch', status: 'ok', detail: `would switch to ${branch}` };
  } catch (error) {
    if (error instanceof RalphError) return failed('branch', error);
    throw error;
  }
}

async function resumeCheck(
  paths: RunPaths,
  tasks: TaskList,
  settings: { maxResumes: number },
  reset: boolean,
): Promise<Check> {
  const state = await readRunState(paths.records, taskListId(paths.root, paths.tasks));
  try {
    const attempts = checkResume(state, settings.maxResumes, reset);
    const detail =
      attempts === 0
        ? reset
          ? 'the count of unproductive resumes starts again (--reset-resumes)'
          : 'not an unproductive resume'
        : `unproductive resume ${attempts} of at most ${settings.maxResumes}`;
    return { name: 'resumes', status: 'ok', detail };
  } catch (error) {
    if (error instanceof RalphError) return failed('resumes', error);
    throw error;
  }
}
