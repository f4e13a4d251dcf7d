import type { z } from 'zod/mini';
import { RalphError } from '../errors.js';
import { readOwnFile } from '../files/own-file.js';
import { formatPath } from '../files/schema-errors.js';
import { configSchema, type ConfigFile } from './config-schema.js';
import { parseJson } from '../files/json-text.js';
import { closestKey } from '../files/nearest-key.js';

/** Reads and validates ralph/config.json; an absent file is an empty config. */
export async function loadConfig(path: string, shownPath: string): Promise<ConfigFile> {
  const text = await readOwnFile(path);
  if (text === undefined) return {};
  const parsed = parseJson(text);
  if (!parsed.ok)
    throw new RalphError(
      'setup',
      `${shownPath} is not valid JSON: ${parsed.error}`,
      'fix the file (keys are camelCase, durations are strings like "90m")',
    );
  const json = parsed.value;
  const result = configSchema().safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new RalphError(
    'setup',
    `${shownPath}: ${describeConfigIssue(issue, json)}`,
    'see ralph/config.schema.json (written by `ralph init`) or docs/configuration.md for the keys and their forms',
  );
}

/**
 * `maxIterations: expected a whole number ≥ 1, got "ten"`, or `unknown key "maxIteration" (did you
 * mean "maxIterations"?)`.
 */
function describeConfigIssue(issue: z.core.$ZodIssue, json: unknown): string {
  const where = formatPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const scope = where ? `${where}.` : '';
    const known = knownKeys(issue.path);
    const key = issue.keys[0] ?? '';
    const near = closestKey(key, known);
    return `unknown key "${scope}${key}"${near ? ` (did you mean "${scope}${near}"?)` : ''}`;
  }
  const got = valueAt(json, issue.path);
  const message = issue.message.replace(/^Invalid input: /, '');
  // zod's "received string" says less than the value itself: `expected array, got "npm test"`.
  const said =
    got === undefined || message.includes(', got ')
      ? message
      : `${message.replace(/, received \w+$/, '')}, got ${JSON.stringify(got)}`;
  return `${where ? `${where}: ` : ''}${said}`;
}

function knownKeys(path: readonly PropertyKey[]): string[] {
  let schema: unknown = configSchema();
  for (const part of path) schema = (schema as { shape?: Record<string, unknown> }).shape?.[String(part)];
  // An optional block (`agent`, `box`): its keys are those of the object it wraps.
  const unwrapped = (schema as { _zod?: { def: { innerType?: unknown } } })._zod?.def.innerType ?? schema;
  return Object.keys((unwrapped as { shape?: Record<string, unknown> }).shape ?? {});
}

function valueAt(json: unknown, path: readonly PropertyKey[]): unknown {
  let value = json;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}
