import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordPaths, type RecordPaths } from '../../../src/files/record-paths.js';
import { readRunState, storedTaskList, takeResolvedBlock, updateRunState } from '../../../src/files/run-state.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function records(): Promise<RecordPaths> {
  const gitDir = await mkdtemp(join(tmpdir(), 'ralph-run-state-'));
  made.push(gitDir);
  return recordPaths(join(gitDir, 'ralph'));
}

describe('the run state, in the records', () => {
  it('starts fresh, and keeps what its one writer changed, per task list', async () => {
    const where = await records();
    expect(await readRunState(where, 'a')).toMatchObject({ taskList: 'a', runs: 0, resumeAttempts: 0 });
    await updateRunState(where, 'a', (state) => ({ ...state, runs: 2, resolvedBlock: { reason: 'r', answer: 'x' } }));
    expect(JSON.parse(await readFile(where.state, 'utf8'))).toMatchObject({ taskList: 'a', runs: 2 });
    expect(await storedTaskList(where)).toBe('a');
    expect(await readRunState(where, 'b')).toMatchObject({ taskList: 'b', runs: 0 });
    expect(await takeResolvedBlock(where, 'a')).toEqual({ reason: 'r', answer: 'x' });
    expect(await takeResolvedBlock(where, 'a')).toBeUndefined();
  });

  it('refuses to write through a link in its place, naming the file (io)', async () => {
    const where = await records();
    await mkdir(where.dir);
    await symlink('/tmp/elsewhere.json', where.state);
    await expect(updateRunState(where, 'a', (state) => state)).rejects.toMatchObject({ kind: 'io' });
  });
});
