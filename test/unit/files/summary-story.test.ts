import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendSummaryRow, SUMMARY_COLUMNS } from '../../../src/files/summary-csv.js';
import { recordPace } from '../../../src/files/pace-record.js';
import { recordPaths } from '../../../src/files/record-paths.js';
import { readRunState } from '../../../src/files/run-state.js';
import { readForecast } from '../../../src/status/read-forecast.js';

const row = {
  iteration: 1,
  mode: 'implement' as const,
  durationSeconds: 1,
  commitHash: '',
  storiesComplete: 0,
  storiesTotal: 1,
  stuckCount: 0,
  timestamp: 't',
  outcome: 'ok' as const,
  agentExitCode: 0,
  stats: { toolCalls: 0, invalidLines: 0 },
  agent: 'claude',
};

describe('summary.csv: the story column', () => {
  it('is the last column, after agent, holding the story ralph chose (on one line)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-unit-'));
    const csv = join(dir, 'summary.csv');
    expect(SUMMARY_COLUMNS.slice(-2)).toEqual(['agent', 'story']);
    await appendSummaryRow(dir, csv, { ...row, story: 'US-1' });
    await appendSummaryRow(dir, csv, { ...row, iteration: 2, story: 'US\n2,"x"' });
    await appendSummaryRow(dir, csv, { ...row, iteration: 3 });
    const lines = (await readFile(csv, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/,claude,US-1$/);
    expect(lines[2]).toMatch(/,claude,"US 2,""x"""$/);
    expect(lines[3]).toMatch(/,claude,$/);
  });

  it('keeps a file an older ralph began as wide as its header: no story cell is added to it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-unit-'));
    const csv = join(dir, 'summary.csv');
    const older = SUMMARY_COLUMNS.slice(0, -1).join(',');
    await writeFile(csv, `${older}\n`);
    await appendSummaryRow(dir, csv, { ...row, story: 'US-1' });
    const [, line] = (await readFile(csv, 'utf8')).trimEnd().split('\n');
    expect(line!.split(',')).toHaveLength(SUMMARY_COLUMNS.length - 1);
    expect(line).toMatch(/,claude$/);
  });
});

describe('the pace in the records', () => {
  it('sums every iteration into state.json, and the forecast reads it there', async () => {
    const records = recordPaths(join(await mkdtemp(join(tmpdir(), 'ralph-unit-')), 'ralph'));
    const sample = { counted: true, seconds: 60, costUsd: 0.5, firstOfRun: true, storiesBefore: 0, storiesAfter: 1 };
    await recordPace(records, 'list', sample);
    await recordPace(records, 'list', {
      ...sample,
      firstOfRun: false,
      storiesBefore: 1,
      storiesAfter: 2,
      costUsd: 1.5,
    });
    expect((await readRunState(records, 'list')).pace).toEqual({
      runs: 1,
      iterations: 2,
      seconds: 120,
      costUsd: 2,
      costIterations: 2,
      completed: 2,
    });
    const forecast = await readForecast(records, 'list', 3, 0);
    expect(forecast).toMatchObject({ state: 'measured', remaining: { iterations: 3, costUsd: 3, seconds: 180 } });
    // Another task list has a pace of its own: none yet.
    expect((await readForecast(records, 'another', 3, 0)).state).toBe('unmeasured');
  });

  it('reads a damaged or forged pace as no measure, never as an error', async () => {
    const records = recordPaths(join(await mkdtemp(join(tmpdir(), 'ralph-unit-')), 'ralph'));
    await recordPace(records, 'list', {
      counted: true,
      seconds: 1,
      firstOfRun: true,
      storiesBefore: 0,
      storiesAfter: 0,
    });
    const state = JSON.parse(await readFile(records.state, 'utf8')) as Record<string, unknown>;
    for (const pace of ['fast', { completed: 'NaN', iterations: -4 }, { completed: 2, iterations: 1e400 }]) {
      await writeFile(records.state, JSON.stringify({ ...state, pace }));
      expect((await readForecast(records, 'list', 2, 0)).state).toBe('unmeasured');
    }
    await writeFile(records.state, '{ not json');
    expect((await readForecast(records, 'list', 2, 0)).state).toBe('unmeasured');
  });
});
