/**
 * The pieces the hand-written JSON checks are built of (src/files/plain-json-check.ts for the
 * files `ralph status` and `ralph run` read, src/config/plain-config.ts for config.json): each
 * keeps exactly what its zod counterpart keeps, or says `INVALID` when unsure, and the caller then
 * asks the schema, whose error message is the one the user sees.
 */
import { isObject } from './json-text.js';

export type Plain = Record<string, unknown>;
/** A field check: the value it keeps, or `INVALID`. */
export type Field = (value: unknown) => unknown;

export const INVALID = Symbol('invalid');

export const string: Field = (value) => (typeof value === 'string' ? value : INVALID);
export const nonEmpty: Field = (value) => (typeof value === 'string' && value.length > 0 ? value : INVALID);
export const number: Field = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : INVALID);
export const boolean: Field = (value) => (typeof value === 'boolean' ? value : INVALID);

export const oneOf =
  (...allowed: string[]): Field =>
  (value) =>
    typeof value === 'string' && allowed.includes(value) ? value : INVALID;

/** A check that says undefined when unsure (a value kind's `plain`), as a Field. */
export const unsureAsInvalid =
  (check: (value: unknown) => unknown): Field =>
  (value) =>
    check(value) ?? INVALID;

/** A list whose every item passes `check` (an index loop: `every` would skip a hole, which zod refuses). */
export const listOf =
  (check: Field): Field =>
  (value) => {
    if (!Array.isArray(value)) return INVALID;
    const out: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      const kept = check(value[index]);
      if (kept === INVALID) return INVALID;
      out.push(kept);
    }
    return out;
  };

/** A list of strings at least `min` long each. */
export const strings = (min = 0): Field => listOf(min > 0 ? nonEmpty : string);

/** An object of any keys whose every value passes `check` (zod's record of string keys). */
export const recordOf =
  (check: Field): Field =>
  (value) => {
    if (!isObject(value) || Object.hasOwn(value, '__proto__')) return INVALID;
    const out: Plain = {};
    for (const [name, given] of Object.entries(value)) {
      const kept = check(given);
      if (kept === INVALID) return INVALID;
      out[name] = kept;
    }
    return out;
  };

/** A field of an object schema: required, optional, or with a default when absent. */
export interface Key {
  check: Field;
  absent: 'required' | 'optional' | { default: unknown };
}
export const required = (check: Field): Key => ({ check, absent: 'required' });
export const optional = (check: Field): Key => ({ check, absent: 'optional' });
export const withDefault = (check: Field, value: unknown): Key => ({ check, absent: { default: value } });

/**
 * An object checked against `shape`, its keys in the shape's order. The keys the shape does not
 * name: kept as they came after them (`loose`: zod's looseObject), dropped (`strip`: its plain
 * object), or refused (`strict`: its strictObject).
 */
export function object(shape: Record<string, Key>, unknownKeys: 'loose' | 'strip' | 'strict'): Field {
  return (value) => {
    if (!isObject(value) || Object.hasOwn(value, '__proto__')) return INVALID;
    if (unknownKeys === 'strict' && Object.keys(value).some((name) => !Object.hasOwn(shape, name))) return INVALID;
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
    if (unknownKeys === 'loose')
      for (const name of Object.keys(value)) if (!Object.hasOwn(shape, name)) out[name] = value[name];
    return out;
  };
}
