import { RalphError } from '../errors.js';
import type { RunState } from '../files/run-state.js';

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
      `Maximum resume attempts exceeded (${attempts}/${maxResumes}). This task list has been resumed ${attempts} times without completing a story. ` +
        'Consider: (1) splitting the stories smaller, (2) raising --max-resumes, (3) reading ralph/logs/summary.csv and the last iteration logs for the cause.',
      4,
      'after fixing the cause, run again with --reset-resumes',
      'max_resumes',
    );
  }
  return attempts;
}

/** The state after a run: its ending, and the resume count reset by any completed story or a COMPLETE. */
export function stateAfterRun(state: RunState, run: { reason: RunState['lastReason']; attempts: number; completeBefore: number; completeAfter: number }): RunState {
  const completed = Math.max(0, run.completeAfter - run.completeBefore);
  return {
    ...state,
    runs: state.runs + 1,
    resumeAttempts: run.reason === 'complete' || completed > 0 ? 0 : run.attempts,
    lastReason: run.reason,
    lastStoriesComplete: run.completeAfter,
    lastRunCompleted: completed,
  };
}
