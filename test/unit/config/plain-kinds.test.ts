import { describe, expect, it } from 'vitest';
import { RUN_OPTIONS, type OptionDef } from '../../../src/config/run-options.js';
import { parseRepeated, parseText, type ValueKind } from '../../../src/config/value-kinds.js';

/** What parseText said before the plain checks: the schema alone. */
function bySchemaAlone(kind: ValueKind<unknown>, raw: string) {
  const result = kind.schema.safeParse(kind.fromText(raw));
  if (result.success) return { ok: true, value: result.data };
  const custom = result.error.issues.find((issue) => issue.code === 'custom');
  return { ok: false, error: custom?.message ?? `expected ${kind.expected}, got '${raw}'` };
}

const TEXTS = [
  ...['', ' ', '0', '1', '2', ' 7 ', '10', '-1', '1.5', '0.5', '90', '92.5', '100', '101', '90%', '1e3', 'ten'],
  ...['9007199254740991', '9007199254740993', '9'.repeat(400), 'true', 'FALSE', 'yes', 'off', 'maybe'],
  ...['45s', '90m', '2h', '1h30m', '0s', '90', '1h 30m', '-5m', '99999999h', 'claude', ' codex ', 'gpt'],
  ...['stream-json', 'text', 'wait', 'stop', 'complete', 'commit', 'my-box', 'box.1', '../x', '.hidden'],
  ...['desktop', 'https://hooks.example/T0/secret', 'http://localhost:8080/x', 'http://evil.example/x'],
  ...['cmd:notify-send ralph', 'cmd:', "cmd:echo 'open", 'ftp://x', 'desktop,https://h.example', 'desktop,,'],
  ...['ended', 'ended,blocked', 'blocked, decide ,stuck_warning', 'ended,nope', ',', 'ralph/tasks.json'],
];

const JSON_VALUES: unknown[] = [
  ...[0, 1, 2, -1, -0, 1.5, 0.5, 90, 100, 100.5, 1e300, 2 ** 53, 2 ** 53 - 1, Number.NaN, Infinity],
  ...[true, false, null, '', 'x', '90m', 'bogus', 'claude', 'text', 'wait', 'my-box', '../x', 'desktop'],
  ...[[], ['desktop'], ['desktop', 'cmd:x'], ['http://evil.example/s'], [1], ['ended'], ['ended', 'x'], {}],
  // A hole is no string: `every` would skip it, the schema does not.
  [, 'desktop'],
];

const KINDS = Object.entries(RUN_OPTIONS) as [string, OptionDef<unknown>][];

describe('the value kinds read without zod', () => {
  it.each(KINDS)('%s: the plain check keeps exactly what the schema keeps, and nothing else', (_, def) => {
    for (const value of JSON_VALUES) {
      const plain = def.kind.plain(value);
      const schema = def.kind.schema.safeParse(value);
      // Each kind is read whole by hand: no value it accepts is left to the schema.
      expect(plain !== undefined, JSON.stringify(value)).toBe(schema.success);
      if (schema.success) expect(JSON.stringify(plain)).toBe(JSON.stringify(schema.data));
    }
  });

  it.each(KINDS)('%s: a flag or variable gives the same value or the same error as the schema alone', (_, def) => {
    for (const raw of TEXTS) expect(parseText(def.kind, raw), raw).toEqual(bySchemaAlone(def.kind, raw));
  });

  it('a repeated --notify gives the same value or the same error as the schema alone', () => {
    const kind = RUN_OPTIONS.notify.kind as ValueKind<unknown>;
    for (const raw of TEXTS) {
      const alone = kind.schema.safeParse([raw]);
      const parsed = parseRepeated(kind, raw, ['desktop']);
      if (alone.success) expect(parsed).toEqual({ ok: true, value: ['desktop', raw] });
      else expect(parsed).toEqual({ ok: false, error: alone.error.issues[0]!.message });
    }
  });
});
