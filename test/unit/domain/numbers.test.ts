import { describe, expect, it } from 'vitest';
import {
  isAmount,
  isPlausibleReset,
  MAX_COST_USD,
  MAX_EPOCH_MS,
  MAX_RESET_AHEAD_MS,
  MAX_TOKENS,
  MAX_TURNS,
  parseIterationNumber,
} from '../../../src/domain/numbers.js';

// The numbers come from the agent and from files it can write: each bound is pinned at its edge.
describe('bounds for numbers the agent reports', () => {
  it('holds the documented limits', () => {
    expect(MAX_COST_USD).toBe(1_000_000);
    expect(MAX_TOKENS).toBe(10_000_000_000);
    expect(MAX_TURNS).toBe(1_000_000);
    expect(MAX_RESET_AHEAD_MS).toBe(2_678_400_000);
    // The largest epoch a Date holds: one more millisecond and toISOString() throws.
    expect(new Date(MAX_EPOCH_MS).toISOString()).toBe('+275760-09-13T00:00:00.000Z');
    expect(() => new Date(MAX_EPOCH_MS + 1).toISOString()).toThrow(RangeError);
  });

  it('takes an amount from 0 to its maximum, both ends included', () => {
    expect(isAmount(0, 10)).toBe(true);
    expect(isAmount(10, 10)).toBe(true);
    expect(isAmount(0.5, 10)).toBe(true);
  });

  it.each([
    ['a negative amount', -0.01],
    ['one past the maximum', 10.000001],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
  ])('refuses %s', (_name, value) => {
    expect(isAmount(value, 10)).toBe(false);
  });

  it('takes a reset after the epoch and up to a month ahead, that month included', () => {
    const now = Date.UTC(2026, 11, 7);
    expect(isPlausibleReset(now + 60_000, now)).toBe(true);
    expect(isPlausibleReset(now - 60_000, now)).toBe(true);
    expect(isPlausibleReset(now + MAX_RESET_AHEAD_MS, now)).toBe(true);
    expect(isPlausibleReset(1, now)).toBe(true);
  });

  it.each([
    ['a month and a millisecond ahead', Date.UTC(2026, 11, 7) + MAX_RESET_AHEAD_MS + 1],
    ['the epoch itself', 0],
    ['before the epoch', -1],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['the year 3e12', 3e12 * 365 * 24 * 3600 * 1000],
  ])('refuses a reset at %s', (_name, at) => {
    expect(isPlausibleReset(at, Date.UTC(2026, 11, 7))).toBe(false);
  });

  it.each([
    ['1', 1],
    ['7', 7],
    ['10', 10],
    ['999999999', 999_999_999],
  ])('reads the iteration number %s', (text, number) => {
    expect(parseIterationNumber(text)).toBe(number);
  });

  it.each(['', '0', '01', '-1', '1.5', '1e3', ' 1', '1 ', 'x1', '1x', '1000000000', '1\n'])(
    'reads no iteration number in %j',
    (text) => {
      expect(parseIterationNumber(text)).toBeUndefined();
    },
  );
});
