import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/files/json-text.js';

describe('parseJson', () => {
  it('accepts a UTF-8 byte-order mark, as Windows editors write it', () => {
    expect(parseJson('\uFEFF{ "a": 1 }')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('says why text is not JSON, in one line', () => {
    const parsed = parseJson('{ "a": ');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).not.toContain('\n');
  });
});
