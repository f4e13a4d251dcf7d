import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findUserManager, inScope, leftoverScopes, scopeUnit, systemsOwn } from '../../../src/process/systemd-scope.js';

const UNIFIED = '29 23 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate';
const MANAGER = '/user.slice/user-1000.slice/user@1000.service';

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A folder with a fake `systemd-run` whose body is `script` (its arguments in "$@"). */
async function fakeSystemdRun(script: string): Promise<string> {
  const dir = await tempDir('ralph-systemd-run-');
  await writeFile(join(dir, 'systemd-run'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return dir;
}

describe('findUserManager', () => {
  it('finds the slice from the cgroup its probe scope got, asking with the flags the scopes use', async () => {
    const dir = await fakeSystemdRun(
      [
        '[ "$1 $2 $3 $4 $5" = "--user --scope --collect --quiet --slice=app.slice" ] || exit 2',
        `unit=\${6#--unit=}; echo "1:name=systemd:/"; echo "0::${MANAGER}/app.slice/$unit"`,
      ].join('\n'),
    );
    expect(findUserManager({ PATH: dir }, UNIFIED)).toEqual({
      systemdRun: join(dir, 'systemd-run'),
      sliceDir: `/sys/fs/cgroup${MANAGER}/app.slice`,
    });
  });

  it('says nothing more than "no systemd-run" where there is none', () => {
    expect(findUserManager({ PATH: '/nonexistent' }, UNIFIED)).toEqual({
      why: 'no systemd-run of the system on PATH',
      quiet: true,
    });
  });

  it("takes only a systemd-run the agent cannot have put there: root's, in a folder only root writes", async () => {
    const dir = await fakeSystemdRun('exit 0');
    expect(systemsOwn('systemd-run', dir)).toBe(join(dir, 'systemd-run'));
    // A relative PATH entry (node_modules/.bin, .) names a folder in the repository.
    expect(systemsOwn('systemd-run', relative(process.cwd(), dir))).toBeUndefined();
    await chmod(dir, 0o777);
    expect(systemsOwn('systemd-run', dir)).toBeUndefined();
    await chmod(dir, 0o755);
    await chown(join(dir, 'systemd-run'), 1000, 1000);
    expect(systemsOwn('systemd-run', dir)).toBeUndefined();
    await chown(join(dir, 'systemd-run'), 0, 0);
    await chmod(join(dir, 'systemd-run'), 0o775);
    expect(systemsOwn('systemd-run', dir)).toBeUndefined();
  });

  it("names systemd-run's own first line when the manager refuses or is absent", async () => {
    const dir = await fakeSystemdRun('echo "Failed to connect to bus: No medium found" >&2; exit 1');
    expect(findUserManager({ PATH: dir }, UNIFIED)).toEqual({
      why: 'no systemd user manager gives ralph a scope (systemd-run: Failed to connect to bus: No medium found)',
    });
  });

  it('takes a scope in another slice as none: its cgroup would not be where ralph looks', async () => {
    const dir = await fakeSystemdRun(`echo "0::${MANAGER}/session.slice/\${6#--unit=}"`);
    expect(findUserManager({ PATH: dir }, UNIFIED)).toMatchObject({ why: expect.stringMatching(/^no systemd user/) });
  });

  it('gives up on a manager that does not answer in 3 s, and leaves no probe behind', async () => {
    const dir = await fakeSystemdRun(`echo $$ > "${'$0'}.pid"; exec /bin/sleep 30`);
    // The answer names the 3 s limit: the probe was given up, not waited out (its sleep lasts 30 s,
    // past this test's guard). How long giving up took is the machine's business, not asserted.
    const found = findUserManager({ PATH: dir }, UNIFIED);
    expect(found).toEqual({ why: 'no systemd user manager gives ralph a scope (systemd-run: no answer in 3 s)' });
    const pid = Number(readFileSync(join(dir, 'systemd-run.pid'), 'utf8'));
    // Killed and reaped: its pid is gone from /proc.
    expect(existsSync(`/proc/${pid}`)).toBe(false);
  }, 20_000);
});

describe('scope units', () => {
  it('names the unit for the repository, the run and the scope, in the characters a unit name allows', () => {
    expect(scopeUnit('0a1b', 'c2d3', 'gate-7-unit tests/ü')).toBe('ralph-0a1b-c2d3-gate-7-unit_tests__.scope');
  });

  it('starts the command through systemd-run, in place', () => {
    const manager = { systemdRun: '/usr/bin/systemd-run', sliceDir: '/sys/fs/cgroup/app.slice' };
    expect(inScope(manager, 'ralph-a-b-agent-1.scope', '/bin/sh', ['-c', 'x'])).toEqual({
      file: '/usr/bin/systemd-run',
      args: [
        '--user',
        '--scope',
        '--collect',
        '--quiet',
        '--slice=app.slice',
        '--unit=ralph-a-b-agent-1.scope',
        '--',
        '/bin/sh',
        '-c',
        'x',
      ],
    });
  });

  it("finds an earlier run's scopes of this repository only", async () => {
    const sliceDir = await tempDir('ralph-slice-');
    const names = ['ralph-aaa-old-agent-1.scope', 'ralph-aaa-now-agent-2.scope', 'ralph-bbb-old-agent-1.scope'];
    for (const name of [...names, 'ralph-probe-123.scope', 'other.scope']) await mkdir(join(sliceDir, name));
    expect(leftoverScopes({ systemdRun: 'x', sliceDir }, 'aaa', 'now')).toEqual([
      join(sliceDir, 'ralph-aaa-old-agent-1.scope'),
    ]);
  });
});
