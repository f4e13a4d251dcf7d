import { describe, expect, it } from 'vitest';
import { hasNewCommit } from '../../../src/loop/stuck.js';

describe('hasNewCommit: whether an iteration made progress', () => {
  it('HEAD moving to another commit is a new commit', () => {
    expect(hasNewCommit('a1', 'b2')).toBe(true);
  });

  it("an unborn repository's first commit is a new commit", () => {
    expect(hasNewCommit(null, 'a1')).toBe(true);
  });

  it('HEAD where it was is no new commit, unborn or not', () => {
    expect(hasNewCommit('a1', 'a1')).toBe(false);
    expect(hasNewCommit(null, null)).toBe(false);
  });

  it('HEAD left unborn (an orphan checkout) is no new commit', () => {
    expect(hasNewCommit('a1', null)).toBe(false);
  });
});
