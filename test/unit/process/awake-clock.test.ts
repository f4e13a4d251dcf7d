import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AwakeClock, STOPPED_GAP_MS, TICK_MS } from '../../../src/process/awake-clock.js';

// The monotonic clock is a number the test moves; the timers are vitest's. Running moves both
// together; a stop moves the monotonic clock while no timer can run, then lets every due timer
// run at once, as the kernel does when SIGCONT (or a machine's wake) lets the process go on.

describe('AwakeClock: timers on the time ralph ran', () => {
  let monotonic: number;
  let clock: AwakeClock;
  let fired: string[];
  const run = (ms: number) => {
    for (let step = 0; step < ms; step += 100) {
      monotonic += 100;
      vi.advanceTimersByTime(100);
    }
  };
  const stopFor = (ms: number) => {
    monotonic += ms;
    vi.advanceTimersByTime(ms);
  };

  beforeEach(() => {
    vi.useFakeTimers();
    monotonic = 1_000_000;
    clock = new AwakeClock(() => monotonic);
    fired = [];
  });
  afterEach(() => vi.useRealTimers());

  it('fires once its span of running time has passed, not before', () => {
    clock.timer(10_000, () => fired.push('timeout'));
    run(9_900);
    expect(fired).toEqual([]);
    run(200);
    expect(fired).toEqual(['timeout']);
  });

  it('a stop longer than the timer, then a continue: the stopped minute does not count', () => {
    clock.timer(10_000, () => fired.push('timeout'));
    run(4_000);
    stopFor(60_000);
    expect(fired).toEqual([]);
    expect(clock.now()).toBeLessThan(5_000);
    // What was left of the span still runs out, as it should.
    run(7_000);
    expect(fired).toEqual(['timeout']);
  });

  it('a stop is seen whichever looks first after it, the tick or the timer itself', () => {
    // The timer is due 100 ms into the stop, before the next tick: it looks first, and sees the gap.
    clock.timer(TICK_MS - 100, () => fired.push('short'));
    stopFor(30_000);
    expect(fired).toEqual([]);
    run(TICK_MS);
    expect(fired).toEqual(['short']);
  });

  it('a late tick of a busy event loop (a gap up to STOPPED_GAP_MS) still counts', () => {
    clock.timer(10_000, () => fired.push('timeout'));
    run(4_000);
    stopFor(STOPPED_GAP_MS);
    run(3_100);
    expect(fired).toEqual(['timeout']);
  });

  it('refresh starts the span again from now (the idle timer on every chunk of output)', () => {
    const idle = clock.timer(5_000, () => fired.push('idle'));
    run(4_000);
    idle.refresh();
    run(4_000);
    expect(fired).toEqual([]);
    stopFor(20_000);
    run(900);
    expect(fired).toEqual([]);
    run(300);
    expect(fired).toEqual(['idle']);
  });

  it('clear cancels the timer, and with no timer left the clock stops ticking', () => {
    const first = clock.timer(5_000, () => fired.push('first'));
    const second = clock.timer(8_000, () => fired.push('second'));
    first.clear();
    first.clear();
    run(6_000);
    expect(fired).toEqual([]);
    second.clear();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a timer that fired holds no tick either', () => {
    clock.timer(2_000, () => fired.push('done'));
    run(2_100);
    expect(fired).toEqual(['done']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
