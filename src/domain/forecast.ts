// The forecast: the stories left at the pace measured so far (pace.ts) — what they will cost, how
// many iterations they take, when they are done, and whether a usage window's limit comes first.
// Pure arithmetic over checked numbers: with nothing measured it says so, and never invents a pace.
import { MAX_EPOCH_MS } from './numbers.js';
import { sanePace, saneWindows, type Pace, type PaceWindow } from './pace.js';

/** A usage window over the rest of the run. */
export interface WindowForecast {
  window: string;
  /** As last reported (a share: 0.92 is 92 %). */
  utilization: number;
  /** When it resets, epoch ms; null when the agent did not say. */
  resetsAt: number | null;
  /** The share of the window one iteration used, as measured; null before two readings iterations apart. */
  perIteration: number | null;
  /**
   * Whether the run is expected to reach the window's limit before the window resets (and then wait
   * for it): `unknown` without a measure of either pace.
   */
  meetsLimit: 'yes' | 'no' | 'unknown';
  /** When it reaches the limit, epoch ms (with `meetsLimit: 'yes'`). */
  reachesAt?: number;
}

/** What the pace measured, per completed story. */
export interface PerStory {
  iterations: number;
  seconds: number;
  /** Null when no iteration reported a cost (a client that reports none). */
  costUsd: number | null;
}

export type Forecast =
  /** No story is left. */
  | { state: 'done'; storiesLeft: 0 }
  /** No story completed yet in any run of this list: there is no measure, and no number is made up. */
  | { state: 'unmeasured'; storiesLeft: number; windows: WindowForecast[] }
  | {
      state: 'measured';
      storiesLeft: number;
      /** What the measure rests on: stories completed, in how many iterations, over how many runs. */
      measured: { stories: number; iterations: number; runs: number };
      perStory: PerStory;
      /** For the stories left: iterations (whole), wall-clock seconds, cost (null: no cost data). */
      remaining: PerStory;
      /** Epoch ms; null when it lies beyond any date (a hostile record's pace). */
      finishesAt: number | null;
      windows: WindowForecast[];
    };

/** What a forecast is made of: ralph's record of the pace, and the stories the task list has left. */
export interface ForecastInput {
  pace: unknown;
  windows?: unknown;
  storiesLeft: number;
  /** Epoch ms. */
  now: number;
}

/** The forecast for the stories left at the measured pace. */
export function forecastOf(input: ForecastInput): Forecast {
  const storiesLeft = Number.isFinite(input.storiesLeft) && input.storiesLeft > 0 ? Math.ceil(input.storiesLeft) : 0;
  if (storiesLeft === 0) return { state: 'done', storiesLeft: 0 };
  const pace = sanePace(input.pace);
  const now = Number.isFinite(input.now) ? input.now : 0;
  const windows = saneWindows(input.windows).filter((window) => (window.resetsAt ?? Infinity) > now);
  const perStory = perStoryOf(pace);
  if (!perStory) return { state: 'unmeasured', storiesLeft, windows: windows.map((w) => windowForecast(w, now)) };
  const remaining: PerStory = {
    // Whole iterations: 1.5 per story for 3 stories is 5 (4.5 rounded up), never 4.
    iterations: Math.ceil(perStory.iterations * storiesLeft - 1e-9),
    seconds: perStory.seconds * storiesLeft,
    costUsd: perStory.costUsd === null ? null : perStory.costUsd * storiesLeft,
  };
  const finish = now + remaining.seconds * 1000;
  const run = { now, iterations: remaining.iterations, secondsPerIteration: pace.seconds / pace.iterations };
  return {
    state: 'measured',
    storiesLeft,
    measured: { stories: pace.completed, iterations: pace.iterations, runs: pace.runs },
    perStory,
    remaining,
    finishesAt: Number.isFinite(finish) && finish <= MAX_EPOCH_MS ? finish : null,
    windows: windows.map((window) => windowForecast(window, now, run)),
  };
}

/** The pace per completed story; undefined before a story was completed (or any iteration counted). */
function perStoryOf(pace: Pace): PerStory | undefined {
  if (pace.completed < 1 || pace.iterations < 1) return undefined;
  return {
    iterations: pace.iterations / pace.completed,
    seconds: pace.seconds / pace.completed,
    costUsd: pace.costIterations > 0 ? pace.costUsd / pace.completed : null,
  };
}

/**
 * One window over the rest of the run: at its measured share per iteration, does the run reach the
 * limit within the iterations it runs before the window resets?
 */
function windowForecast(
  window: PaceWindow,
  now: number,
  run?: { now: number; iterations: number; secondsPerIteration: number },
): WindowForecast {
  const { first, last } = window;
  const spread = last.iterations - first.iterations;
  const used = last.utilization - first.utilization;
  const perIteration = spread > 0 && used >= 0 ? used / spread : null;
  const base = {
    window: window.window,
    utilization: last.utilization,
    resetsAt: window.resetsAt ?? null,
    perIteration,
  };
  if (last.utilization >= 1) return { ...base, meetsLimit: 'yes', reachesAt: now };
  if (perIteration === 0) return { ...base, meetsLimit: 'no' };
  if (perIteration === null || !run) return { ...base, meetsLimit: 'unknown' };
  const toLimit = Math.ceil((1 - last.utilization) / perIteration - 1e-9);
  const beforeReset =
    window.resetsAt === undefined ? Infinity : (window.resetsAt - now) / 1000 / run.secondsPerIteration;
  if (toLimit > Math.min(run.iterations, beforeReset)) return { ...base, meetsLimit: 'no' };
  const reachesAt = now + toLimit * run.secondsPerIteration * 1000;
  return { ...base, meetsLimit: 'yes', ...(Number.isFinite(reachesAt) ? { reachesAt } : {}) };
}

/** The limits given for a run that the forecast says will not suffice (empty when they do, or without a measure). */
export function shortLimits(
  forecast: Forecast,
  limits: { maxCostUsd?: number; maxIterations?: number },
): { flag: '--max-iterations' | '--max-cost'; limit: number; needed: number }[] {
  if (forecast.state !== 'measured') return [];
  const short: ReturnType<typeof shortLimits> = [];
  const { iterations, costUsd } = forecast.remaining;
  if (limits.maxIterations !== undefined && iterations > limits.maxIterations)
    short.push({ flag: '--max-iterations', limit: limits.maxIterations, needed: iterations });
  if (limits.maxCostUsd !== undefined && costUsd !== null && costUsd > limits.maxCostUsd)
    short.push({ flag: '--max-cost', limit: limits.maxCostUsd, needed: costUsd });
  return short;
}
