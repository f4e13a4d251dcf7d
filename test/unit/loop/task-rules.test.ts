import { describe, expect, it } from 'vitest';
import { runLoop } from '../../../src/loop/run-loop.js';
import { fakePorts, loopSettings, taskList, type FakeCall } from './fakes.js';

/** --skip-review: every iteration implements, and COMPLETE needs only `passes`. */
const settings = loopSettings({ review: false, maxStuck: 9, maxValidationFailures: 9 });

async function loop(calls: FakeCall[]) {
  const initial = taskList(['US-1', false], ['US-2', false]);
  const fake = fakePorts(initial, calls);
  const result = await runLoop({ ...settings, maxIterations: calls.length }, fake.ports, initial);
  return { ...fake, result };
}

const bothPassing: FakeCall = { commit: true, pass: ['US-1', 'US-2'], signals: { complete: true } };
const sameAgain: FakeCall = { signals: { complete: true } };

describe('runLoop: a broken task-list rule stays broken until it is undone', () => {
  it('rejects COMPLETE after two stories were marked passing in one iteration, and the identical COMPLETE after it', async () => {
    const { result, events, prompts } = await loop([bothPassing, sameAgain]);
    expect(events.filter((event) => event.startsWith('warning the iteration broke a rule'))).toHaveLength(2);
    expect(result.termination.reason).not.toBe('complete');
    expect(result.iterations).toBe(2);
    // The second prompt and the third (after the second COMPLETE) both name the fix.
    expect(prompts[1]).toContain('2 stories were marked passes: true in one implement iteration (US-1, US-2)');
  });

  it('accepts COMPLETE once the extra story is set back and then implemented in an iteration of its own', async () => {
    const { result, events } = await loop([
      bothPassing,
      sameAgain,
      // Sets US-2 back: one story newly passes since the last list that kept the rules.
      { review: { 'US-2': { reviewStatus: 'pending', passes: false } } },
      { commit: true, pass: ['US-2'], signals: { complete: true } },
    ]);
    expect(events.filter((event) => event.startsWith('warning the iteration broke a rule'))).toHaveLength(2);
    expect(result.termination.reason).toBe('complete');
    expect(result.iterations).toBe(4);
  });
});
