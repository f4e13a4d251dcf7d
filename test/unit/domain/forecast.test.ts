import { describe, expect, it } from 'vitest';
import { forecastOf, shortLimits, type Forecast } from '../../../src/domain/forecast.js';
import { NO_PACE, type Pace, type PaceWindow } from '../../../src/domain/pace.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
/** Two stories in four iterations, 400 s, $2: per story 2 iterations, 200 s, $1. */
const PACE: Pace = { runs: 2, iterations: 4, seconds: 400, costUsd: 2, costIterations: 4, completed: 2 };

function measured(forecast: Forecast): Extract<Forecast, { state: 'measured' }> {
  if (forecast.state !== 'measured') throw new Error(`expected a measured forecast, got ${forecast.state}`);
  return forecast;
}

describe('forecastOf', () => {
  it('multiplies the measured pace per story by the stories left', () => {
    const forecast = measured(forecastOf({ pace: PACE, storiesLeft: 3, now: NOW }));
    expect(forecast.perStory).toEqual({ iterations: 2, seconds: 200, costUsd: 1 });
    expect(forecast.remaining).toEqual({ iterations: 6, seconds: 600, costUsd: 3 });
    expect(forecast.finishesAt).toBe(NOW + 600_000);
    expect(forecast.measured).toEqual({ stories: 2, iterations: 4, runs: 2 });
  });

  it('rounds the iterations left up to whole ones', () => {
    const pace = { ...PACE, iterations: 3 };
    expect(measured(forecastOf({ pace, storiesLeft: 3, now: NOW })).remaining.iterations).toBe(5);
    expect(
      measured(forecastOf({ pace: { ...PACE, iterations: 2 }, storiesLeft: 3, now: NOW })).remaining.iterations,
    ).toBe(3);
  });

  it('has no measure before a story was completed, and invents none', () => {
    for (const pace of [NO_PACE, { ...PACE, completed: 0 }, { ...PACE, completed: -2 }, { ...PACE, iterations: 0 }])
      expect(forecastOf({ pace, storiesLeft: 2, now: NOW })).toEqual({
        state: 'unmeasured',
        storiesLeft: 2,
        windows: [],
      });
  });

  it('is done with no story left, whatever the pace', () => {
    for (const storiesLeft of [0, -1, Number.NaN, -Infinity])
      expect(forecastOf({ pace: PACE, storiesLeft, now: NOW })).toEqual({ state: 'done', storiesLeft: 0 });
  });

  it('forecasts iterations and time only when no iteration reported a cost', () => {
    const forecast = measured(
      forecastOf({ pace: { ...PACE, costUsd: 0, costIterations: 0 }, storiesLeft: 1, now: NOW }),
    );
    expect(forecast.perStory.costUsd).toBeNull();
    expect(forecast.remaining).toEqual({ iterations: 2, seconds: 200, costUsd: null });
  });

  it.each([
    ['NaN', Number.NaN],
    ['negative', -5],
    ['infinite', Infinity],
    ['a string', '3'],
    ['huge', 1e300],
  ])('reads a %s number in the record as nothing measured, never as a pace', (_, bad) => {
    for (const field of ['iterations', 'completed'] as const) {
      const forecast = forecastOf({ pace: { ...PACE, [field]: bad }, storiesLeft: 2, now: NOW });
      if (field === 'completed' && bad === 1e300) continue;
      expect(forecast.state).toBe('unmeasured');
    }
    // A bad cost or time is no cost or time: the forecast stays finite.
    const forecast = measured(forecastOf({ pace: { ...PACE, costUsd: bad, seconds: bad }, storiesLeft: 2, now: NOW }));
    expect(Number.isFinite(forecast.remaining.seconds)).toBe(true);
    expect(forecast.remaining.costUsd).toBeNull();
  });

  it('keeps every number finite with the largest pace a record may hold, and a finish beyond any date is null', () => {
    const pace = { runs: 1, iterations: 1e9, seconds: 3e9, costUsd: 1e9, costIterations: 1e9, completed: 1 };
    const forecast = measured(forecastOf({ pace, storiesLeft: 1e6, now: NOW }));
    expect(Number.isFinite(forecast.remaining.iterations)).toBe(true);
    expect(Number.isFinite(forecast.remaining.costUsd!)).toBe(true);
    expect(forecast.finishesAt).toBeNull();
  });

  it('reads a record that is no object as nothing measured', () => {
    for (const pace of [null, undefined, 'fast', [1, 2], 42])
      expect(forecastOf({ pace, storiesLeft: 1, now: NOW }).state).toBe('unmeasured');
  });

  it('treats a NaN clock as the epoch rather than failing', () => {
    expect(measured(forecastOf({ pace: PACE, storiesLeft: 1, now: Number.NaN })).finishesAt).toBe(200_000);
  });
});

