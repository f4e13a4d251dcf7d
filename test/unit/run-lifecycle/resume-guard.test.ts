import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import type { RunState } from '../../../src/files/run-state.js';
import { checkResume, stateAfterRun } from '../../../src/run-lifecycle/resume-guard.js';

const fresh: RunState = { taskList: 'demo', runs: 0, resumeAttempts: 0, reviewRejections: {} };

describe('checkResume', () => {
  it('a first start, or one after a complete run, is no resume', () => {
    expect(checkResume(fresh, 0, false)).toBe(0);
    expect(checkResume({ ...fresh, runs: 3, resumeAttempts: 2, lastReason: 'complete' }, 0, false)).toBe(0);
  });

  it('counts a start after an unproductive run that did not complete', () => {
    expect(
      checkResume({ ...fresh, runs: 1, resumeAttempts: 1, lastReason: 'stuck', lastRunCompleted: 0 }, 3, false),
    ).toBe(2);
  });

  it('a resume after a run that completed a story starts the count again', () => {
    expect(
      checkResume({ ...fresh, runs: 1, resumeAttempts: 2, lastReason: 'stuck', lastRunCompleted: 1 }, 0, false),
    ).toBe(0);
  });

  it('refuses past the cap with a max_resumes error that names the way out', () => {
    const state: RunState = { ...fresh, runs: 2, resumeAttempts: 2, lastReason: 'max_iterations' };
    let thrown: unknown;
    try {
      checkResume(state, 2, false);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RalphError);
    expect((thrown as RalphError).kind).toBe('max_resumes');
    expect((thrown as RalphError).message).toContain('(3/2)');
    expect((thrown as RalphError).hint).toContain('--reset-resumes');
  });

  it('--reset-resumes clears the count, so the refused start runs', () => {
    expect(checkResume({ ...fresh, runs: 2, resumeAttempts: 5, lastReason: 'stuck' }, 2, true)).toBe(0);
  });
});

describe('stateAfterRun', () => {
  const run = { attempts: 2, completeBefore: 1, completeAfter: 1 };

  it('records an unproductive ending of the task list with its resume count', () => {
    const after = stateAfterRun({ ...fresh, runs: 1 }, { ...run, reason: 'stuck' });
    expect(after).toMatchObject({
      runs: 2,
      resumeAttempts: 2,
      lastReason: 'stuck',
      lastStoriesComplete: 1,
      lastRunCompleted: 0,
    });
  });

  it('a completed story or a COMPLETE resets the count', () => {
    expect(stateAfterRun(fresh, { ...run, reason: 'stuck', completeAfter: 3 })).toMatchObject({
      resumeAttempts: 0,
      lastRunCompleted: 2,
    });
    expect(stateAfterRun(fresh, { ...run, reason: 'complete' })).toMatchObject({
      resumeAttempts: 0,
      lastReason: 'complete',
    });
  });

  it('an ending that says nothing about the task list (a login, an interrupt, a full disk) is not counted', () => {
    for (const reason of ['agent_auth', 'interrupted', 'io_error', 'usage_limit'] as const) {
      expect(stateAfterRun(fresh, { ...run, reason })).toBe(fresh);
    }
  });

  it('but a story it completed still counts', () => {
    expect(stateAfterRun(fresh, { ...run, reason: 'interrupted', completeAfter: 2 })).toMatchObject({
      runs: 1,
      resumeAttempts: 0,
      lastRunCompleted: 1,
    });
  });
});
