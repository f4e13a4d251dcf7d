import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCsvEnds, splitCsvLine } from '../../../src/files/csv-tail.js';

async function csvFile(text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'ralph-csv-')), 'summary.csv');
  await writeFile(path, text);
  return path;
}

describe('splitCsvLine', () => {
  it.each([
    ['1,implement,3,,2', ['1', 'implement', '3', '', '2']],
    ['a,"b, c",d', ['a', 'b, c', 'd']],
    ['"say ""hi""",x', ['say "hi"', 'x']],
    ['a,b\r', ['a', 'b']],
    ['', ['']],
  ])('%j', (line, fields) => {
    expect(splitCsvLine(line)).toEqual(fields);
    // The first field alone is the same first field, however the rest is quoted.
    expect(splitCsvLine(line, 1)).toEqual(fields.slice(0, 1));
    expect(splitCsvLine(line, 2)).toEqual(fields.slice(0, 2));
  });
});

describe('readCsvEnds', () => {
  it('is undefined for a missing file', async () => {
    expect(await readCsvEnds(join(tmpdir(), 'no-such-dir-ralph', 'summary.csv'), 5)).toBeUndefined();
  });

  it('gives the header and no rows for a header-only file', async () => {
    expect(await readCsvEnds(await csvFile('a,b\n'), 5)).toEqual({ header: ['a', 'b'], rows: [], ignored: [] });
  });

  it('never mistakes the header for a row in a small file', async () => {
    expect(await readCsvEnds(await csvFile('a,b\n1,2\n3,4\n'), 5)).toEqual({
      header: ['a', 'b'],
      rows: [
        ['1', '2'],
        ['3', '4'],
      ],
      ignored: [],
    });
  });

  it('reads only the tail of a file larger than the window, dropping the cut-off line', async () => {
    const rows = Array.from({ length: 1000 }, (_, index) => `${index + 1},row-${index + 1}`);
    const path = await csvFile(`iteration,name\n${rows.join('\n')}\n`);
    const ends = await readCsvEnds(path, 3, 100);
    expect(ends).toEqual({
      header: ['iteration', 'name'],
      rows: [
        ['998', 'row-998'],
        ['999', 'row-999'],
        ['1000', 'row-1000'],
      ],
      ignored: [],
    });
    // A window that holds fewer whole lines than asked for gives what it holds, never a fragment.
    const narrow = await readCsvEnds(path, 50, 40);
    expect(narrow!.rows.every(([iteration, name]) => name === `row-${iteration}`)).toBe(true);
  });

  it('copes with a last line without a newline', async () => {
    expect((await readCsvEnds(await csvFile('a\n1\n2'), 1))!.rows).toEqual([['2']]);
  });

  it.each(['1e20', '99999999999999999999', '-3', '0', '2.5', ' 7', 'Infinity', ''])(
    'leaves out a record whose iteration is %j, so it numbers no later run',
    async (iteration) => {
      const ends = await readCsvEnds(await csvFile(`iteration,name\n4,ok\n${iteration},forged\n`), 1);
      expect(ends).toEqual({ header: ['iteration', 'name'], rows: [['4', 'ok']], ignored: [iteration] });
    },
  );

  it('keeps an iteration of 9 digits, the most ralph numbers', async () => {
    expect((await readCsvEnds(await csvFile('i\n999999999\n'), 1))!.rows).toEqual([['999999999']]);
  });
});
