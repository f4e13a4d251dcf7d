import { describe, expect, it } from 'vitest';
import { toLoopState } from '../../../src/hook/loop-state.js';

describe('toLoopState', () => {
  it('reads review: false (a run with --skip-review); anything else, or nothing (an older ralph), means the cycle is on', () => {
    expect(toLoopState({ iteration: 1, mode: 'implement', review: false }).review).toBe(false);
    expect(toLoopState({ iteration: 1, mode: 'implement' }).review).toBe(true);
    expect(toLoopState({ iteration: 1, mode: 'review', story: 'US-1', review: true })).toMatchObject({
      mode: 'review',
      story: 'US-1',
      review: true,
    });
  });

  it('refuses a mode the rules do not know', () => {
    expect(() => toLoopState({ iteration: 1, mode: 'finish' })).toThrow('unknown mode "finish"');
  });
});
