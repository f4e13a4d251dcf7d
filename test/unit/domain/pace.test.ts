import { describe, expect, it } from 'vitest';
import { addToPace, addWindowReadings, NO_PACE, sanePace, type PaceSample } from '../../../src/domain/pace.js';

const sample = (over: Partial<PaceSample> = {}): PaceSample => ({
  storiesBefore: 0,
  storiesAfter: 1,
  counted: true,
  seconds: 30,
  costUsd: 0.5,
  firstOfRun: false,
  ...over,
});

describe('addToPace', () => {
  it('sums iterations, time, cost and the stories completed', () => {
    const pace = [
      sample({ firstOfRun: true }),
      sample({ storiesBefore: 1, storiesAfter: 1, costUsd: undefined }),
    ].reduce(addToPace, NO_PACE);
    expect(pace).toEqual({ runs: 1, iterations: 2, seconds: 60, costUsd: 0.5, costIterations: 1, completed: 1 });
  });

  it('counts a story sent back against the stories completed', () => {
    const pace = [sample(), sample({ storiesBefore: 1, storiesAfter: 0 })].reduce(addToPace, NO_PACE);
    expect(pace.completed).toBe(0);
  });

  it('leaves a usage-limited iteration out of the iterations counted, not out of the time', () => {
    expect(addToPace(NO_PACE, sample({ counted: false }))).toMatchObject({ iterations: 0, seconds: 30 });
  });

  it.each([Number.NaN, -1, Infinity, 1e12])('adds nothing for a cost or time of %s', (bad) => {
    const pace = addToPace(NO_PACE, sample({ costUsd: bad, seconds: bad }));
    expect(pace).toMatchObject({ costUsd: 0, costIterations: 0 });
    expect(Number.isFinite(pace.seconds)).toBe(true);
    expect(pace.seconds).toBeLessThan(1e10);
  });

  it('reads hostile story counts as none', () => {
    expect(addToPace(NO_PACE, sample({ storiesBefore: Number.NaN, storiesAfter: 1e300 })).completed).toBe(0);
  });
});

describe('sanePace', () => {
  it('reads fields that are no measurement as zero', () => {
    expect(
      sanePace({ runs: -1, iterations: 'x', seconds: Infinity, costUsd: Number.NaN, costIterations: 2, completed: 1 }),
    ).toEqual({ runs: 0, iterations: 0, seconds: 0, costUsd: 0, costIterations: 0, completed: 1 });
    expect(sanePace(null)).toEqual(NO_PACE);
  });
});

describe('addWindowReadings', () => {
  it('keeps the first reading of a window and moves its last', () => {
    let windows = addWindowReadings([], [{ window: 'five_hour', utilization: 0.1, resetsAt: 5e6 }], 1);
    windows = addWindowReadings(windows, [{ window: 'five_hour', utilization: 0.3, resetsAt: 5e6 }], 3);
    expect(windows).toEqual([
      {
        window: 'five_hour',
        resetsAt: 5e6,
        first: { utilization: 0.1, iterations: 1 },
        last: { utilization: 0.3, iterations: 3 },
      },
    ]);
  });

  it('starts a window again once it reset: a later reset, or its use fell', () => {
    const start = addWindowReadings([], [{ window: 'w', utilization: 0.5, resetsAt: 1e6 }], 1);
    const later = addWindowReadings(start, [{ window: 'w', utilization: 0.6, resetsAt: 1e6 + 3600_000 }], 2);
    expect(later[0]?.first).toEqual({ utilization: 0.6, iterations: 2 });
    const fell = addWindowReadings(start, [{ window: 'w', utilization: 0.1, resetsAt: 1e6 }], 2);
    expect(fell[0]?.first).toEqual({ utilization: 0.1, iterations: 2 });
  });

  it('keeps at most eight windows, however many the agent names', () => {
    const many = Array.from({ length: 50 }, (_, index) => ({ window: `w${index}`, utilization: 0.1 }));
    expect(addWindowReadings([], many, 1)).toHaveLength(8);
  });
});

describe('a window name the agent chose', () => {
  it('keeps only letters, digits, _, . and -: nothing a terminal or a CI runner would obey', () => {
    const [window] = addWindowReadings([], [{ window: '::error::x\u001b[31m five', utilization: 0.1 }], 1);
    expect(window?.window).toBe('__error__x__31m_five');
  });
});
