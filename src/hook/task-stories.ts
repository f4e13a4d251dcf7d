import { isObject, parseJson } from '../files/json-text.js';
import type { StoryRecord } from '../loop/transitions.js';

export type { StoryRecord };

/** The stories of a tasks.json text, or what is wrong with it (one line, after "ralph/tasks.json "). */
export type StoriesParse = { ok: true; stories: StoryRecord[] } | { ok: false; problem: string };

/**
 * Reads the stories out of a tasks.json text without ralph's schema: the hook only needs ids and
 * raw fields, and must keep working while the schema grows.
 */
export function parseStories(text: string): StoriesParse {
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, problem: `is not valid JSON (${parsed.error})` };
  const json = parsed.value;
  if (!isObject(json)) return { ok: false, problem: 'is not a JSON object with a "stories" array' };
  const key = Array.isArray(json.stories) ? 'stories' : Array.isArray(json.userStories) ? 'userStories' : undefined;
  if (key === undefined) return { ok: false, problem: 'has no "stories" array' };
  const stories: StoryRecord[] = [];
  for (const [index, story] of (json[key] as unknown[]).entries()) {
    const id = isObject(story) ? story.id : undefined;
    if (!isObject(story) || !((typeof id === 'string' && id !== '') || typeof id === 'number')) {
      return { ok: false, problem: `has a story without an "id" at ${key}[${index}]` };
    }
    stories.push({ id: String(id), fields: story });
  }
  return { ok: true, stories };
}
