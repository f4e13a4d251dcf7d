import { describe, expect, it } from 'vitest';
import { copyCounts, countOf, emptyCounts, withCount } from '../../../src/domain/keyed-counts.js';

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
