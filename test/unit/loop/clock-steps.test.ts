import { describe, expect, it } from 'vitest';
import { runLoop } from '../../../src/loop/run-loop.js';
import { fakePorts, loopSettings, taskList, type FakeCall } from './fakes.js';

const HOUR = 3600_000;
const tasks = taskList(['US-1', false], ['US-2', false], ['US-3', false]);

async function loop(calls: FakeCall[], maxRuntimeMs = 4 * HOUR) {
  const fake = fakePorts(tasks, calls);
  const result = await runLoop(loopSettings({ maxIterations: calls.length, maxRuntimeMs }), fake.ports, tasks);
  return { ...fake, result };
}

describe('runLoop: a wall clock that steps', () => {
  it('a clock stepped back an hour during an iteration leaves its duration positive, its timestamp the wall’s', async () => {
    const { rows } = await loop([
      { commit: true, takesMs: 90_000 },
      { commit: true, takesMs: 30_000, clockStepMs: -HOUR },
    ]);
    expect(rows.map((row) => row.durationSeconds)).toEqual([90, 30]);
    // The timestamp says what the wall clock said: an hour earlier than the first one, less the 30 s.
    expect(Date.parse(rows[1]!.timestamp) - Date.parse(rows[0]!.timestamp)).toBe(-HOUR + 30_000);
  });

  it('a clock stepped forward past --max-runtime does not end the run early', async () => {
    const { result, calls } = await loop(
      [{ takesMs: 60_000, clockStepMs: 3 * HOUR }, { commit: true }, { commit: true }],
      HOUR,
    ).then(({ result, remainingCalls }) => ({ result, calls: remainingCalls() }));
    expect(result.termination).toEqual({ reason: 'max_iterations' });
    expect(calls).toBe(0);
  });

  it('a clock stepped back does not extend --max-runtime', async () => {
    const { result, remainingCalls } = await loop(
      [
        { commit: true, takesMs: 40 * 60_000, clockStepMs: -2 * HOUR },
        { commit: true, takesMs: 40 * 60_000 },
        { commit: true },
      ],
      HOUR,
    );
    expect(result.termination).toEqual({ reason: 'max_runtime', limitMs: HOUR });
    expect(remainingCalls()).toBe(1);
  });
});
