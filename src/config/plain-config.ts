/**
 * ralph/config.json checked by hand, so that `ralph run` reads the usual file without loading zod.
 * It accepts only what the schema (src/config/config-schema.ts) accepts and builds the same value,
 * keys in the schema's order; anything it is unsure of (an unknown key, a wrong value) is
 * undefined, and the caller asks the schema, whose error message is the one the user sees.
 * test/unit/config/plain-config.test.ts holds the two side by side.
 */
import { isObject } from '../files/json-text.js';
import { gateOrderProblem } from '../gates/gate-order.js';
import { TOP_LEVEL_KEYS, type ConfigFile } from './config-schema.js';
import { RUN_OPTIONS } from './run-options.js';
import { duration } from './value-kinds.js';

type Plain = Record<string, unknown>;
/** A field check: the value it keeps, or undefined when unsure. */
type Field = (value: unknown) => unknown;

const string: Field = (value) => (typeof value === 'string' ? value : undefined);
const nonEmpty: Field = (value) => (typeof value === 'string' && value.length > 0 ? value : undefined);
const boolean: Field = (value) => (typeof value === 'boolean' ? value : undefined);

/** Every item passes `check` (a hole is no item: not `every`, which skips it). */
function list(value: unknown, check: Field): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: unknown[] = [];
  for (let index = 0; index < value.length; index++) {
    const kept = check(value[index]);
    if (kept === undefined) return undefined;
    out.push(kept);
  }
  return out;
}

/** A strict object: only the shape's keys, each checked; the shape's order; absent keys left out. */
function strictObject(
  value: unknown,
  shape: Record<string, Field>,
  required: readonly string[] = [],
): Plain | undefined {
  if (!isObject(value) || Object.keys(value).some((key) => !Object.hasOwn(shape, key))) return undefined;
  const out: Plain = {};
  for (const [key, check] of Object.entries(shape)) {
    if (!Object.hasOwn(value, key)) {
      if (required.includes(key)) return undefined;
      continue;
    }
    const kept = check(value[key]);
    if (kept === undefined) return undefined;
    out[key] = kept;
  }
  return out;
}

/** String keys to string values (`agent.env`). */
const stringRecord: Field = (value) => {
  if (!isObject(value) || Object.hasOwn(value, '__proto__')) return undefined;
  const out: Plain = {};
  for (const [key, given] of Object.entries(value)) {
    if (typeof given !== 'string') return undefined;
    out[key] = given;
  }
  return out;
};

const agent: Field = (value) =>
  strictObject(value, {
    kind: RUN_OPTIONS.agent.kind.plain,
    fallback: RUN_OPTIONS.fallbackAgent.kind.plain,
    bin: RUN_OPTIONS.agentBin.kind.plain,
    model: RUN_OPTIONS.model.kind.plain,
    args: (given) => list(given, string),
    skipPermissions: boolean,
    env: stringRecord,
  });

const gate: Field = (value) =>
  strictObject(value, { name: nonEmpty, command: nonEmpty, after: string, timeout: duration().plain }, [
    'name',
    'command',
  ]);

const gates: Field = (value) => {
  const checked = list(value, gate) as { name: string; after?: string }[] | undefined;
  return checked && gateOrderProblem(checked) === undefined ? checked : undefined;
};

const SHAPE: Record<string, Field> = {
  $schema: string,
  ...Object.fromEntries(TOP_LEVEL_KEYS.map((key) => [key, RUN_OPTIONS[key].kind.plain as Field])),
  agent,
  gates,
};

/** config.json's JSON as the schema reads it, when it surely accepts it; undefined otherwise. */
export function plainConfig(json: unknown): ConfigFile | undefined {
  return strictObject(json, SHAPE);
}
