import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { iterationNumber, nextIterationNumber } from '../../../src/files/iteration-numbers.js';
import { iterationFileName } from '../../../src/files/paths.js';
import { appendSummaryRow } from '../../../src/files/summary-csv.js';

describe('iteration numbering', () => {
  it('pads to three digits and widens past 999', () => {
    expect(iterationFileName(7, 'log')).toBe('iteration-007.log');
    expect(iterationFileName(1234, 'jsonl')).toBe('iteration-1234.jsonl');
  });

  it('continues after the highest log or CSV row', async () => {
    const logs = await mkdtemp(join(tmpdir(), 'ralph-unit-'));
    const csv = join(logs, 'summary.csv');
    expect(await nextIterationNumber(logs, csv)).toBe(1);
    await writeFile(join(logs, 'iteration-004.log'), '');
    expect(await nextIterationNumber(logs, csv)).toBe(5);
    const row = {
      mode: 'implement' as const,
      durationSeconds: 1,
      commitHash: '',
      storiesComplete: 0,
      storiesTotal: 1,
      stuckCount: 1,
      timestamp: 't',
      outcome: 'ok' as const,
      agentExitCode: 0,
      stats: { toolCalls: 0, invalidLines: 0 },
    };
    await appendSummaryRow(logs, csv, { ...row, iteration: 11 });
    expect(await nextIterationNumber(logs, csv)).toBe(12);
  });

  it('is 1 when the logs folder does not exist yet', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'ralph-unit-')), 'missing');
    expect(await nextIterationNumber(dir, join(dir, 'summary.csv'))).toBe(1);
    await mkdir(dir);
  });
});

describe('iteration numbers that are not sane', () => {
  it('ignores a log name or CSV field past nine digits, or not a number, with a warning for each', async () => {
    const logs = await mkdtemp(join(tmpdir(), 'ralph-unit-'));
    const csv = join(logs, 'summary.csv');
    await writeFile(join(logs, 'iteration-007.log'), '');
    await writeFile(join(logs, 'iteration-99999999999999999999.log'), '');
    await writeFile(join(logs, 'iteration-1000000000.jsonl'), '');
    await writeFile(csv, 'iteration,mode\n1e20,implement\n');
    const warnings: string[] = [];
    expect(await nextIterationNumber(logs, csv, (message) => warnings.push(message))).toBe(8);
    expect(warnings.sort()).toEqual([
      'ignored ralph/logs/iteration-1000000000.jsonl: is not an iteration number (a whole number up to 999999999)',
      'ignored ralph/logs/iteration-99999999999999999999.log: is not an iteration number (a whole number up to 999999999)',
      'ignored the last row of ralph/logs/summary.csv: its iteration "1e20" is not an iteration number (a whole number up to 999999999)',
    ]);
  });

  it('takes nine digits, leading zeros too, and refuses to count past the last one', async () => {
    expect(iterationNumber('000000000012')).toBe(12);
    expect(iterationNumber('999999999')).toBe(999_999_999);
    for (const bad of ['1000000000', '-1', '1.5', ' 3', '', '0x10']) expect(iterationNumber(bad)).toBeUndefined();
    const logs = await mkdtemp(join(tmpdir(), 'ralph-unit-'));
    await writeFile(join(logs, 'iteration-999999999.log'), '');
    await expect(nextIterationNumber(logs, join(logs, 'summary.csv'))).rejects.toMatchObject({ kind: 'io' });
  });
});
