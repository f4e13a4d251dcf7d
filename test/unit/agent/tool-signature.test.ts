import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, signatureOfCanonical } from '../../../src/agent/tool-signature.js';

const toolSignature = (name: string, input: unknown) => signatureOfCanonical(name, canonicalJson(input));

describe('canonicalJson', () => {
  it.each([
    ['null', null, 'null'],
    ['true', true, 'true'],
    ['a number', 42.5, '42.5'],
    ['negative zero', -0, '0'],
    ['a string with quotes and newlines', 'a "b"\nc', '"a \\"b\\"\\nc"'],
    ['an empty object', {}, '{}'],
    ['an empty array', [], '[]'],
    ['keys sorted', { b: 1, a: 2, c: 3 }, '{"a":2,"b":1,"c":3}'],
    [
      'keys sorted at every depth',
      { z: { y: 1, x: [{ d: 1, c: 2 }] }, a: 0 },
      '{"a":0,"z":{"x":[{"c":2,"d":1}],"y":1}}',
    ],
    ['arrays kept in order', [3, 1, 2], '[3,1,2]'],
    ['integer-like keys sorted as text, not as numbers', { b: 1, '10': 2, '2': 3 }, '{"10":2,"2":3,"b":1}'],
    ['keys that need escaping', { 'a"b': 1, é: 2 }, '{"a\\"b":1,"é":2}'],
    [
      'undefined members dropped, undefined elements null',
      { a: undefined, b: [undefined, () => 1] },
      '{"b":[null,null]}',
    ],
    ['non-finite numbers as null', [Number.NaN, Number.POSITIVE_INFINITY], '[null,null]'],
    ['a Date through toJSON', { at: new Date(Date.UTC(2025, 0, 2)) }, '{"at":"2025-01-02T00:00:00.000Z"}'],
    ['a bigint as a number', { n: 12345678901234567890n }, '{"n":12345678901234567890}'],
    ['undefined at the top', undefined, 'null'],
  ])('writes %s', (_name, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('agrees with JSON.stringify on values whose keys are already sorted', () => {
    const value = { a: [1, 'two', null, { b: false, c: { d: 'e' } }], f: 1.5e-7, g: '\u2028\ud83d\ude00' };
    expect(canonicalJson(value)).toBe(JSON.stringify(value));
  });

  it('is the same whatever order the keys arrived in', () => {
    const one = JSON.parse('{"command":"npm test","options":{"cwd":"/x","env":{"B":"2","A":"1"}},"timeout":60}');
    const two = JSON.parse('{"timeout":60,"options":{"env":{"A":"1","B":"2"},"cwd":"/x"},"command":"npm test"}');
    expect(canonicalJson(one)).toBe(canonicalJson(two));
  });

  it('writes nesting far deeper than the call stack', () => {
    const depth = 200_000;
    const value = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    const text = canonicalJson(value);
    expect(text.length).toBe(2 * depth);
    expect(text.startsWith('[[[')).toBe(true);
  });

  it('writes a shared child twice but a cycle as "[Circular]"', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(canonicalJson(cyclic)).toBe('{"name":"loop","self":"[Circular]"}');
  });

  it('round-trips through JSON.parse', () => {
    const value = { z: [1, { y: 'a', x: null }], a: { c: true, b: -3 } };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });
});

describe('signatureOfCanonical', () => {
  it('is the call itself when short, and a hash of it when long', () => {
    expect(toolSignature('Bash', { command: 'ls' })).toBe('"Bash"{"command":"ls"}');
    expect(toolSignature('Write', { content: 'x'.repeat(10_000) })).toMatch(/^#[0-9a-f]{16}$/);
  });

  it('never changes with key order, at any depth', () => {
    const one = { file_path: 'src/x.ts', edits: [{ old_string: 'a', new_string: 'b' }], meta: { z: 1, a: 2 } };
    const two = { meta: { a: 2, z: 1 }, edits: [{ new_string: 'b', old_string: 'a' }], file_path: 'src/x.ts' };
    expect(toolSignature('Edit', one)).toBe(toolSignature('Edit', two));
  });

  it.each([
    ['another tool name', ['Bash', { command: 'ls' }], ['Read', { command: 'ls' }]],
    ['another input', ['Bash', { command: 'ls' }], ['Bash', { command: 'ls -a' }]],
    ['array order', ['Bash', { args: [1, 2] }], ['Bash', { args: [2, 1] }]],
    ['a number against its string', ['Bash', { n: 1 }], ['Bash', { n: '1' }]],
    ['the name running into the input', ['ab', 'c'], ['a', 'bc']],
  ] as const)('differs for %s', (_name, [nameA, inputA], [nameB, inputB]) => {
    expect(toolSignature(nameA, inputA)).not.toBe(toolSignature(nameB, inputB));
  });

  it('hashes a long call with the first 16 hex characters of sha256 over the quoted name and the canonical input', () => {
    const input = { command: `echo ${'a'.repeat(300)}` };
    expect(toolSignature('Bash', input)).toBe(
      `#${createHash('sha256')
        .update(`"Bash"${JSON.stringify(input)}`)
        .digest('hex')
        .slice(0, 16)}`,
    );
    // Stable across runs and machines.
    expect(toolSignature('Bash', input)).toBe('#be5ecfb9505a5835');
  });
});
