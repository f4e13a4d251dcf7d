import { describe, expect, it } from 'vitest';
import { noProgress, buildRunReport } from '../../../src/loop/run-report.js';
import { renderSummary } from '../../../src/ui/run-summary.js';

const startedAt = Date.parse('2026-01-02T03:00:00Z');
const run = {
  startedAt,
  endedAt: startedAt + 125_000,
  durationMs: 125_000,
  firstIteration: 7,
  maxIterations: 10,
  strayProcessesEnded: 0,
};

describe('buildRunReport', () => {
  it('numbers the iterations this run made from the first, and averages their time', () => {
    const progress = {
      ...noProgress({ complete: 2, total: 3 }),
      iterations: 3,
      stuckIterations: 1,
      costUsd: 0.1234567891,
    };
    const report = buildRunReport({ reason: 'max_iterations' }, progress, run);
    expect(report).toMatchObject({
      reason: 'max_iterations',
      iterations: 3,
      firstIteration: 7,
      lastIteration: 9,
      startedAt: '2026-01-02T03:00:00.000Z',
      endedAt: '2026-01-02T03:02:05.000Z',
      durationSeconds: 125,
      avgIterationSeconds: 42,
      stories: { complete: 2, total: 3 },
      stuckIterations: 1,
      costUsd: 0.123457,
    });
  });

  it('a run refused before its first iteration has no iteration numbers and no average', () => {
    const report = buildRunReport({ reason: 'setup', message: 'ralph/ not found' }, noProgress(), run);
    expect(report).toMatchObject({ iterations: 0, firstIteration: null, lastIteration: null, avgIterationSeconds: 0 });
    expect(report.exitCode).not.toBe(0);
  });

  it('complete exits 0, and the summary says so with the facts', () => {
    const report = buildRunReport(
      { reason: 'complete' },
      { ...noProgress({ complete: 3, total: 3 }), iterations: 2 },
      run,
    );
    expect(report.exitCode).toBe(0);
    const summary = renderSummary(report);
    expect(summary).toContain('(code 0)');
    expect(summary).toContain('2 / 10');
    expect(summary).toContain('3/3 complete');
    expect(summary).toContain('ralph/logs/summary.csv');
  });

  it.each([
    [
      'blocked',
      { reason: 'blocked', message: 'needs a database password' },
      'resolve it, then say what you did with `ralph answer --run "<what you did>"` (or delete ralph/blocked.txt and run again)',
    ],
    [
      'decide',
      { reason: 'decide', question: 'Postgres or SQLite?' },
      'answer with `ralph answer --run "<your answer>"` (or write it below the --- line in ralph/decide.txt and run again)',
    ],
  ] as const)('a %s ending says what the human does next', (_name, ending, next) => {
    const summary = renderSummary(buildRunReport(ending, noProgress({ complete: 1, total: 3 }), run));
    expect(summary.split('\n')).toContain(`Next:        ${next}`);
  });

  it('an ending that waits for no human names no next step', () => {
    const summary = renderSummary(buildRunReport({ reason: 'complete' }, noProgress({ complete: 3, total: 3 }), run));
    expect(summary).not.toMatch(/^Next:/m);
  });

  it('a usage limit says when it lifts, as an ISO time, and what that time was read from', () => {
    const resetsAt = Date.parse('2026-01-02T09:00:00Z');
    const ending = {
      reason: 'usage_limit' as const,
      message: "You've hit your limit · resets 9am (UTC)",
      resetsAt,
      resetSource: 'clock' as const,
      why: 'stop_requested' as const,
    };
    const report = buildRunReport(ending, noProgress(), run);
    expect(report).toMatchObject({ reason: 'usage_limit', resetsAt: '2026-01-02T09:00:00.000Z', resetSource: 'clock' });
    const unknown = buildRunReport({ ...ending, resetsAt: undefined, resetSource: 'backoff' }, noProgress(), run);
    expect(unknown.resetSource).toBe('backoff');
    expect('resetsAt' in JSON.parse(JSON.stringify(unknown))).toBe(false);
  });
});
