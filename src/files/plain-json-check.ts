/**
 * Hand-written checks for the JSON files `ralph status` and `ralph run` read (tasks.json,
 * last-run.json), so that the commands start without loading zod. Each accepts only what its zod
 * schema accepts and builds the same value, keys in the same order (the schema's keys first, then
 * the others as they came); anything it is unsure of is undefined, and the caller asks the schema,
 * whose error message stays the one the user sees. test/unit/files/plain-json-check.test.ts holds the two side by side.
 */
import type { Story, TasksParse } from '../domain/tasks.js';

type Plain = Record<string, unknown>;
/** A field check: the value it keeps, or `invalid`. */
type Field = (value: unknown) => unknown;

const INVALID = Symbol('invalid');
const isObject = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const string: Field = (value) => (typeof value === 'string' ? value : INVALID);
const number: Field = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : INVALID);
const boolean: Field = (value) => (typeof value === 'boolean' ? value : INVALID);
/** A list of strings (at least `min` long each); `every` would skip a hole, which the schema refuses. */
const strings =
  (min = 0): Field =>
  (value) =>
    Array.isArray(value) && Array.from(value).every((item) => typeof item === 'string' && item.length >= min)
      ? [...(value as string[])]
      : INVALID;
const oneOf =
  (...allowed: string[]): Field =>
  (value) =>
    typeof value === 'string' && allowed.includes(value) ? value : INVALID;

/** A field of an object schema: required, optional, or with a default when absent. */
interface Key {
  check: Field;
  absent: 'required' | 'optional' | { default: unknown };
}
const required = (check: Field): Key => ({ check, absent: 'required' });
const optional = (check: Field): Key => ({ check, absent: 'optional' });
const withDefault = (check: Field, value: unknown): Key => ({ check, absent: { default: value } });

/**
 * An object checked against `shape`: its keys in the shape's order, then (loose) the keys the shape
 * does not name as they came, or (strict: zod's plain object) only the shape's keys.
 */
function object(shape: Record<string, Key>, loose: boolean): Field {
  return (value) => {
    if (!isObject(value) || Object.hasOwn(value, '__proto__')) return INVALID;
    const out: Plain = {};
    for (const [name, key] of Object.entries(shape)) {
      const given = Object.hasOwn(value, name) ? value[name] : undefined;
      if (given === undefined) {
        if (key.absent === 'required') return INVALID;
        if (key.absent !== 'optional') out[name] = key.absent.default;
        continue;
      }
      const kept = key.check(given);
      if (kept === INVALID) return INVALID;
      out[name] = kept;
    }
    if (loose) for (const name of Object.keys(value)) if (!Object.hasOwn(shape, name)) out[name] = value[name];
    return out;
  };
}

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
  true,
);

const taskListHead = object(
  {
    project: optional(string),
    branchName: optional(string),
    description: optional(string),
    example: optional(boolean),
    dependsOn: optional(strings(1)),
  },
  false,
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
    stories: optional(object({ complete: required(number), total: required(number) }, false)),
    agents: optional(agentShares),
  },
  true,
);

/** `agents` of last-run.json: each agent kind's iterations and cost. */
function agentShares(value: unknown): unknown {
  if (!isObject(value) || Object.hasOwn(value, '__proto__')) return INVALID;
  const share = object({ iterations: required(number), costUsd: optional(number) }, false);
  const out: Plain = {};
  for (const [name, given] of Object.entries(value)) {
    const kept = share(given);
    if (kept === INVALID) return INVALID;
    out[name] = kept;
  }
  return out;
}

/** last-run.json as `ralph status` reads it, when it is well formed; undefined otherwise. */
export function plainLastRun(json: unknown): Plain | undefined {
  const checked = lastRun(json);
  return checked === INVALID ? undefined : (checked as Plain);
}
