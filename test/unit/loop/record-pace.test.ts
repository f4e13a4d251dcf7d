import { describe, expect, it } from 'vitest';
import { runLoop } from '../../../src/loop/run-loop.js';
import { fakePorts, loopSettings, taskList } from './fakes.js';

describe('the pace each iteration records', () => {
  it('gives the stories before and after, the time it took, its cost and usage, and marks the run’s first', async () => {
    const tasks = taskList(['US-1', false], ['US-2', false], ['US-3', false]);
    const usage = [{ window: 'five_hour', utilization: 0.3 }];
    const fake = fakePorts(tasks, [
      { commit: true, pass: ['US-1'], costUsd: 0.25, takesMs: 30_000, usage },
      { takesMs: 10_000 },
      { commit: true, pass: ['US-2'], costUsd: 0.5, takesMs: 20_000 },
    ]);
    await runLoop(loopSettings({ maxIterations: 3 }), fake.ports, tasks);
    expect(fake.paceSamples).toEqual([
      { storiesBefore: 0, storiesAfter: 1, counted: true, seconds: 30, costUsd: 0.25, usage, firstOfRun: true },
      { storiesBefore: 1, storiesAfter: 1, counted: true, seconds: 10, firstOfRun: false },
      { storiesBefore: 1, storiesAfter: 2, counted: true, seconds: 20, costUsd: 0.5, firstOfRun: false },
    ]);
  });

  it('names the story ralph chose for the prompt in the summary row', async () => {
    const tasks = taskList(['US-1', true], ['US-2', false]);
    const fake = fakePorts(tasks, [{ commit: true, pass: ['US-2'], signals: { complete: true } }]);
    await runLoop(loopSettings(), fake.ports, tasks);
    expect(fake.rows.map((row) => row.story)).toEqual(['US-2']);
  });
});
