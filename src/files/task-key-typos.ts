import { isObject, parseJson } from './json-text.js';
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
 * Keys of a task list that look like a misspelt key of ralph's (`"pases": true`): a task list may
 * hold keys of its own, so these are not refused, but ralph reads none of them, and the story's
 * real `passes` stays false. Each as `stories[0]: "pases" (did you mean "passes"?)`.
 */
export function misspeltTaskKeys(text: string): string[] {
  const parsed = parseJson(text);
  if (!parsed.ok || !isObject(parsed.value)) return [];
  const list = parsed.value;
  const found = nearMisses(list, LIST_KEYS, '');
  const key = Array.isArray(list.stories) ? 'stories' : 'userStories';
  const stories: unknown[] = Array.isArray(list[key]) ? (list[key] as unknown[]) : [];
  stories.forEach((story, index) => {
    if (isObject(story)) found.push(...nearMisses(story, STORY_KEYS, `${key}[${index}]: `));
  });
  return found.slice(0, MOST);
}

function nearMisses(object: Record<string, unknown>, known: readonly string[], where: string): string[] {
  return Object.keys(object)
    .filter((key) => !known.includes(key))
    .flatMap((key) => {
      const near = closestKey(key, known);
      return near === undefined ? [] : [`${where}"${key}" (did you mean "${near}"?)`];
    });
}
