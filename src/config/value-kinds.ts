import type { ZodMiniType } from 'zod/mini';
import { formatDurationSpec, parseDuration } from '../domain/duration.js';
import { loadZod, type ZodApi } from '../files/lazy-zod.js';

type Zod = ZodApi;

/**
 * How one kind of option value is read: `schema` checks a JSON value (from config.json),
 * `fromText` turns a flag or environment string into the JSON value it stands for, and
 * `expected` names the accepted form in every error message.
 */
export interface ValueKind<T> {
  /** Built the first time it is read, so that loading the options loads no zod. */
  readonly schema: ZodMiniType<T, unknown>;
  fromText: (text: string) => unknown;
  expected: string;
  /** How a resolved value reads back (durations as `1h30m`, not milliseconds). */
  format?(value: T): string;
}

/** A kind whose schema is built from zod when first read. */
export function lazyKind<T>(
  spec: Omit<ValueKind<T>, 'schema'> & { build: (zod: Zod) => ZodMiniType<T, unknown> },
): ValueKind<T> {
  const { build, ...kind } = spec;
  let schema: ZodMiniType<T, unknown> | undefined;
  return {
    ...kind,
    get schema() {
      return (schema ??= build(loadZod().z));
    },
  };
}

/** A whole number at least `min`. */
export function wholeNumber(min: number): ValueKind<number> {
  const expected = `a whole number ≥ ${min}`;
  return lazyKind({
    build: (zod) =>
      zod.int({ error: `expected ${expected}` }).check(zod.minimum(min, { error: `expected ${expected}` })),
    fromText: (text) => (/^\s*\d+\s*$/.test(text) ? Number(text) : text),
    expected,
  });
}

/** A number above zero (an amount of US dollars, say). */
export function positiveNumber(): ValueKind<number> {
  const expected = 'a number above 0';
  return lazyKind({
    build: (zod) =>
      zod.number({ error: `expected ${expected}` }).check(zod.positive({ error: `expected ${expected}` })),
    fromText: (text) => (/^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text),
    expected,
  });
}

/** A percentage from 1 to 100 (`90`, `92.5`): a share written as 0.9 is refused, not read as 0.9 %. */
export function percent(): ValueKind<number> {
  const expected = 'a percentage from 1 to 100 (90, not 0.9)';
  return lazyKind({
    build: (zod) =>
      zod
        .number({ error: `expected ${expected}` })
        .check(zod.minimum(1, { error: `expected ${expected}` }), zod.maximum(100, { error: `expected ${expected}` })),
    fromText: (text) => (/^\s*\d+(\.\d+)?\s*%?\s*$/.test(text) ? Number(text.replace('%', '')) : text),
    expected,
  });
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off', '']);

/** true or false; in the environment also 1/0, yes/no, on/off. */
export function boolean(): ValueKind<boolean> {
  return lazyKind({
    build: (zod) => zod.boolean({ error: 'expected true or false' }),
    fromText: (text) => {
      const word = text.trim().toLowerCase();
      return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : text;
    },
    expected: 'true or false (1 or 0)',
  });
}

/** One of a fixed set of words. */
export function choice<const T extends readonly [string, ...string[]]>(values: T): ValueKind<T[number]> {
  const expected = `one of ${values.join(', ')}`;
  return lazyKind<T[number]>({
    build: (zod) => zod.enum(values, { error: `expected ${expected}` }),
    fromText: (text) => text.trim(),
    expected,
  });
}

/** A non-empty string (a path, a name). */
export function text(what = 'a non-empty string'): ValueKind<string> {
  return lazyKind({
    build: (zod) => zod.string({ error: `expected ${what}` }).check(zod.minLength(1, { error: `expected ${what}` })),
    fromText: (value) => value,
    expected: what,
  });
}

type TextParse<T> = { ok: true; value: T } | { ok: false; error: string };

/** The schema's verdict on a value; the error names the expected form. */
function bySchema<T>(kind: ValueKind<T>, input: unknown, raw: string): TextParse<T> {
  const result = kind.schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  // A custom check (a duration) already says what it got, and how to fix it.
  const custom = result.error.issues.find((issue) => issue.code === 'custom');
  return { ok: false, error: custom?.message ?? `expected ${kind.expected}, got '${raw}'` };
}

/** Checks a flag or environment string against a kind; the error names the expected form. */
export function parseText<T>(kind: ValueKind<T>, raw: string): TextParse<T> {
  return bySchema(kind, kind.fromText(raw), raw);
}

/** One more value of a repeatable flag (`--notify a --notify b`), taken whole: no comma splits it. */
export function parseRepeated<T>(kind: ValueKind<T>, raw: string, previous: unknown): TextParse<T> {
  const checked = bySchema(kind, [raw], raw);
  if (!checked.ok) return checked;
  const earlier = Array.isArray(previous) ? (previous as unknown[]) : [];
  return { ok: true, value: [...earlier, raw] as T };
}

/** A duration in the one grammar (`45s`, `90m`, `2h`, `1h30m`), resolved to milliseconds. */
export function duration(): ValueKind<number> {
  const expected = 'a duration like 45s, 90m, 2h or 1h30m';
  return lazyKind({
    build: (zod) =>
      zod.pipe(
        zod.string({ error: `expected ${expected}` }),
        zod.transform((value: string, context) => {
          const parsed = parseDuration(value);
          if (parsed.ok) return parsed.ms;
          context.issues.push({ code: 'custom', message: parsed.error, input: value });
          return zod.NEVER;
        }),
      ),
    fromText: (value) => value,
    expected,
    format: formatDurationSpec,
  });
}

/** A list of paths or names (`--box-write a --box-write b`; the environment separates them by commas). */
export function pathList(what = 'paths'): ValueKind<string[]> {
  const expected = `a list of ${what}`;
  return lazyKind({
    build: (zod) => zod.array(zod.string().check(zod.minLength(1)), { error: `expected ${expected}` }),
    fromText: (text) =>
      text
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    expected,
    format: (paths) => (paths.length === 0 ? 'none' : paths.join(', ')),
  });
}
