import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLineBatches, type LineRange } from '../../../src/gates/read-lines.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ralph-lines-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function linesOf(content: string | Buffer, range?: LineRange): Promise<string[]> {
  const path = join(dir, 'out.log');
  await writeFile(path, content);
  const lines: string[] = [];
  for await (const batch of readLineBatches(path, range)) lines.push(...batch);
  return lines;
}

describe('readLineBatches', () => {
  it('splits on line breaks and keeps a last line without one', async () => {
    expect(await linesOf('one\n\ntwo\nthree')).toEqual(['one', '', 'two', 'three']);
  });

  it('cuts a line longer than the limit and goes on with the next', async () => {
    expect(await linesOf(`${'x'.repeat(100)}\nnext\n`, { maxLength: 10 })).toEqual(['x'.repeat(10), 'next']);
  });

  it('cuts a line that spans many chunks', async () => {
    const lines = await linesOf(`${'y'.repeat(300_000)}\nafter`);
    expect(lines).toEqual(['y'.repeat(4096), 'after']);
  });

  it('keeps a character whose bytes straddle two chunks', async () => {
    // 64 KiB chunks: put a three-byte character across the first boundary.
    const text = `${'a'.repeat(64 * 1024 - 1)}€\nend`;
    const lines = await linesOf(text, { maxLength: 100_000 });
    expect(lines[0]?.endsWith('a€')).toBe(true);
    expect(lines[1]).toBe('end');
  });

  it('reads a byte range, dropping the partial line it starts in', async () => {
    const content = 'first line\nsecond line\nthird line\n';
    expect(await linesOf(content, { start: 3, skipPartialFirstLine: true })).toEqual(['second line', 'third line']);
    expect(await linesOf(content, { end: 15 })).toEqual(['first line', 'seco']);
  });
});
