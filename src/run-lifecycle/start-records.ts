import pc from 'picocolors';
import type { TaskList } from '../domain/tasks.js';
import { adoptOlderState, olderTaskListId, readRunState, taskListId, type RunState } from '../files/run-state.js';
import { checkListAtStart } from './list-trust.js';
import { checkResume, doubtAfterKill } from './resume-guard.js';
import type { RunContext } from './run-context.js';

/** What the run's start reads of ralph's records about its list, once it is on the list's branch. */
export interface StartRecords {
  /** The list's identity in the records: its file in the work tree. */
  taskList: string;
  state: RunState;
  attempts: number;
  /** What counts as complete: with the review cycle, no approval ralph doubts. */
  policy: { review: boolean; unconfirmed: Set<string> };
}

/**
 * Checked under the lock, so two simultaneous starts cannot both count as one resume: the resume
 * count, a story removed since ralph last saw the list (refused without the person's word), the
 * approvals ralph has no record of and those made after a kill (doubted, said in one line each).
 */
export async function startRecords(
  run: RunContext,
  tasks: TaskList,
  settings: { maxResumes: number; skipReview: boolean },
): Promise<StartRecords> {
  const { paths, terminal } = run;
  const taskList = taskListId(paths.root, paths.tasks);
  const doubtedBefore = await adoptOlderState(paths.records, taskList, olderTaskListId(tasks));
  const state = await readRunState(paths.records, taskList);
  const attempts = checkResume(state, settings.maxResumes, run.options.resetResumes === true);
  const warn = (text: string) => terminal.out.line(pc.yellow(`warning: ${text}`));
  const word = {
    acceptRemoved: run.options.acceptRemoved === true,
    acceptApprovals: run.options.acceptApprovals === true,
  };
  const say = { line: (text: string) => terminal.out.line(text), warn };
  const unrecorded = await checkListAtStart(paths, tasks, word, say, doubtedBefore);
  const review = !settings.skipReview;
  const unconfirmed = await doubtAfterKill(state, tasks, review, paths.records, warn);
  const fresh = unrecorded.filter((id) => !unconfirmed.includes(id));
  if (review && fresh.length > 0) warn(unrecordedLine(fresh, taskList));
  return { taskList, state, attempts, policy: { review, unconfirmed: new Set([...unconfirmed, ...unrecorded]) } };
}

/** The one line on approvals ralph has no record of: they go to review. */
function unrecordedLine(ids: readonly string[], list: string): string {
  const one = ids.length === 1;
  return `${ids.join(', ')} in ${list} ${one ? 'claims' : 'claim'} an approval no review of ralph's made: not approved until a review approves ${one ? 'it' : 'them'} (or run with --accept-approvals)`;
}
