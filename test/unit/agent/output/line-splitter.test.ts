import { describe, expect, it } from 'vitest';
import { LineSplitter, MAX_LINE_BYTES } from '../../../../src/agent/output/line-splitter.js';

function split(chunks: Buffer[]) {
  const lines: string[] = [];
  const oversized: number[] = [];
  const splitter = new LineSplitter(
    (line) => lines.push(line),
    (bytes) => oversized.push(bytes),
  );
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, oversized };
}

describe('LineSplitter', () => {
  it('joins lines split across chunks and keeps a last line without newline', () => {
    expect(split([Buffer.from('a\nb'), Buffer.from('c\n\nd')]).lines).toEqual(['a', 'bc', '', 'd']);
  });

  it('skips a line over the limit without buffering it, and goes on', () => {
    const big = Buffer.alloc(1024 * 1024, 120);
    const chunks = [
      Buffer.from('x'),
      ...Array.from({ length: MAX_LINE_BYTES / big.length + 1 }, () => big),
      Buffer.from('\nnext\n'),
    ];
    const { lines, oversized } = split(chunks);
    expect(lines).toEqual(['next']);
    expect(oversized).toEqual([MAX_LINE_BYTES + big.length + 1]);
  });
});
