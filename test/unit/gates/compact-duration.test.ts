import { describe, expect, it } from 'vitest';
import { compactDuration } from '../../../src/gates/compact-duration.js';

describe('compactDuration', () => {
  it.each([
    [600_000, '10m'],
    [5_400_000, '1h30m'],
    [45_000, '45s'],
    [3_661_000, '1h1m1s'],
    [300, '300ms'],
    [1500, '1500ms'],
    [0, '0ms'],
  ])('%d ms is %s', (ms, text) => {
    expect(compactDuration(ms)).toBe(text);
  });
});
