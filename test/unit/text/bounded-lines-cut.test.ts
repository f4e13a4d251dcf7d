import { describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../../src/agent/output/stream-json-output.js';
import { BoundedLines } from '../../../src/text/bounded-lines.js';

/** The agent's event stream as stream-json-output.ts splits it: a cut line is skipped, its size told. */
function split(chunks: Buffer[]) {
  const lines: string[] = [];
  const oversized: number[] = [];
  const splitter = new BoundedLines(
    MAX_LINE_BYTES,
    (line, cut) => {
      if (!cut) lines.push(line);
    },
    (bytes) => oversized.push(bytes),
  );
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, oversized };
}

describe('BoundedLines, as the agent event stream uses it', () => {
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

  it('tells the size of a cut last line that has no newline', () => {
    const sizes: number[] = [];
    const small = new BoundedLines(
      4,
      () => undefined,
      (bytes) => sizes.push(bytes),
    );
    small.push('abcdef');
    small.push(Buffer.from('gh'));
    small.end();
    expect(sizes).toEqual([8]);
  });
});
