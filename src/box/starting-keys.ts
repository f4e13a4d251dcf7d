import { isDeepStrictEqual } from 'node:util';

type Json = Record<string, unknown>;

/**
 * The state file as the agent left it, with each key that starts programs put back to what it was
 * as the box was made; resolves to the keys put back, each as its path of keys. A key that starts
 * nothing (absent, empty, `false`) is left as it is: the client itself writes such defaults on its
 * first start in a folder, and they are no attack.
 */
export function restoreStartingKeys(
  recorded: Json,
  current: Json,
  keys: readonly (readonly string[])[],
): { value: Json; restored: string[][] } {
  const value = structuredClone(current);
  const restored: string[][] = [];
  for (const path of keys.flatMap((key) => concrete(value, key))) {
    const now = at(value, path);
    const before = at(recorded, path);
    if (!startsSomething(now) || isDeepStrictEqual(now, before)) continue;
    put(value, path, before);
    restored.push(path);
  }
  return { value, restored };
}

/** Each path the pattern names in `value`: `*` stands for every key of the object at that step. */
function concrete(value: unknown, pattern: readonly string[], done: readonly string[] = []): string[][] {
  if (pattern.length === 0) return [[...done]];
  const [step, ...rest] = pattern as [string, ...string[]];
  if (!isObject(value)) return [];
  if (step !== '*') return step in value ? concrete(value[step], rest, [...done, step]) : [];
  return Object.keys(value).flatMap((key) => concrete(value[key], rest, [...done, key]));
}

function at(value: unknown, path: readonly string[]): unknown {
  let here = value;
  for (const step of path) {
    if (!isObject(here) || !Object.hasOwn(here, step)) return undefined;
    here = here[step];
  }
  return here;
}

/** Sets the key at `path` (whose parents exist: it was found there) to `to`, or removes it. */
function put(value: Json, path: readonly string[], to: unknown): void {
  const parent = at(value, path.slice(0, -1)) as Json;
  const key = path[path.length - 1] as string;
  if (to === undefined) delete parent[key];
  else parent[key] = structuredClone(to);
}

/** Whether a value could start anything: not absent, null, false, zero, an empty text, list or object. */
function startsSomething(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
