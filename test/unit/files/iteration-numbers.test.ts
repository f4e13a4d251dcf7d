import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextIterationNumber } from '../../../src/files/iteration-numbers.js';
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
    await appendSummaryRow(csv, { ...row, iteration: 11 });
    expect(await nextIterationNumber(logs, csv)).toBe(12);
  });

  it('is 1 when the logs folder does not exist yet', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'ralph-unit-')), 'missing');
    expect(await nextIterationNumber(dir, join(dir, 'summary.csv'))).toBe(1);
    await mkdir(dir);
  });
});
