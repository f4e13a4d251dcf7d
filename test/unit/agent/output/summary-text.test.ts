import { describe, expect, it } from 'vitest';
import { firstLine, groupThousands, truncate } from '../../../../src/agent/output/summary-text.js';

describe('firstLine', () => {
  it('is the first line that is not blank, trimmed', () => {
    expect(firstLine('\n  \n  npm test  \nnext')).toBe('npm test');
    expect(firstLine('only')).toBe('only');
    expect(firstLine(' \n\n ')).toBe('');
  });
});

describe('truncate', () => {
  it('cuts to the limit, the ellipsis included', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abcd', 4)).toBe('abcd');
  });
});

describe('groupThousands', () => {
  it('separates thousands with commas', () => {
    expect([0, 999, 1000, 1_200, 123_456, 1_234_567, 25_000_000].map(groupThousands)).toEqual([
      '0',
      '999',
      '1,000',
      '1,200',
      '123,456',
      '1,234,567',
      '25,000,000',
    ]);
  });
});
