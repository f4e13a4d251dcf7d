import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { monotonicMs } from '../../../src/process/monotonic-clock.js';

describe('monotonicMs', () => {
  it('counts milliseconds, as performance.now does over the same wait', async () => {
    // Each reading bracketed by two of performance.now: a loaded machine may pause this test
    // between any two of them, and the brackets take that in, so no tolerance is a guess at speed.
    const [perfBefore, from, perfAfter] = [performance.now(), monotonicMs(), performance.now()];
    await sleep(30);
    const [perfBeforeEnd, to, perfAfterEnd] = [performance.now(), monotonicMs(), performance.now()];
    const elapsed = to - from;
    expect(elapsed).toBeGreaterThanOrEqual(29);
    // Both clocks tick on CLOCK_MONOTONIC; a millisecond either side for their rounding.
    expect(elapsed).toBeGreaterThanOrEqual(perfBeforeEnd - perfAfter - 1);
    expect(elapsed).toBeLessThanOrEqual(perfAfterEnd - perfBefore + 1);
  });
});
