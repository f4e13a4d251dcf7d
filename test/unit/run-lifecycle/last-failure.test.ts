import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/loop/run-report.js';
import { withLastFailure } from '../../../src/run-lifecycle/last-failure.js';

const report = (reason: RunReport['reason'], detail?: string): RunReport => ({
  reason,
  exitCode: 1,
  ...(detail ? { detail } : {}),
  iterations: 1,
  maxIterations: 1,
  firstIteration: 1,
  lastIteration: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:01:00.000Z',
  durationSeconds: 60,
  strayProcessesEnded: 0,
  avgIterationSeconds: 60,
  stories: { complete: 0, total: 1 },
  stuckIterations: 1,
  costUsd: 0,
  repetitions: {},
});

describe('withLastFailure', () => {
  it("names the last iteration's failure when the ending does not", () => {
    expect(withLastFailure(report('max_iterations'), { kind: 'error', lines: ['first', 'Error: boom'] }).detail).toBe(
      "the last iteration's agent failed: Error: boom",
    );
    expect(
      withLastFailure(report('stuck', '3 consecutive iterations without a new commit'), { kind: 'error', lines: [] })
        .detail,
    ).toBe("3 consecutive iterations without a new commit\nthe last iteration's agent failed: no error output");
  });

  it('leaves endings that are the failure, and runs whose last iteration did not fail, as they are', () => {
    const ending = report('agent_setup', 'API Error: Unable to connect to API — check the network');
    expect(
      withLastFailure(ending, {
        kind: 'setup',
        message: 'API Error: Unable to connect to API',
        cause: 'network',
        hint: 'the fix',
      }),
    ).toBe(ending);
    const fine = report('max_iterations');
    expect(withLastFailure(fine, undefined)).toBe(fine);
  });
});
