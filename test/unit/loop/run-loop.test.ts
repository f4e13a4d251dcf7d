import { describe, expect, it } from 'vitest';
import { runLoop, type LoopSettings } from '../../../src/loop/run-loop.js';
import { exitCodeFor } from '../../../src/loop/termination.js';
import { fakePorts, taskList, type FakeCall } from './fakes.js';

const settings: LoopSettings = { maxIterations: 10, maxStuck: 3, firstIteration: 1 };
const tasks = taskList(['US-1', false], ['US-2', false]);

async function loop(calls: FakeCall[], overrides: Partial<LoopSettings> = {}, initial = tasks) {
  const fake = fakePorts(initial, calls);
  const result = await runLoop({ ...settings, ...overrides }, fake.ports, initial);
  return { ...fake, result };
}

describe('runLoop', () => {
  it('ends complete when the agent says COMPLETE and every story passes', async () => {
    const { result, rows } = await loop([
      { commit: true, pass: ['US-1'] },
      { commit: true, pass: ['US-2'], signals: { complete: true } },
    ]);
    expect(result.termination).toEqual({ reason: 'complete' });
    expect(result.iterations).toBe(2);
    expect(result.stories).toEqual({ complete: 2, total: 2 });
    expect(rows.map((row) => [row.iteration, row.storiesComplete, row.commitHash])).toEqual([
      [1, 1, 'c1'],
      [2, 2, 'c2'],
    ]);
  });

  it('calls no agent when every story already passes', async () => {
    const { result, prompts } = await loop([], {}, taskList(['US-1', true]));
    expect(result.termination.reason).toBe('complete');
    expect(result.iterations).toBe(0);
    expect(prompts).toEqual([]);
  });

  it('rejects COMPLETE while stories fail, tells the next prompt which, and goes on', async () => {
    const { result, prompts, events } = await loop([
      { commit: true, pass: ['US-1'], signals: { complete: true } },
      { commit: true, pass: ['US-2'], signals: { complete: true } },
    ]);
    expect(result.termination.reason).toBe('complete');
    expect(events).toContain('rejected US-2');
    expect(prompts[0]).not.toContain('Loop feedback');
    expect(prompts[1]).toContain('## Loop feedback');
    expect(prompts[1]).toContain('US-2 (Story US-2)');
  });

  it('accepts COMPLETE on the last allowed iteration', async () => {
    const { result } = await loop([{ commit: true, pass: ['US-1', 'US-2'], signals: { complete: true } }], {
      maxIterations: 1,
    });
    expect(result.termination.reason).toBe('complete');
  });

  it('ends blocked with the reason written for a human', async () => {
    const { result, blocked } = await loop([{ signals: { blocked: 'no API key' } }]);
    expect(result.termination).toEqual({ reason: 'blocked', message: 'no API key' });
    expect(exitCodeFor(result.termination)).toBe(2);
    expect(blocked).toEqual([expect.objectContaining({ iteration: 1, reason: 'no API key' })]);
  });

  it('ends decide with the question written for a human', async () => {
    const { result, decided } = await loop([{ commit: true, signals: { decide: 'REST or GraphQL?' } }]);
    expect(result.termination).toEqual({ reason: 'decide', question: 'REST or GraphQL?' });
    expect(exitCodeFor(result.termination)).toBe(3);
    expect(decided).toHaveLength(1);
  });

  it('prefers a verified COMPLETE over BLOCKED over DECIDE', async () => {
    const all = { complete: true, blocked: 'b', decide: 'd' };
    const complete = await loop([{ commit: true, pass: ['US-1', 'US-2'], signals: all }]);
    expect(complete.result.termination.reason).toBe('complete');
    const blocked = await loop([{ commit: true, signals: all }]);
    expect(blocked.result.termination.reason).toBe('blocked');
    const decide = await loop([{ commit: true, signals: { decide: 'd', complete: true } }]);
    expect(decide.result.termination.reason).toBe('decide');
  });

  it('stops stuck after max-stuck iterations without a commit', async () => {
    const { result, rows } = await loop([{}, {}, {}]);
    expect(result.termination).toEqual({ reason: 'stuck', stuckCount: 3 });
    expect(exitCodeFor(result.termination)).toBe(4);
    expect(rows.map((row) => row.stuckCount)).toEqual([1, 2, 3]);
    expect(rows.every((row) => row.commitHash === '')).toBe(true);
    expect(result.stuckIterations).toBe(3);
  });

  it('resets the stuck count on a commit: 2 stuck, 1 commit, 2 stuck does not stop at the 4th', async () => {
    const { result, rows } = await loop([{}, {}, { commit: true }, {}, {}, {}]);
    expect(rows.map((row) => row.stuckCount)).toEqual([1, 2, 0, 1, 2, 3]);
    expect(result.termination.reason).toBe('stuck');
    expect(result.iterations).toBe(6);
    expect(result.stuckIterations).toBe(5);
  });

  it('counts the first commit of an unborn repository as progress', async () => {
    const fake = fakePorts(tasks, [{ commit: true }, {}], { head: null });
    const result = await runLoop({ ...settings, maxIterations: 2 }, fake.ports, tasks);
    expect(fake.rows[0]?.commitHash).toBe('c1');
    expect(fake.rows[0]?.stuckCount).toBe(0);
    expect(result.termination.reason).toBe('max_iterations');
  });

  it('ends at max-iterations without completion', async () => {
    const { result, rows } = await loop([{ commit: true }, { commit: true }], { maxIterations: 2 });
    expect(result.termination).toEqual({ reason: 'max_iterations' });
    expect(exitCodeFor(result.termination)).toBe(1);
    expect(rows).toHaveLength(2);
  });

  it('numbers iterations from the first number it is given', async () => {
    const { rows, active } = await loop([{ commit: true }, { commit: true }], { maxIterations: 2, firstIteration: 8 });
    expect(rows.map((row) => row.iteration)).toEqual([8, 9]);
    expect(active.map((state) => state.iteration)).toEqual([8, 9]);
  });

  it('records the interrupted iteration and ends with the signal', async () => {
    const { result, rows, remainingCalls } = await loop([{ interrupt: 'SIGINT', exitCode: null }, { commit: true }]);
    expect(result.termination).toEqual({ reason: 'interrupted', signal: 'SIGINT' });
    expect(exitCodeFor(result.termination)).toBe(130);
    expect(rows).toHaveLength(1);
    expect(remainingCalls()).toBe(1);
  });

  it('tells the next prompt when tasks.json was left invalid, and never accepts COMPLETE then', async () => {
    const { result, prompts } = await loop(
      [{ commit: true, corruptTasks: true, signals: { complete: true } }, { commit: true }],
      { maxIterations: 2 },
      taskList(['US-1', false]),
    );
    expect(result.termination.reason).toBe('max_iterations');
    expect(prompts[1]).toContain('ralph/tasks.json is not a valid task list');
  });

  it('points the prompt at an answered decide.txt', async () => {
    const fake = fakePorts(tasks, [{ commit: true }], { decide: 'answered' });
    await runLoop({ ...settings, maxIterations: 1 }, fake.ports, tasks);
    expect(fake.prompts[0]).toContain('ralph/decide.txt');
  });

  it('explains ignored promise tags in the next prompt', async () => {
    const { prompts } = await loop([{ commit: true, signals: { invalid: ['<promise>DONE</promise>'] } }, { commit: true }], {
      maxIterations: 2,
    });
    expect(prompts[1]).toContain('<promise>DONE</promise>');
  });
});
