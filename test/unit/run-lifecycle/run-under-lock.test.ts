import { describe, expect, it } from 'vitest';
import type { IterationRow } from '../../../src/loop/port-data.js';
import { progressOfRows } from '../../../src/run-lifecycle/run-under-lock.js';

const row = (iteration: number, stuckCount: number, storiesComplete: number, costUsd?: number): IterationRow => ({
  iteration,
  mode: 'implement',
  durationSeconds: 10,
  commitHash: stuckCount === 0 ? `c${iteration}` : '',
  storiesComplete,
  storiesTotal: 3,
  stuckCount,
  timestamp: '2026-01-01T00:00:00Z',
  outcome: 'ok',
  agentExitCode: 0,
  stats: { toolCalls: 0, invalidLines: 0, ...(costUsd === undefined ? {} : { costUsd }) },
});

describe('progressOfRows: the record of a run a fault cut short', () => {
  it('counts the strikes, the stories and the cost the rows written so far show', () => {
    // Two strikes, a commit that resets the count, then one more strike.
    const rows = [row(1, 1, 0, 0.5), row(2, 2, 0, 0.25), row(3, 0, 1), row(4, 1, 1, 0.25)];
    expect(progressOfRows(rows, { complete: 0, total: 3 })).toEqual({
      iterations: 0,
      stuckIterations: 3,
      stories: { complete: 1, total: 3 },
      costUsd: 1,
      repetitions: {},
    });
  });

  it('before any row, keeps the stories as the run found them', () => {
    expect(progressOfRows([], { complete: 2, total: 3 })).toMatchObject({
      stuckIterations: 0,
      stories: { complete: 2, total: 3 },
      costUsd: 0,
    });
  });
});
