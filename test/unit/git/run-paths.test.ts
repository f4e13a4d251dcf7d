import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pathExists } from '../../../src/files/missing-file.js';
import { runPaths } from '../../../src/git/run-paths.js';
import { realRepository } from './real-repository.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function olderRepository() {
  const repo = await realRepository('ralph-run-paths-');
  made.push(repo.root);
  await mkdir(join(repo.root, 'ralph'));
  await writeFile(join(repo.root, 'ralph/state.json'), '{"runs":1}\n');
  return repo;
}

describe('runPaths', () => {
  it('puts the records in the work tree’s git dir, beside its ralph/ files', async () => {
    const { root } = await olderRepository();
    const paths = await runPaths(root, { tasks: join(root, 'ralph/lists/api.json') });
    expect(paths.tasks).toBe(join(root, 'ralph/lists/api.json'));
    expect(paths.lastRun).toBe(join(root, 'ralph/logs/last-run.json'));
    expect(paths.records).toMatchObject({
      dir: join(root, '.git/ralph'),
      state: join(root, '.git/ralph/state.json'),
      lastRun: join(root, '.git/ralph/last-run.json'),
    });
  });

  it('moves an older run state when told where to say so, and only then', async () => {
    const { root } = await olderRepository();
    const said: string[] = [];
    const quiet = await runPaths(root);
    expect(await pathExists(quiet.records.state)).toBe(false);
    const paths = await runPaths(root, { say: (line) => said.push(line) });
    expect(said).toEqual([expect.stringMatching(/^ralph: moved ralph\/state\.json to \.git\/ralph\/state\.json: /)]);
    expect(await pathExists(paths.records.state)).toBe(true);
    await runPaths(root, { say: (line) => said.push(line) });
    expect(said).toHaveLength(1);
  });
});