describe('forecastOf: usage windows', () => {
  const window = (over: Partial<PaceWindow> = {}): PaceWindow => ({
    window: 'five_hour',
    resetsAt: NOW + 3600_000,
    first: { utilization: 0.2, iterations: 0 },
    last: { utilization: 0.4, iterations: 4 },
    ...over,
  });

  it('expects the run to reach a limit it uses up before the window resets', () => {
    // 0.05 a window per iteration, 0.6 left: 12 iterations; 100 s each, so 1200 s, before the reset in 3600 s.
    const [forecast] = measured(forecastOf({ pace: PACE, windows: [window()], storiesLeft: 10, now: NOW })).windows;
    expect(forecast).toMatchObject({
      window: 'five_hour',
      utilization: 0.4,
      meetsLimit: 'yes',
      reachesAt: NOW + 1200_000,
    });
    expect(forecast!.perIteration).toBeCloseTo(0.05, 9);
  });

  it('does not expect it when the run ends first, or the window resets first', () => {
    const few = measured(forecastOf({ pace: PACE, windows: [window()], storiesLeft: 2, now: NOW })).windows[0];
    expect(few?.meetsLimit).toBe('no');
    const soon = window({ resetsAt: NOW + 300_000 });
    const reset = measured(forecastOf({ pace: PACE, windows: [soon], storiesLeft: 10, now: NOW })).windows[0];
    expect(reset?.meetsLimit).toBe('no');
  });

  it('has no measure of a window read once, and leaves out one that has reset since', () => {
    const once = window({ first: { utilization: 0.4, iterations: 4 } });
    expect(forecastOf({ pace: PACE, windows: [once], storiesLeft: 3, now: NOW })).toMatchObject({
      windows: [{ meetsLimit: 'unknown', perIteration: null }],
    });
    const past = window({ resetsAt: NOW - 1 });
    expect(measured(forecastOf({ pace: PACE, windows: [past], storiesLeft: 3, now: NOW })).windows).toEqual([]);
  });

  it('says a window at its limit is met now, even without a measure of the pace', () => {
    const full = window({ last: { utilization: 1, iterations: 4 } });
    expect(forecastOf({ pace: NO_PACE, windows: [full], storiesLeft: 3, now: NOW })).toMatchObject({
      state: 'unmeasured',
      windows: [{ meetsLimit: 'yes', reachesAt: NOW }],
    });
  });

  it('drops malformed windows (NaN, negative, no name)', () => {
    const bad = [
      window({ last: { utilization: Number.NaN, iterations: 4 } }),
      window({ first: { utilization: -1, iterations: 0 } }),
      { ...window(), window: '' },
      'five_hour',
    ];
    expect(measured(forecastOf({ pace: PACE, windows: bad, storiesLeft: 3, now: NOW })).windows).toEqual([]);
  });
});

describe('shortLimits', () => {
  const forecast = forecastOf({ pace: PACE, storiesLeft: 3, now: NOW });

  it('names each limit below what the forecast needs', () => {
    expect(shortLimits(forecast, { maxCostUsd: 2.5, maxIterations: 5 })).toEqual([
      { flag: '--max-iterations', limit: 5, needed: 6 },
      { flag: '--max-cost', limit: 2.5, needed: 3 },
    ]);
  });

  it('names none that suffice, and none without a measure or a cost', () => {
    expect(shortLimits(forecast, { maxCostUsd: 3, maxIterations: 6 })).toEqual([]);
    expect(shortLimits(forecastOf({ pace: NO_PACE, storiesLeft: 3, now: NOW }), { maxIterations: 1 })).toEqual([]);
    const noCost = forecastOf({ pace: { ...PACE, costIterations: 0 }, storiesLeft: 3, now: NOW });
    expect(shortLimits(noCost, { maxCostUsd: 0.01 })).toEqual([]);
  });
});
