import { describe, expect, it } from 'vitest';
import { mostUrgent } from '../../../src/parallel/most-urgent.js';

describe('mostUrgent', () => {
  it('follows the documented order 64 > 2 > 3 > 4 > 1 > 0', () => {
    expect(mostUrgent([0, 1])).toBe(1);
    expect(mostUrgent([1, 4, 0])).toBe(4);
    expect(mostUrgent([4, 3])).toBe(3);
    expect(mostUrgent([3, 2, 4])).toBe(2);
    expect(mostUrgent([2, 64, 0])).toBe(64);
  });

  it('puts an interrupt and a fault above every ending', () => {
    expect(mostUrgent([64, 130])).toBe(130);
    expect(mostUrgent([64, 70])).toBe(70);
  });

  it('ranks a code ralph never returns as a fault, and no loops as success', () => {
    expect(mostUrgent([2, 137])).toBe(137);
    expect(mostUrgent([])).toBe(0);
    expect(mostUrgent([0, 0])).toBe(0);
  });
});
