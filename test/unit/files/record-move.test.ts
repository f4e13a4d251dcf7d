import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ralphPaths } from '../../../src/files/paths.js';
import { moveOldRunState } from '../../../src/files/record-move.js';
import { withRecords, type RunPaths } from '../../../src/files/record-paths.js';
import { pathExists } from '../../../src/files/missing-file.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function olderRepository(state?: string): Promise<RunPaths> {
  const root = await mkdtemp(join(tmpdir(), 'ralph-record-move-'));
  made.push(root);
  await mkdir(join(root, '.git'));
  await mkdir(join(root, 'ralph'));
  if (state !== undefined) await writeFile(join(root, 'ralph/state.json'), state);
  return withRecords(ralphPaths(root), join(root, '.git/ralph'));
}

const OLD = '{"taskList":"e2e","runs":3}\n';

describe('moveOldRunState', () => {
  it('moves an older ralph’s state.json into the records, and says so in one line', async () => {
    const paths = await olderRepository(OLD);
    expect(await moveOldRunState(paths)).toBe(
      "ralph: moved ralph/state.json to .git/ralph/state.json: ralph's records now live in the git dir, where the agent's box cannot write them",
    );
    expect(await readFile(paths.records.state, 'utf8')).toBe(OLD);
    expect(await pathExists(join(paths.dir, 'state.json'))).toBe(false);
    expect(await moveOldRunState(paths)).toBeUndefined();
  });

  it('copies the older ralph’s last-run.json along, the published one staying where it is', async () => {
    const paths = await olderRepository(OLD);
    await mkdir(paths.logs);
    await writeFile(paths.lastRun, '{"reason":"decide","runArgs":[]}\n');
    expect(await moveOldRunState(paths)).toBe(
      "ralph: moved ralph/state.json to .git/ralph/state.json, and copied ralph/logs/last-run.json beside it: ralph's records now live in the git dir, where the agent's box cannot write them",
    );
    expect(await readFile(paths.records.lastRun, 'utf8')).toBe('{"reason":"decide","runArgs":[]}\n');
    expect(await pathExists(paths.lastRun)).toBe(true);
  });

  it('moves nothing when there is nothing to move', async () => {
    const paths = await olderRepository();
    expect(await moveOldRunState(paths)).toBeUndefined();
    expect(await pathExists(paths.records.dir)).toBe(false);
  });

  it('never takes a ralph/state.json written once the records hold one: it is left, unread', async () => {
    const paths = await olderRepository('{"forged":true}\n');
    await mkdir(paths.records.dir);
    await writeFile(paths.records.state, OLD);
    expect(await moveOldRunState(paths)).toBeUndefined();
    expect(await readFile(paths.records.state, 'utf8')).toBe(OLD);
    expect(await readFile(join(paths.dir, 'state.json'), 'utf8')).toBe('{"forged":true}\n');
  });

  it('leaves a link in its place where it is: it was put there, not written by ralph', async () => {
    const paths = await olderRepository();
    await symlink('/etc/hostname', join(paths.dir, 'state.json'));
    expect(await moveOldRunState(paths)).toBeUndefined();
    expect(await pathExists(paths.records.state)).toBe(false);
  });
});
