import { describe, expect, it } from 'vitest';
import { copyCounts, countOf, emptyCounts, type KeyedCounts, withCount } from '../../../src/domain/keyed-counts.js';

describe('counts keyed by names the agent chooses', () => {
  it.each(['__proto__', 'toString', 'constructor', 'hasOwnProperty'])('%s is a key like any other', (key) => {
    expect(countOf(emptyCounts(), key)).toBe(0);
    const once = withCount(emptyCounts(), key, 1);
    expect(countOf(once, key)).toBe(1);
    expect(countOf(withCount(once, key, 2), key)).toBe(2);
    expect(Object.keys(once)).toEqual([key]);
  });

  it('reads from JSON only own keys whose values are counts', () => {
    const parsed = JSON.parse('{"__proto__": 4, "a": -1, "b": "3", "c": 1e300, "d": 2}') as unknown;
    const counts = copyCounts(parsed);
    expect(Object.keys(counts)).toEqual(['__proto__', 'd']);
    expect(countOf(counts, '__proto__')).toBe(4);
    expect(countOf(counts, 'toString')).toBe(0);
  });
});

describe('counts that are no counts', () => {
  it.each([
    ['a fraction', 1.5],
    ['a negative count', -2],
    ['an unsafe integer', 2 ** 53],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a string', '3'],
    ['null', null],
    ['an object', { valueOf: (): number => 3 }],
  ])('reads %s as 0', (_name, value) => {
    const counts = emptyCounts();
    (counts as Record<string, unknown>).a = value;
    expect(countOf(counts, 'a')).toBe(0);
  });

  it("reads a negative zero (JSON's -0) as 0, never as -0", () => {
    const parsed = JSON.parse('{"a": -0}') as KeyedCounts;
    expect(Object.is(parsed.a, -0)).toBe(true);
    expect(Object.is(countOf(parsed, 'a'), 0)).toBe(true);
    expect(countOf(parsed, 'a').toLocaleString('en')).toBe('0');
  });

  it('reads 0 and the largest safe count as they are', () => {
    expect(countOf(withCount(emptyCounts(), 'a', 0), 'a')).toBe(0);
    expect(countOf(withCount(emptyCounts(), 'a', Number.MAX_SAFE_INTEGER), 'a')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('never reads an inherited value, even from a plain object', () => {
    const plain = { own: 2 } as KeyedCounts;
    expect(countOf(plain, 'toString')).toBe(0);
    expect(countOf(Object.create({ inherited: 5 }) as KeyedCounts, 'inherited')).toBe(0);
  });

  it('leaves the counts it copies from as they were', () => {
    const before = withCount(emptyCounts(), 'a', 1);
    const after = withCount(before, 'b', 2);
    expect(Object.keys(before)).toEqual(['a']);
    expect({ ...after }).toEqual({ a: 1, b: 2 });
    expect(Object.getPrototypeOf(after)).toBeNull();
  });

  it.each([
    ['null', null],
    ['a number', 3],
    ['a string', 'ab'],
    ['undefined', undefined],
  ])('copies nothing from %s', (_name, value) => {
    const counts = copyCounts(value);
    expect(Object.keys(counts)).toEqual([]);
    expect(Object.getPrototypeOf(counts)).toBeNull();
  });

  it('drops zero counts when copying, and keeps a prototype-free copy', () => {
    const counts = copyCounts({ a: 0, b: 1 });
    expect(Object.keys(counts)).toEqual(['b']);
    expect(Object.getPrototypeOf(counts)).toBeNull();
  });
});
