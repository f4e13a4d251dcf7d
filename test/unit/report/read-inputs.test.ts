import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ralphPaths } from '../../../src/files/paths.js';
import { withRecords, type RunPaths } from '../../../src/files/record-paths.js';
import { readReportInputs } from '../../../src/report/read-inputs.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A repository with ralph/ and a secret outside it (~/.ssh/id_rsa, hidden from the agent's box). */
async function repository(): Promise<{ paths: RunPaths; secret: string }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ralph-report-inputs-')));
  const home = await realpath(await mkdtemp(join(tmpdir(), 'ralph-home-')));
  made.push(root, home);
  execFileSync('git', ['init', '-q', root]);
  await mkdir(join(root, 'ralph/logs'), { recursive: true });
  await writeFile(join(root, 'ralph/tasks.json'), '{"stories":[{"id":"US-1","title":"one","passes":false}]}');
  const secret = join(home, 'id_rsa');
  await writeFile(secret, 'PRIVATE KEY SECRET123\n');
  return { paths: withRecords(ralphPaths(root), join(root, '.git/ralph')), secret };
}

describe('the report’s inputs, read outside the agent’s box', () => {
  it.each(['blocked', 'decide', 'summaryCsv'] as const)(
    'refuses a link planted as %s, so the key never lands in the report',
    async (file) => {
      const { paths, secret } = await repository();
      await symlink(secret, paths[file]);
      await expect(readReportInputs(paths)).rejects.toMatchObject({
        kind: 'io',
        message: expect.stringContaining('is a symbolic link'),
      });
    },
  );

  it('refuses a task list that leads outside the repository', async () => {
    const { paths, secret } = await repository();
    await rm(paths.tasks);
    await symlink(secret, paths.tasks);
    await expect(readReportInputs(paths)).rejects.toMatchObject({
      kind: 'io',
      message: expect.stringContaining('leads outside the repository'),
    });
  });

  it('reads regular files as before', async () => {
    const { paths } = await repository();
    await writeFile(paths.blocked, '## Blocked (from iteration 1)\nneeds a key\n');
    expect(await readReportInputs(paths)).toMatchObject({ blocked: 'needs a key', decide: null, csv: '' });
  });
});
