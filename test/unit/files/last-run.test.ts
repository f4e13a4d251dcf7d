import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLastRun, recordedReplay, writeLastRun, writeLastRunNow } from '../../../src/files/last-run.js';
import { ralphPaths } from '../../../src/files/paths.js';
import { withRecords, type RunPaths } from '../../../src/files/record-paths.js';
import { buildRunReport, noProgress } from '../../../src/loop/run-report.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function workTree(): Promise<RunPaths> {
  const root = await mkdtemp(join(tmpdir(), 'ralph-last-run-'));
  made.push(root);
  await mkdir(join(root, '.git'));
  return withRecords(ralphPaths(root), join(root, '.git/ralph'));
}

const report = {
  ...buildRunReport({ reason: 'complete' }, noProgress(), {
    startedAt: 0,
    endedAt: 1000,
    durationMs: 1000,
    firstIteration: 1,
    maxIterations: 4,
    strayProcessesEnded: 0,
  }),
  runArgs: ['--max-iterations', '4'],
  replayMaxIterations: 4,
};

describe('last-run.json: ralph’s record and the published copy', () => {
  it('writes both the same, and reads back only the record', async () => {
    const paths = await workTree();
    expect(await writeLastRun(paths, report)).toBeUndefined();
    expect(await readFile(paths.records.lastRun, 'utf8')).toBe(await readFile(paths.lastRun, 'utf8'));
    await writeFile(paths.lastRun, JSON.stringify({ ...report, runArgs: ['--max-iterations', '500'] }));
    expect(await readLastRun(paths.records)).toMatchObject({ reason: 'complete', maxIterations: 4 });
    expect(await recordedReplay(paths.records)).toEqual({ runArgs: ['--max-iterations', '4'], replayMaxIterations: 4 });
  });

  it('reads no record where none was written, nor one that is no JSON object', async () => {
    const paths = await workTree();
    await writeLastRun(paths, report);
    await rm(paths.records.lastRun);
    expect(await readLastRun(paths.records)).toBeUndefined();
    expect(await recordedReplay(paths.records)).toBeUndefined();
    for (const text of ['[1]', 'null', '{', '{"runArgs":[1]}']) {
      await writeFile(paths.records.lastRun, text);
      expect(await recordedReplay(paths.records)).toBeUndefined();
    }
  });

  it('still publishes the copy when the record cannot be written, and says why', async () => {
    const paths = await workTree();
    await mkdir(paths.records.dir);
    await symlink('/etc/hostname', paths.records.lastRun);
    expect(await writeLastRun(paths, report)).toMatch(/last-run\.json is a symbolic link \(to \/etc\/hostname\)/);
    expect(JSON.parse(await readFile(paths.lastRun, 'utf8'))).toMatchObject({ reason: 'complete' });
  });

  it('writes both synchronously for a crash, never through a link', async () => {
    const paths = await workTree();
    writeLastRunNow(paths, report);
    expect(await readLastRun(paths.records)).toMatchObject({ reason: 'complete' });
    expect(JSON.parse(await readFile(paths.lastRun, 'utf8'))).toMatchObject({ reason: 'complete' });
  });
});
