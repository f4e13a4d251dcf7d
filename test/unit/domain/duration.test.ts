import { describe, expect, it } from 'vitest';
import { formatDurationSpec, MAX_DURATION_MS, parseDuration } from '../../../src/domain/duration.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;

describe('parseDuration', () => {
  it.each([
    ['45s', 45 * S],
    ['90m', 90 * M],
    ['2h', 2 * H],
    ['1h30m', H + 30 * M],
    ['1h30m15s', H + 30 * M + 15 * S],
    ['2h0m', 2 * H],
    ['0h1s', S],
    ['30m15s', 30 * M + 15 * S],
    ['1h15s', H + 15 * S],
    ['05m', 5 * M],
    ['100s', 100 * S],
    [' 90m ', 90 * M],
  ])('reads %j as %i ms', (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, ms });
  });

  it.each([
    ['a bare number', '90'],
    ['an empty string', ''],
    ['only spaces', '   '],
    ['a negative duration', '-5m'],
    ['an unknown unit', '5d'],
    ['a fraction', '1.5h'],
    ['an upper-case unit', '2H'],
    ['units out of order', '30m1h'],
    ['a repeated unit', '1h1h'],
    ['a unit without a number', 'h'],
    ['spaces between parts', '1h 30m'],
    ['a trailing word', '2h please'],
    ['milliseconds', '500ms'],
    ['an ISO duration', 'PT1H'],
    ['a plus sign', '+5m'],
    ['an exponent', '1e3s'],
    ['non-ASCII digits', '٣m'],
    ['a colon clock', '1:30'],
  ])('refuses %s with the expected form', (_name, text) => {
    const result = parseDuration(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain('expected a duration like 45s, 90m, 2h or 1h30m');
      expect(result.error).toContain(`got '${text}'`);
    }
  });

  it('says exactly what it expected for a bare number, and suggests the units', () => {
    expect(parseDuration('90')).toEqual({
      ok: false,
      error: "expected a duration like 45s, 90m, 2h or 1h30m, got '90' (add a unit: 90s or 90m)",
    });
  });

  it.each(['0s', '0m', '0h', '0h0m0s', '00m'])('refuses the zero duration %j', (text) => {
    expect(parseDuration(text)).toEqual({
      ok: false,
      error: `expected a duration longer than zero like 45s, 90m, 2h or 1h30m, got '${text}'`,
    });
  });

  it('refuses a duration longer than a timer can hold instead of firing at once', () => {
    const result = parseDuration('1000h');
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toBe("expected a duration of at most 596h31m23s like 45s, 90m, 2h or 1h30m, got '1000h'");
    expect(parseDuration('596h31m23s')).toEqual({ ok: true, ms: 596 * H + 31 * M + 23 * S });
    expect(parseDuration('596h31m24s').ok).toBe(false);
    expect(parseDuration(`${'9'.repeat(400)}h`).ok).toBe(false);
  });

  it('shortens very long junk in the error', () => {
    const result = parseDuration('x'.repeat(5000));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.length).toBeLessThan(150);
  });
});

describe('formatDurationSpec', () => {
  it.each([
    [45 * S, '45s'],
    [90 * M, '1h30m'],
    [2 * H, '2h'],
    [H + 30 * M, '1h30m'],
    [H + 30 * M + 15 * S, '1h30m15s'],
    [H + 15 * S, '1h15s'],
    [4 * H, '4h'],
    [0, '0s'],
    [1500, '1s'],
    [10 * M, '10m'],
    [H + M + S, '1h1m1s'],
    [300, '300ms'],
    [999, '999ms'],
    [MAX_DURATION_MS, '596h31m23s'],
  ])('writes %i ms as %j', (ms, spec) => {
    expect(formatDurationSpec(ms)).toBe(spec);
  });

  it('writes what parseDuration reads back to the same duration', () => {
    for (const text of ['45s', '90m', '2h', '1h30m', '1h30m15s', '2h0m', '100s', '61m', '3599s', '25h']) {
      const parsed = parseDuration(text);
      if (!parsed.ok) throw new Error(parsed.error);
      expect(parseDuration(formatDurationSpec(parsed.ms))).toEqual(parsed);
    }
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('rejects %d as no duration', (ms) => {
    expect(() => formatDurationSpec(ms)).toThrow(RangeError);
  });
});
