import type { TaskList } from '../domain/tasks.js';
import { RalphError } from '../errors.js';
import type { RecordPaths } from '../files/record-paths.js';
import { updateRunState, type RunState } from '../files/run-state.js';
import { approvedSince } from '../loop/approvals.js';
import { counted } from '../domain/plural.js';

/**
 * Counts this start against the resume cap (seed 002): a start after a run that did not
 * complete is a resume; it is unproductive when that run completed no story. Increment first,
 * then check; a refused start changes no counter (the caller writes nothing).
 */
export function checkResume(state: RunState, maxResumes: number, reset: boolean): number {
  const isResume = state.runs > 0 && state.lastReason !== 'complete';
  const productive = (state.lastRunCompleted ?? 0) > 0;
  const attempts = reset ? 0 : !isResume ? 0 : productive ? 0 : state.resumeAttempts + 1;
  if (attempts > maxResumes) {
    throw new RalphError(
      'max_resumes',
      `Maximum resume attempts exceeded (${attempts}/${maxResumes}). This task list has been resumed ${counted(attempts, 'time')} without completing a story. ` +
        'Consider: (1) splitting the stories smaller, (2) raising --max-resumes, (3) reading ralph/logs/summary.csv and the last iteration logs for the cause.',
      'after fixing the cause, run again with --reset-resumes',
    );
  }
  return attempts;
}

/**
 * Endings that say nothing about the task list: a login or set-up problem, a usage limit, a human's
 * interrupt, a full disk, a bug in ralph. A run that ends so is not counted, so fixing the login
 * does not cost a resume.
 */
const NOT_THE_TASK_LISTS_DOING = new Set<RunState['lastReason']>([
  'agent_auth',
  'agent_setup',
  'usage_limit',
  'interrupted',
  'setup',
  'max_resumes',
  'io_error',
  'internal_error',
]);

/** The state after a run: its ending, and the resume count reset by any completed story or a COMPLETE. */
export function stateAfterRun(
  state: RunState,
  run: { reason: RunState['lastReason']; attempts: number; completeBefore: number; completeAfter: number },
): RunState {
  const completed = Math.max(0, run.completeAfter - run.completeBefore);
  if (NOT_THE_TASK_LISTS_DOING.has(run.reason) && completed === 0) return state;
  return {
    ...state,
    runs: state.runs + 1,
    resumeAttempts: run.reason === 'complete' || completed > 0 ? 0 : run.attempts,
    lastReason: run.reason,
    lastStoriesComplete: run.completeAfter,
    lastRunCompleted: completed,
  };
}

/**
 * The approvals a run starts doubting. After a run ralph did not see end (killed: state.json says a
 * run was under way), every approval made since ralph last looked is a claim nobody checked: with
 * the review cycle on it joins the unconfirmed ones — saved at once, so a second kill keeps the
 * doubt — and goes to review. Without the cycle, the warning says what is taken on trust.
 */
export async function doubtAfterKill(
  state: RunState,
  tasks: TaskList,
  review: boolean,
  records: RecordPaths,
  warn: (text: string) => void,
): Promise<string[]> {
  const remembered = state.unconfirmedApprovals ?? [];
  const since = state.runOpen === true ? approvedSince(state.seenApprovals ?? [], tasks) : [];
  const fresh = since.filter((id) => !remembered.includes(id));
  if (fresh.length === 0) return remembered;
  const ids = fresh.join(', ');
  if (!review) {
    warn(
      `the last run was killed before it recorded its ending; approvals made since ralph last looked are taken as tasks.json says (the review cycle is off): ${ids}`,
    );
    return remembered;
  }
  warn(
    `the last run was killed before it recorded its ending; approvals made since ralph last looked are unconfirmed and go to review: ${ids}`,
  );
  const unconfirmed = [...remembered, ...fresh];
  await updateRunState(records, state.taskList, (current) => ({ ...current, unconfirmedApprovals: unconfirmed }));
  return unconfirmed;
}
