import { describe, expect, it } from 'vitest';
import { counted } from '../../../src/domain/plural.js';

describe('counted', () => {
  it('says one in the singular and every other count in the plural', () => {
    expect(counted(1, 'iteration')).toBe('1 iteration');
    expect(counted(0, 'iteration')).toBe('0 iterations');
    expect(counted(2, 'story')).toBe('2 stories');
    expect(counted(1, 'story')).toBe('1 story');
    expect(counted(3, 'day')).toBe('3 days');
    expect(counted(2, 'person', 'people')).toBe('2 people');
  });
});
