import { shortLimits, type Forecast, type WindowForecast } from '../domain/forecast.js';
import { MAX_EPOCH_MS } from '../domain/numbers.js';
import { counted } from '../domain/plural.js';
import { formatDuration } from '../ui/format.js';

/** The forecast as `ralph status --json` and the report hold it: instants as ISO-8601 UTC. */
export type ForecastJson =
  | { state: 'done'; storiesLeft: 0 }
  | { state: 'unmeasured'; storiesLeft: number; note: string; windows: WindowJson[] }
  | {
      state: 'measured';
      storiesLeft: number;
      measured: { stories: number; iterations: number; runs: number };
      perStory: { iterations: number; seconds: number; costUsd: number | null };
      remaining: { iterations: number; seconds: number; costUsd: number | null };
      finishesAt: string | null;
      /** Set when no iteration reported a cost: iterations and time only. */
      note?: string;
      windows: WindowJson[];
    };

export interface WindowJson {
  window: string;
  utilization: number;
  resetsAt: string | null;
  perIteration: number | null;
  meetsLimit: WindowForecast['meetsLimit'];
  reachesAt?: string;
}

export const NO_MEASURE = 'no measure yet: no story has been completed in any run of this task list';
export const NO_COST = 'the agent reports no cost: iterations and time only';

/** An instant as ISO-8601 UTC to the second; null for one no date holds. */
function iso(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || Math.abs(ms) > MAX_EPOCH_MS) return null;
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** `2026-12-06 22:40 UTC`: an instant for people. */
function when(ms: number | null | undefined): string {
  return (
    iso(ms)
      ?.replace('T', ' ')
      .replace(/:\d\dZ$/, ' UTC') ?? 'beyond any date'
  );
}

/** `$1.23`; a cost under a cent keeps two significant digits (`$0.0042`). */
export function money(usd: number): string {
  return usd > 0 && usd < 0.01 ? `$${Number(usd.toPrecision(2))}` : `$${usd.toFixed(2)}`;
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

function windowJson(window: WindowForecast): WindowJson {
  const reaches = iso(window.reachesAt);
  return {
    window: window.window,
    utilization: window.utilization,
    resetsAt: iso(window.resetsAt),
    perIteration: window.perIteration,
    meetsLimit: window.meetsLimit,
    ...(reaches ? { reachesAt: reaches } : {}),
  };
}

/** The forecast for JSON readers. */
export function forecastJson(forecast: Forecast): ForecastJson {
  if (forecast.state === 'done') return forecast;
  const windows = forecast.windows.map(windowJson);
  if (forecast.state === 'unmeasured')
    return { state: 'unmeasured', storiesLeft: forecast.storiesLeft, note: NO_MEASURE, windows };
  return {
    state: 'measured',
    storiesLeft: forecast.storiesLeft,
    measured: forecast.measured,
    perStory: forecast.perStory,
    remaining: forecast.remaining,
    finishesAt: iso(forecast.finishesAt),
    ...(forecast.remaining.costUsd === null ? { note: NO_COST } : {}),
    windows,
  };
}

/** The forecast for people: its line, then a line per usage window. */
export function forecastLines(forecast: Forecast, now: number): string[] {
  if (forecast.state === 'done') return ['forecast: no story left'];
  const left = counted(forecast.storiesLeft, 'story');
  const windows = forecast.windows.map((window) => windowLine(window, now));
  if (forecast.state === 'unmeasured') return [`forecast: ${left} left; ${NO_MEASURE}`, ...windows];
  const { perStory, remaining, measured } = forecast;
  const pace = [
    ...(perStory.costUsd === null ? [] : [money(perStory.costUsd)]),
    `${round1(perStory.iterations)} ${perStory.iterations === 1 ? 'iteration' : 'iterations'}`,
    formatDuration(perStory.seconds * 1000),
  ].join(', ');
  const basis = `${counted(measured.stories, 'story')} in ${counted(measured.iterations, 'iteration')} over ${counted(measured.runs, 'run')}`;
  const ahead = [
    ...(remaining.costUsd === null ? [] : [`about ${money(remaining.costUsd)}`]),
    counted(remaining.iterations, 'iteration'),
    `done around ${when(forecast.finishesAt)} (in ${formatDuration(remaining.seconds * 1000)})`,
  ].join(', ');
  const noCost = remaining.costUsd === null ? ` (${NO_COST})` : '';
  return [`forecast: ${left} left at ${pace} a story (measured: ${basis}): ${ahead}${noCost}`, ...windows];
}

/** One usage window: how full, when it resets, and whether the run is expected to reach its limit first. */
function windowLine(window: WindowForecast, now: number): string {
  const reset = window.resetsAt === null ? 'its reset unknown' : `resets ${when(window.resetsAt)}`;
  const head = `  usage ${window.window} ${Math.round(window.utilization * 100)}%, ${reset}`;
  if (window.meetsLimit === 'unknown') return `${head}: no measure yet of how fast the run uses it`;
  if (window.meetsLimit === 'no') return `${head}: the run is not expected to reach its limit before then`;
  const at = window.reachesAt === undefined || window.reachesAt <= now ? 'now' : `around ${when(window.reachesAt)}`;
  return `${head}: the run is expected to reach its limit ${at}, then wait for the reset`;
}

/** The one warning line when --max-cost or --max-iterations will not suffice at the measured pace; else none. */
export function shortLimitsLine(
  forecast: Forecast,
  limits: { maxCostUsd?: number; maxIterations?: number },
): string | undefined {
  const short = shortLimits(forecast, limits);
  if (short.length === 0 || forecast.state !== 'measured') return undefined;
  const parts = short.map((one) =>
    one.flag === '--max-cost'
      ? `--max-cost ${money(one.limit)} (about ${money(one.needed)} needed)`
      : `--max-iterations ${one.limit} (about ${one.needed} needed)`,
  );
  const verb = short.length === 1 ? 'is' : 'are';
  return `${parts.join(' and ')} ${verb} not enough for the ${counted(forecast.storiesLeft, 'story')} left at the pace measured so far: the run will likely stop before the list is done`;
}
