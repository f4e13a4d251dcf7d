import { describe, expect, it } from 'vitest';
import { countStories, openStories } from '../../../src/domain/tasks.js';
import { parseTasks } from '../../../src/files/tasks.js';

describe('story completion with the review cycle', () => {
  it('counts a story complete only when it passes and is approved', () => {
    const parsed = parseTasks(
      JSON.stringify({
        stories: [
          { id: 'A', passes: true, reviewStatus: 'approved' },
          { id: 'B', passes: true, reviewStatus: 'pending' },
          { id: 'C', passes: true },
          { id: 'D', passes: false, reviewStatus: 'changes_requested' },
        ],
      }),
    );
    expect(parsed.ok && countStories(parsed.tasks, { review: true })).toEqual({ complete: 1, total: 4 });
    expect(parsed.ok && countStories(parsed.tasks, { review: false })).toEqual({ complete: 3, total: 4 });
  });

  it('refuses an unknown reviewStatus', () => {
    const parsed = parseTasks(JSON.stringify({ stories: [{ id: 'A', reviewStatus: 'maybe' }] }));
    expect(parsed.ok).toBe(false);
  });
});

describe('parseTasks', () => {
  it('reads stories and counts those that pass', () => {
    const parsed = parseTasks(
      JSON.stringify({
        project: 'p',
        stories: [
          { id: 'A', title: 'a', passes: true },
          { id: 'B', title: 'b', passes: false },
        ],
      }),
    );
    expect(parsed.ok && countStories(parsed.tasks, { review: false })).toEqual({ complete: 1, total: 2 });
  });

  it('accepts the prd.json shape with userStories', () => {
    const parsed = parseTasks(JSON.stringify({ userStories: [{ id: 'US-1', title: 't', passes: false }] }));
    expect(parsed.ok && parsed.tasks.stories.map((story) => story.id)).toEqual(['US-1']);
  });

  it('orders open stories by priority', () => {
    const parsed = parseTasks(
      JSON.stringify({
        stories: [
          { id: 'A', priority: 3 },
          { id: 'B', priority: 1 },
          { id: 'C', passes: true, priority: 0 },
        ],
      }),
    );
    expect(parsed.ok && openStories(parsed.tasks, { review: false }).map((story) => story.id)).toEqual(['B', 'A']);
  });

  it.each([
    ['{', /not valid JSON/],
    ['[]', /expected object/],
    ['{"project":"p"}', /needs a "stories" array/],
    ['{"stories":{}}', /stories: expected array/],
    ['{"stories":[{"title":"x"}]}', /^stories\[0\]\.id: is missing: every story needs an id$/],
    ['{"stories":[{"id":""}]}', /^stories\[0\]\.id: is empty: every story needs an id$/],
    ['{"stories":[{"id":true}]}', /^stories\[0\]\.id: expected a non-empty string or a number$/],
    ['{"stories":[{"id":"A","passes":"yes"}]}', /stories\[0\]\.passes: expected boolean/],
  ])('names what is wrong in %s', (text, message) => {
    const parsed = parseTasks(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});
