import { describe, expect, it } from 'vitest';
import { parseJson, withLineAndColumn } from '../../../src/files/json-text.js';

describe('parseJson', () => {
  it('accepts a UTF-8 byte-order mark, as Windows editors write it', () => {
    expect(parseJson('\uFEFF{ "a": 1 }')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('says why text is not JSON, in one line', () => {
    const parsed = parseJson('{ "a": ');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).not.toContain('\n');
  });

  it('says where the text broke by line and column, as an editor shows it', () => {
    const parsed = parseJson('{\n  "a": 1,\n}');
    expect(parsed).toEqual({
      ok: false,
      error: expect.stringMatching(/ at position 12 \(line 3 column 1\)$/),
    });
  });

  it('counts from after a byte-order mark, which an editor does not show', () => {
    const parsed = parseJson('\uFEFF{\n  x\n}');
    expect(parsed).toEqual({ ok: false, error: expect.stringMatching(/\(line 2 column 3\)$/) });
  });

  it('never quotes the text itself: a file linked to a secret is not copied into the error', () => {
    for (const secret of ['root:*:20200:0:99999:7:::', `sk-${'a1'.repeat(30)}`, 'ab', 'x\ny'])
      expect(parseJson(secret)).toEqual({ ok: false, error: `Unexpected token '${secret[0]}' (line 1 column 1)` });
  });

  it('quotes nothing from further into the text either, where V8 starts its quote with "..."', () => {
    const secret = `sk-${'a1'.repeat(30)}`;
    const parsed = parseJson(`{\n  "key": "${secret}",\n  "stories": [\n    { "passes": false },\n  ]\n}\n`);
    expect(parsed).toEqual({ ok: false, error: "Unexpected token ']' (line 5 column 3)" });
  });

  it('says where a trailing comma broke the text, in one line', () => {
    const text = '{\n  "stories": [\n    { "id": "US-1", "passes": false },\n  ],\n  "project": "x"\n}\n';
    expect(parseJson(text)).toEqual({ ok: false, error: "Unexpected token ']' (line 4 column 3)" });
    expect(parseJson('{ "a": 1, }')).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^Expected double-quoted property name in JSON at position 10 \(line 1 column 11\)$/,
      ),
    });
  });

  it('gives a huge file’s unexpected token without its place: the search parses the text some twenty times', () => {
    const huge = `{"stories": [${'{"id": "US-1"},'.repeat(80_000)}]}`;
    expect(huge.length).toBeGreaterThan(1024 * 1024);
    expect(parseJson(huge)).toEqual({ ok: false, error: "Unexpected token ']'" });
  });

  it('adds nothing to a message without a position', () => {
    expect(parseJson('{ "a": ')).toEqual({ ok: false, error: expect.not.stringMatching(/\(line/) });
  });

  it('leaves a message that already says the line alone, as Node 22 writes it', () => {
    const node22 = 'Expected double-quoted property name in JSON at position 12 (line 3 column 1)';
    expect(withLineAndColumn(node22, '{\n  "a": 1,\n}')).toBe(node22);
  });
});
