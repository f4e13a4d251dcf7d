import { describe, expect, it } from 'vitest';
import { displayWidth, fitToWidth } from '../../../src/ui/display-width.js';

describe('displayWidth', () => {
  it.each([
    ['plain', 5],
    ['⋯ iteration 3 · review', 22],
    // Wide: CJK and emoji take two columns each, though 'é' written as e + combining accent takes one.
    ['日本語', 6],
    ['ok 👍', 5],
    ['e\u0301', 1],
    // A family emoji is one grapheme of several code points (and more UTF-16 units): two columns.
    ['👨‍👩‍👧', 2],
    ['', 0],
    // ASCII is a column a character only where it prints: a control character takes none.
    ['a\tb', 2],
    ['del\x7f', 3],
  ])('%j is %i columns', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe('fitToWidth', () => {
  it('leaves text that fits alone', () => {
    expect(fitToWidth('abc', 3)).toBe('abc');
  });

  it('cuts with an ellipsis inside the width', () => {
    expect(fitToWidth('abcdef', 4)).toBe('abc…');
    expect(displayWidth(fitToWidth('abcdef', 4))).toBe(4);
    expect(fitToWidth('abcdef', 1)).toBe('…');
    expect(fitToWidth('ab\tcdef', 4)).toBe('ab\tc…');
  });

  it('never splits a wide character or a grapheme, and never exceeds the width', () => {
    expect(fitToWidth('日本語テキスト', 6)).toBe('日本…');
    expect(fitToWidth('日本語テキスト', 5)).toBe('日本…');
    expect(fitToWidth('ab👨‍👩‍👧cd', 4)).toBe('ab…');
    for (let columns = 1; columns < 12; columns++)
      expect(displayWidth(fitToWidth('⋯ 日本 👍 long text', columns))).toBeLessThanOrEqual(columns);
  });
});
