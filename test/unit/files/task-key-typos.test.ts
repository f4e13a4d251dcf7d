import { describe, expect, it } from 'vitest';
import { misspeltTaskKeys } from '../../../src/files/task-key-typos.js';

const list = (story: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  project: 'p',
  stories: [{ id: 'US-1', title: 't', ...story }],
  ...extra,
});

describe('misspeltTaskKeys', () => {
  it('names a story key that looks like one of ralph’s, with the one it was likely meant to be', () => {
    expect(misspeltTaskKeys(list({ pases: true }))).toEqual(['stories[0]: "pases" (did you mean "passes"?)']);
    expect(misspeltTaskKeys(list({ priorty: 1 }))).toEqual(['stories[0]: "priorty" (did you mean "priority"?)']);
  });

  it('names a list key too, and reads the prd.json shape', () => {
    const misspelt = { projct: 'x', stories: [{ id: 'US-1' }] };
    expect(misspeltTaskKeys(misspelt)).toEqual(['"projct" (did you mean "project"?)']);
    const prd = { userStories: [{ id: 'US-1', passess: true }] };
    expect(misspeltTaskKeys(prd)).toEqual(['userStories[0]: "passess" (did you mean "passes"?)']);
  });

  it('leaves keys of the user’s own alone, and a list without any', () => {
    expect(misspeltTaskKeys(list({ passes: true, owner: 'me', estimateHours: 3, dependencies: ['US-0'] }))).toEqual([]);
    // Near a key the story already has, or more than a slip off: the user's own.
    const own = { passes: true, uid: 'u', x: 1, ids: [], kind: 'k', reviewNotes: 'n', reviewDate: 'd', tests: [] };
    expect(misspeltTaskKeys(list(own))).toEqual([]);
    // And a key the list has already is no slip for it: "projct" beside "project".
    expect(misspeltTaskKeys(list({}, { projct: 'x' }))).toEqual([]);
    expect(misspeltTaskKeys('not a list')).toEqual([]);
    expect(misspeltTaskKeys(null)).toEqual([]);
  });

  it('names three at the most', () => {
    const stories = Array.from({ length: 5 }, (_, index) => ({ id: `US-${index}`, pases: true }));
    expect(misspeltTaskKeys({ stories })).toHaveLength(3);
  });
});
