import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ralphPaths } from '../../../src/files/paths.js';
import { withRecords, type RunPaths } from '../../../src/files/record-paths.js';
import { readStatus } from '../../../src/status/read-status.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function repository(): Promise<{ paths: RunPaths; secret: string }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ralph-read-status-')));
  const home = await realpath(await mkdtemp(join(tmpdir(), 'ralph-home-')));
  made.push(root, home);
  execFileSync('git', ['init', '-q', root]);
  await mkdir(join(root, 'ralph'));
  const secret = join(home, 'id_rsa');
  await writeFile(secret, 'PRIVATE KEY SECRET123\n');
  return { paths: withRecords(ralphPaths(root), join(root, '.git/ralph')), secret };
}

const options = { now: 0, rows: 5, policy: { review: false } };

describe('ralph status reads the signal files outside the agent’s box', () => {
  it.each(['blocked', 'decide'] as const)('refuses a link planted as %s, never showing its target', async (file) => {
    const { paths, secret } = await repository();
    await symlink(secret, paths[file]);
    await expect(readStatus(paths, options)).rejects.toMatchObject({
      kind: 'io',
      message: expect.stringContaining('is a symbolic link'),
    });
  });

  it('shows a regular blocked.txt as before', async () => {
    const { paths } = await repository();
    await writeFile(paths.blocked, '## Blocked (from iteration 1)\nneeds a key\n');
    expect((await readStatus(paths, options)).blocked).toEqual({ reason: 'needs a key' });
  });
});
