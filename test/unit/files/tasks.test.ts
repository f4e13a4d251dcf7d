import { describe, expect, it } from 'vitest';
import { countStories, openStories, parseTasks } from '../../../src/files/tasks.js';

describe('parseTasks', () => {
  it('reads stories and counts those that pass', () => {
    const parsed = parseTasks(JSON.stringify({ project: 'p', stories: [{ id: 'A', title: 'a', passes: true }, { id: 'B', title: 'b', passes: false }] }));
    expect(parsed.ok && countStories(parsed.tasks)).toEqual({ complete: 1, total: 2 });
  });

  it('accepts the prd.json shape with userStories', () => {
    const parsed = parseTasks(JSON.stringify({ userStories: [{ id: 'US-1', title: 't', passes: false }] }));
    expect(parsed.ok && parsed.tasks.stories.map((story) => story.id)).toEqual(['US-1']);
  });

  it('orders open stories by priority', () => {
    const parsed = parseTasks(JSON.stringify({ stories: [{ id: 'A', priority: 3 }, { id: 'B', priority: 1 }, { id: 'C', passes: true, priority: 0 }] }));
    expect(parsed.ok && openStories(parsed.tasks).map((story) => story.id)).toEqual(['B', 'A']);
  });

  it.each([
    ['{', /not valid JSON/],
    ['[]', /expected object/],
    ['{"project":"p"}', /needs a "stories" array/],
    ['{"stories":{}}', /stories: expected array/],
    ['{"stories":[{"title":"x"}]}', /stories\[0\]\.id/],
    ['{"stories":[{"id":"A","passes":"yes"}]}', /stories\[0\]\.passes: expected boolean/],
  ])('names what is wrong in %s', (text, message) => {
    const parsed = parseTasks(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});
