import { describe, expect, it } from 'vitest';
import { quoteLines } from '../../../src/domain/quote-lines.js';

// CommonMark: a blank line ends a block quote, so each line, blank or not, needs its own `>`.
describe('quoteLines', () => {
  it('quotes one line', () => {
    expect(quoteLines('the tests need a database')).toBe('> the tests need a database');
  });

  it('quotes every line, so a blank line inside the text does not end the quote', () => {
    const quoted = quoteLines('Which database?\n\nPostgres or SQLite.');
    expect(quoted).toBe('> Which database?\n> \n> Postgres or SQLite.');
    expect(quoted.split('\n').every((line) => line.startsWith('>'))).toBe(true);
  });

  it('keeps a line that starts like Markdown inside the quote', () => {
    expect(quoteLines('# not a heading\n- not a list')).toBe('> # not a heading\n> - not a list');
  });
});
