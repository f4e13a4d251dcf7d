// The pace of a task list's work as ralph measured it, run after run: what its iterations cost and
// took, and how many stories they completed. Kept in ralph's records (state.json), never in a file the
// agent can write; forecast.ts reads it. Pure: every number is checked here, whatever the file held.
import { isAmount, MAX_COST_USD, MAX_EPOCH_MS } from './numbers.js';

/** What the iterations of one task list took so far, summed over its runs. */
export interface Pace {
  /** Runs that recorded an iteration. */
  runs: number;
  /** Iterations that count toward --max-iterations (a usage-limited one does not). */
  iterations: number;
  /** Wall-clock seconds of every iteration, from its start to its record (usage-limit waits excluded). */
  seconds: number;
  /** The summed cost the agents reported. */
  costUsd: number;
  /** Iterations whose agent reported a cost: none means the client reports none. */
  costIterations: number;
  /** Stories the iterations completed, net of those sent back. */
  completed: number;
}

/** One usage window as the agent reported it over the iterations: its first and latest reading. */
export interface PaceWindow {
  window: string;
  /** When it resets, epoch ms, as last reported. */
  resetsAt?: number;
  first: WindowReading;
  last: WindowReading;
}

/** A window's utilization (a share, 0.92 is 92 %) after `iterations` of the pace's iterations. */
export interface WindowReading {
  utilization: number;
  iterations: number;
}

/** What one iteration adds to the pace. */
export interface PaceSample {
  /** Stories complete as the iteration started, and after it. */
  storiesBefore: number;
  storiesAfter: number;
  /** Whether it counts toward --max-iterations (false for a usage-limited one). */
  counted: boolean;
  seconds: number;
  costUsd?: number;
  /** The usage windows its agent last reported. */
  usage?: readonly { window: string; utilization: number; resetsAt?: number }[];
  /** The first iteration of a run: the run is counted. */
  firstOfRun: boolean;
}

/** The most a pace may sum before it stops being a measurement (a century of seconds, a billion iterations). */
const MAX_COUNT = 1e9;
const MAX_SECONDS = 100 * 365 * 24 * 3600;
const MAX_TOTAL_COST = MAX_COST_USD * 1e3;
/** At most this many windows are kept: an agent cannot grow the record without bound. */
const MAX_WINDOWS = 8;

/** A pace with nothing measured. */
export const NO_PACE: Pace = { runs: 0, iterations: 0, seconds: 0, costUsd: 0, costIterations: 0, completed: 0 };

function count(value: unknown, max = MAX_COUNT): number {
  return typeof value === 'number' && isAmount(value, max) ? value : 0;
}

/** The pace a record holds, every field checked: a damaged or hostile one reads as nothing measured. */
export function sanePace(value: unknown): Pace {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return NO_PACE;
  const record = value as Partial<Record<keyof Pace, unknown>>;
  const completed = typeof record.completed === 'number' && Number.isFinite(record.completed) ? record.completed : 0;
  return {
    runs: count(record.runs),
    iterations: count(record.iterations),
    seconds: count(record.seconds, MAX_SECONDS),
    costUsd: count(record.costUsd, MAX_TOTAL_COST),
    // A cost that is no measurement is no cost data at all, not a measured $0.
    costIterations: count(record.costUsd, MAX_TOTAL_COST) === record.costUsd ? count(record.costIterations) : 0,
    // Net completions may fall below zero for a while (stories sent back); never beyond the counts' bound.
    completed: Math.max(-MAX_COUNT, Math.min(MAX_COUNT, completed)),
  };
}

/** The usage windows a record holds, each checked; anything malformed is left out. */
export function saneWindows(value: unknown): PaceWindow[] {
  if (!Array.isArray(value)) return [];
  return value
    .flatMap((item: unknown): PaceWindow[] => {
      if (typeof item !== 'object' || item === null) return [];
      const { window, resetsAt, first, last } = item as Partial<Record<keyof PaceWindow, unknown>>;
      const readings = [reading(first), reading(last)];
      if (typeof window !== 'string' || window === '' || !readings[0] || !readings[1]) return [];
      const reset = typeof resetsAt === 'number' && isAmount(resetsAt, MAX_EPOCH_MS) ? { resetsAt } : {};
      return [{ window: windowName(window), ...reset, first: readings[0], last: readings[1] }];
    })
    .slice(0, MAX_WINDOWS);
}

/**
 * A window's name as the records keep it (`five_hour`): the agent's word, so only letters, digits,
 * `_`, `.` and `-`, at most 40 — it is printed at a run's start, where a `::error::` would be obeyed.
 */
function windowName(name: string): string {
  return name.replace(/[^\w.-]/g, '_').slice(0, 40);
}

function reading(value: unknown): WindowReading | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { utilization, iterations } = value as Partial<Record<keyof WindowReading, unknown>>;
  if (typeof utilization !== 'number' || !isAmount(utilization, 100)) return undefined;
  if (typeof iterations !== 'number' || !isAmount(iterations, MAX_COUNT)) return undefined;
  return { utilization, iterations };
}

/** The pace with one more iteration in it; a number that is no measurement (NaN, negative) adds nothing. */
export function addToPace(pace: Pace, sample: PaceSample): Pace {
  const cost = sample.costUsd !== undefined && isAmount(sample.costUsd, MAX_COST_USD) ? sample.costUsd : undefined;
  const before = count(sample.storiesBefore);
  const after = count(sample.storiesAfter);
  return sanePace({
    runs: pace.runs + (sample.firstOfRun ? 1 : 0),
    iterations: pace.iterations + (sample.counted ? 1 : 0),
    seconds: pace.seconds + count(sample.seconds, MAX_SECONDS),
    costUsd: pace.costUsd + (cost ?? 0),
    costIterations: pace.costIterations + (cost === undefined ? 0 : 1),
    completed: pace.completed + (after - before),
  });
}

/**
 * The windows with the iteration's readings in them (`iterations`: the pace's count after it). A
 * window that reset (a later reset, or a utilization that fell) starts its measure again.
 */
export function addWindowReadings(
  windows: readonly PaceWindow[],
  usage: PaceSample['usage'],
  iterations: number,
): PaceWindow[] {
  const next = [...windows];
  for (const report of usage ?? []) {
    if (typeof report.window !== 'string' || !isAmount(report.utilization, 100)) continue;
    const now: WindowReading = { utilization: report.utilization, iterations };
    const reset =
      report.resetsAt !== undefined && isAmount(report.resetsAt, MAX_EPOCH_MS) ? { resetsAt: report.resetsAt } : {};
    const index = next.findIndex((window) => window.window === windowName(report.window));
    const known = next[index];
    const fresh = { window: windowName(report.window), ...reset, first: now, last: now };
    if (!known) next.push(fresh);
    else next[index] = startedAgain(known, report) ? fresh : { ...known, ...reset, last: now };
  }
  return saneWindows(next);
}

/** Whether a window reset since its first reading: its reset moved on by over a minute, or its use fell. */
function startedAgain(known: PaceWindow, report: { utilization: number; resetsAt?: number }): boolean {
  if (report.utilization < known.last.utilization) return true;
  return known.resetsAt !== undefined && report.resetsAt !== undefined && report.resetsAt - known.resetsAt > 60_000;
}
