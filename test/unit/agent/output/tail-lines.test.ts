import { describe, expect, it } from 'vitest';
import { TailLines } from '../../../../src/agent/output/tail-lines.js';

function tail(pieces: (string | Buffer)[], keep = 3, maxLineLength = 10): string[] {
  const lines = new TailLines(keep, maxLineLength);
  for (const piece of pieces) lines.push(Buffer.isBuffer(piece) ? piece : Buffer.from(piece));
  return lines.result();
}

describe('TailLines', () => {
  it('keeps the last lines, the unfinished one included', () => {
    expect(tail(['one\ntwo\nthree\nfour\nfi', 've'])).toEqual(['three', 'four', 'five']);
  });

  it('joins a line split across chunks', () => {
    expect(tail(['al', 'pha\nbe', 'ta\n'])).toEqual(['alpha', 'beta']);
  });

  it('skips blank lines', () => {
    expect(tail(['a\n\n  \nb\n\n'])).toEqual(['a', 'b']);
  });

  it('looks only at the last lines of a big chunk', () => {
    const many = Array.from({ length: 10_000 }, (_, index) => `line ${index}`).join('\n');
    expect(tail([`${many}\n`])).toEqual(['line 9997', 'line 9998', 'line 9999']);
  });

  it('drops the carried line when a chunk brings more lines than are kept', () => {
    expect(tail(['carried', ' on\n1\n2\n3\n4\n'])).toEqual(['2', '3', '4']);
    expect(tail(['carried', ' on\n1\n2\n'])).toEqual(['carried on', '1', '2']);
  });

  it('cuts long lines at the start, marking the cut, without holding the rest', () => {
    const lines = new TailLines(3, 10);
    lines.push(Buffer.from('0123456789abcdef'));
    for (let index = 0; index < 1000; index++) lines.push(Buffer.from('x'.repeat(1000)));
    expect((lines as unknown as { partialBytes: number }).partialBytes).toBeLessThanOrEqual(40);
    lines.push(Buffer.from('\nshort\n0123456789abc\n'));
    expect(lines.result()).toEqual(['0123456789…', 'short', '0123456789…']);
  });

  it('skips blank lines longer than the limit instead of keeping their cut start', () => {
    const spaces = (count: number) => ' '.repeat(count);
    expect(tail([`error: real cause\n${spaces(600)}\n${spaces(800)}\r\n`, spaces(501)], 3, 500)).toEqual([
      'error: real cause',
    ]);
  });

  it('decodes characters split between chunks', () => {
    const bytes = Buffer.from('grüße\n');
    const split = bytes.indexOf(0xbc); // inside "ü"
    expect(tail([bytes.subarray(0, split), bytes.subarray(split)])).toEqual(['grüße']);
  });
});
