import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { monotonicMs } from '../../../src/process/monotonic-clock.js';

describe('monotonicMs', () => {
  it('counts milliseconds, as performance.now does over the same wait', async () => {
    const [from, perfFrom] = [monotonicMs(), performance.now()];
    await sleep(30);
    const [elapsed, perfElapsed] = [monotonicMs() - from, performance.now() - perfFrom];
    expect(elapsed).toBeGreaterThanOrEqual(29);
    expect(Math.abs(elapsed - perfElapsed)).toBeLessThan(5);
  });
});
