import { monotonicMs } from './monotonic-clock.js';

/** How often the clock looks at the monotonic one while a timer of its runs. */
export const TICK_MS = 1000;
/**
 * A gap between two looks longer than this is time ralph did not run at all: it was stopped
 * (SIGSTOP, Ctrl-Z, a frozen cgroup) or the machine slept with a clock that kept counting. Three
 * ticks missed in a row: an event loop only busy is late by far less.
 */
export const STOPPED_GAP_MS = 3 * TICK_MS;

/** A timer on awake time: `refresh` starts its span again from now; `clear` cancels it. */
export interface AwakeTimer {
  refresh(): void;
  clear(): void;
}

/**
 * Time as ralph lived it: the monotonic clock, less every stretch in which ralph was not running.
 * A machine that sleeps, or a ralph stopped and continued with its agent, must not find on waking
 * that the iteration's timeout or the idle timeout passed while nothing could happen: the agent
 * was stopped too. It looks every TICK_MS while a timer runs, and any gap between two looks longer
 * than STOPPED_GAP_MS is not counted (the tick before a stop is lost with it: at most a second).
 * --max-runtime is not measured here: a run stopped for an hour has used an hour of its window.
 */
export class AwakeClock {
  private last: number;
  private awake = 0;
  private timers = 0;
  private ticker: NodeJS.Timeout | undefined;

  constructor(private readonly monotonic: () => number = monotonicMs) {
    this.last = monotonic();
  }

  /** Awake milliseconds since the clock was made. */
  now(): number {
    const at = this.monotonic();
    const gap = at - this.last;
    this.last = at;
    if (gap > 0 && gap <= STOPPED_GAP_MS) this.awake += gap;
    return this.awake;
  }

  /** Calls `fire` once `ms` of awake time have passed (since now, or since the last refresh). */
  timer(ms: number, fire: () => void): AwakeTimer {
    let from = this.now();
    let handle: NodeJS.Timeout | undefined;
    const arm = (wait: number) => {
      handle = setTimeout(check, wait);
    };
    const check = () => {
      // The timer's own look comes first if it is the first thing to run after a stop: the gap is
      // seen here as well as by the tick, so a stop never counts.
      const left = ms - (this.now() - from);
      if (left > 0) {
        arm(left);
        return;
      }
      handle = undefined;
      this.release();
      fire();
    };
    this.hold();
    arm(ms);
    return {
      refresh: () => {
        // Cheap, for every chunk of output: the armed timeout finds the new start when it fires.
        from = this.now();
      },
      clear: () => {
        if (handle === undefined) return;
        clearTimeout(handle);
        handle = undefined;
        this.release();
      },
    };
  }

  /** A timer runs: the clock looks every tick, so that no stop goes unseen. */
  private hold(): void {
    this.timers++;
    this.ticker ??= setInterval(() => this.now(), TICK_MS);
    // Ticking alone keeps no process alive.
    this.ticker.unref();
  }

  private release(): void {
    this.timers--;
    if (this.timers > 0 || this.ticker === undefined) return;
    clearInterval(this.ticker);
    this.ticker = undefined;
  }
}
