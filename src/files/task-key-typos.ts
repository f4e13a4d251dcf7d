import { isObject } from './json-text.js';
import { closestKey } from './nearest-key.js';

/** The keys ralph reads in a story and in the list; any other key is the user's and is kept. */
const STORY_KEYS = [
  'id',
  'title',
  'description',
  'acceptanceCriteria',
  'priority',
  'passes',
  'notes',
  'reviewStatus',
  'reviewCount',
  'reviewFeedback',
];
const LIST_KEYS = ['project', 'branchName', 'description', 'example', 'dependsOn', 'stories', 'userStories'];

/** At most this many are named: a line, not a listing. */
const MOST = 3;

/**
 * Keys of a task list (its parsed JSON) that look like a misspelt key of ralph's (`"pases": true`): a task list may
 * hold keys of its own, so these are not refused, but ralph reads none of them, and the story's
 * real `passes` stays false. Each as `stories[0]: "pases" (did you mean "passes"?)`.
 */
export function misspeltTaskKeys(json: unknown): string[] {
  if (!isObject(json)) return [];
  const list = json;
  // Stories mostly share their keys: each key is weighed once per set of keys it could stand for.
  const cache = new Map<string, string | undefined>();
  const found = nearMisses(list, LIST_KEYS, '', cache);
  const key = Array.isArray(list.stories) ? 'stories' : 'userStories';
  const stories: unknown[] = Array.isArray(list[key]) ? (list[key] as unknown[]) : [];
  for (const [index, story] of stories.entries()) {
    if (found.length >= MOST) break;
    if (isObject(story)) found.push(...nearMisses(story, STORY_KEYS, `${key}[${index}]: `, cache));
  }
  return found.slice(0, MOST);
}

/**
 * A task list's own keys are many and free (`uid`, `reviewNotes`): only a slip is named, one
 * letter off a short key, two off a longer one, and never for a key the object already has.
 */
const SLIP = (candidate: string) => (candidate.length < 6 ? 1 : 2);

function nearMisses(
  object: Record<string, unknown>,
  known: readonly string[],
  where: string,
  cache: Map<string, string | undefined>,
): string[] {
  const missing = known.filter((key) => !Object.hasOwn(object, key));
  return Object.keys(object)
    .filter((key) => !known.includes(key))
    .flatMap((key) => {
      const asked = `${key}\0${missing.join('\0')}`;
      if (!cache.has(asked)) cache.set(asked, closestKey(key, missing, SLIP));
      const near = cache.get(asked);
      return near === undefined ? [] : [`${where}"${key}" (did you mean "${near}"?)`];
    });
}
