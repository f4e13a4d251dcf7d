/**
 * Hand-written checks for the JSON files `ralph status` and `ralph run` read (tasks.json,
 * last-run.json), so that the commands start without loading zod. Each accepts only what its zod
 * schema accepts and builds the same value, keys in the same order (the schema's keys first, then
 * the others as they came); anything it is unsure of is undefined, and the caller asks the schema,
 * whose error message stays the one the user sees. test/unit/files/plain-json-check.test.ts holds the two side by side.
 */
import type { Story, TasksParse } from '../domain/tasks.js';
import { isObject } from './json-text.js';
import {
  boolean,
  INVALID,
  number,
  object,
  oneOf,
  optional,
  recordOf,
  required,
  string,
  strings,
  withDefault,
  type Field,
  type Plain,
} from './plain-checks.js';

const storyId: Field = (value) =>
  (typeof value === 'string' && value.length > 0) || (typeof value === 'number' && Number.isFinite(value))
    ? String(value)
    : INVALID;

const story = object(
  {
    id: required(storyId),
    title: withDefault(string, ''),
    description: optional(string),
    acceptanceCriteria: optional(strings()),
    priority: optional(number),
    passes: withDefault(boolean, false),
    notes: optional(string),
    reviewStatus: optional(oneOf('pending', 'changes_requested', 'approved')),
    reviewCount: optional(number),
    reviewFeedback: optional(string),
  },
  'loose',
);

const taskListHead = object(
  {
    project: optional(string),
    branchName: optional(string),
    description: optional(string),
    example: optional(boolean),
    dependsOn: optional(strings(1)),
  },
  'strip',
);

/**
 * tasks.json as src/files/tasks.ts's parseTasks reads it, for the plain case: a `stories` list, or
 * a `userStories` one (not both), of stories with unique ids. Undefined for anything else.
 */
export function plainTaskList(json: unknown): TasksParse | undefined {
  if (!isObject(json)) return undefined;
  const key = Object.hasOwn(json, 'stories') ? 'stories' : 'userStories';
  const given = json[key];
  if (Object.hasOwn(json, 'stories') === Object.hasOwn(json, 'userStories') || !Array.isArray(given)) return undefined;
  const head = taskListHead(json);
  if (head === INVALID || given.length === 0) return undefined;
  const stories: Story[] = [];
  const seen = new Set<string>();
  for (const item of given) {
    const parsed = story(item);
    if (parsed === INVALID) return undefined;
    const { id } = parsed as Story;
    if (seen.has(id)) return undefined;
    seen.add(id);
    stories.push(parsed as Story);
  }
  const { project, branchName, description, example, dependsOn } = head as Plain;
  return {
    ok: true,
    tasks: {
      project: project as string | undefined,
      branchName: branchName as string | undefined,
      description: description as string | undefined,
      ...(example ? { example: true } : {}),
      ...(dependsOn ? { dependsOn: dependsOn as string[] } : {}),
      stories,
    },
  };
}

const lastRun = object(
  {
    reason: required(string),
    exitCode: required(number),
    detail: optional(string),
    iterations: required(number),
    maxIterations: optional(number),
    endedAt: optional(string),
    durationSeconds: optional(number),
    stories: optional(object({ complete: required(number), total: required(number) }, 'strip')),
    // Each agent kind's iterations and cost.
    agents: optional(recordOf(object({ iterations: required(number), costUsd: optional(number) }, 'strip'))),
  },
  'loose',
);

/** last-run.json as `ralph status` reads it, when it is well formed; undefined otherwise. */
export function plainLastRun(json: unknown): Plain | undefined {
  const checked = lastRun(json);
  return checked === INVALID ? undefined : (checked as Plain);
}
