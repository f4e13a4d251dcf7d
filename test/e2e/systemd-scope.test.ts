import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyCgroup, findCgroupMount } from '../../src/process/cgroup.js';
import { cgroupHome, cgroupWritable } from '../helpers/cgroup.js';
import { isAlive, killOnceWritten, makeRepo, PACKAGE_ROOT, type Repo, runRalph, waitFor } from '../helpers/e2e.js';

/**
 * The `systemd scope` mode against a real systemd user manager. No desktop here, so the test makes
 * the part of one that matters, as root: a user, a cgroup delegated to it where its manager runs
 * (`/lib/systemd/systemd --user`, reached through its private socket), and ralph run as that user
 * from a cgroup below the delegated one that the user may not write — a login session's, as it is
 * on a desktop, where ralph cannot make a cgroup of its own and the manager must make the scopes.
 */

const USER = 'ralph-sdtest';
const MANAGER = '/lib/systemd/systemd';
const onPath = (name: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const mount = findCgroupMount();

const skip =
  process.getuid?.() !== 0
    ? 'a user manager is set up as root (run as root to test this mode)'
    : !existsSync(MANAGER) || !onPath('systemd-run')
      ? 'systemd is not installed (.ci/run installs it)'
      : !cgroupWritable || 'why' in mount || 'why' in cgroupHome
        ? 'no writable cgroup v2 here to delegate to a user manager'
        : !['useradd', 'userdel', 'setpriv', 'unshare'].every(onPath)
          ? 'useradd, setpriv or unshare is missing'
          : undefined;

describe('ralph run in systemd scope mode', () => {
  let uid = 0;
  let gid = 0;
  let madeUser = false;
  let delegated = '';
  let runtimeDir = '';
  let manager: ChildProcess | undefined;

  /** Folders above the built ralph the user could not pass (a clone under `mktemp -d`, 0700), and their modes. */
  const opened: [string, number][] = [];

  beforeAll(async () => {
    if (skip) return;
    // The user runs this checkout's ralph: every folder above it must let others pass, as /usr/lib does.
    for (let dir = PACKAGE_ROOT; dir !== dirname(dir); dir = dirname(dir)) {
      const { mode } = statSync(dir);
      if ((mode & 0o001) === 0) {
        opened.push([dir, mode & 0o7777]);
        chmodSync(dir, (mode & 0o7777) | 0o001);
      }
    }
    try {
      execFileSync('id', ['-u', USER], { stdio: 'ignore' });
    } catch {
      execFileSync('useradd', ['-m', '-s', '/bin/sh', USER]);
      madeUser = true;
    }
    uid = Number(execFileSync('id', ['-u', USER], { encoding: 'utf8' }));
    gid = Number(execFileSync('id', ['-g', USER], { encoding: 'utf8' }));
    // Delegated as systemd delegates user@.service: the directory and its files belong to the user.
    delegated = join((cgroupHome as { dir: string }).dir, `ralph-sdtest-${process.pid}`);
    mkdirSync(delegated);
    for (const name of ['', ...readdirSync(delegated)]) chownSync(join(delegated, name), uid, gid);
    // The "login session": under the delegated cgroup, but root's.
    mkdirSync(join(delegated, 'session'));
    runtimeDir = `/run/user/${uid}`;
    mkdirSync(runtimeDir, { recursive: true, mode: 0o700 });
    chownSync(runtimeDir, uid, gid);
    chmodSync(runtimeDir, 0o700);
    mkdirSync('/run/systemd', { recursive: true });
    const { point } = mount as { point: string };
    // In a mount namespace of its own, the manager finds what a systemd boot leaves: /run/systemd/system
    // (else it refuses to start), and the cgroup2 hierarchy at /sys/fs/cgroup (a unified one).
    const setup = [
      `echo $$ > "${delegated}/cgroup.procs"`,
      'mount -t tmpfs tmpfs /run/systemd && mkdir /run/systemd/system',
      point === '/sys/fs/cgroup' ? ':' : `mount --bind "${point}" /sys/fs/cgroup`,
      `exec setpriv --reuid=${uid} --regid=${gid} --init-groups env -i HOME=/home/${USER} USER=${USER} ` +
        `LOGNAME=${USER} XDG_RUNTIME_DIR=${runtimeDir} PATH=/usr/bin:/bin ${MANAGER} --user`,
    ].join(' && ');
    manager = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', setup], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let said = '';
    manager.stderr!.on('data', (chunk: Buffer) => (said = `${said}${chunk.toString()}`.slice(-4000)));
    await waitFor(() => existsSync(join(runtimeDir, 'systemd/private')), 15_000).catch(() => {
      throw new Error(`the user manager did not start: ${said || '(it said nothing)'}`);
    });
  }, 30_000);

  afterAll(async () => {
    if (skip) return;
    if (manager?.pid !== undefined && manager.exitCode === null) {
      manager.kill('SIGTERM');
      await waitFor(() => manager!.exitCode !== null || manager!.signalCode !== null, 10_000).catch(() => undefined);
    }
    if (delegated) await emptyCgroup(delegated, { graceMs: 0 });
    if (runtimeDir) rmSync(runtimeDir, { recursive: true, force: true });
    if (madeUser) execFileSync('userdel', ['-r', USER], { stdio: 'ignore' });
    for (const [dir, mode] of opened.reverse()) chmodSync(dir, mode);
  }, 30_000);

  /** ralph as the user, from the session cgroup, with the user's runtime dir (no D-Bus session bus). */
  const asUser = () => [
    'sh',
    '-c',
    `echo $$ > "${delegated}/session/cgroup.procs" && exec setpriv --reuid=${uid} --regid=${gid} --init-groups ` +
      `env HOME=/home/${USER} XDG_RUNTIME_DIR=${runtimeDir} "$@"`,
    'sh',
  ];

  const userRepo = async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    execFileSync('chown', ['-R', `${uid}:${gid}`, repo.root]);
    return repo;
  };

  /** One iteration, as the user, of an agent that runs `escape` (its daemon's pid into "$P"), then says so. */
  const runEscapingAgent = async (repo: Repo, escape: string[]) => {
    const agent = join(repo.root, 'escape-agent.sh');
    const pidFile = join(repo.root, 'escape.pids');
    await writeFile(agent, `${['#!/bin/sh', `P="${pidFile}"`, ...escape, 'echo escaped'].join('\n')}\n`, {
      mode: 0o755,
    });
    chownSync(agent, uid, gid);
    const args = ['run', '--allow-dirty', '--agent-bin', agent, '--output', 'text', '--max-iterations', '1'];
    const result = await runRalph(repo, args, { wrapper: asUser(), env: { DBUS_SESSION_BUS_ADDRESS: undefined } });
    expect(result.stdout).toContain('escaped');
    const [daemon] = readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number);
    return { result, daemon: daemon! };
  };

  it.skipIf(skip !== undefined)(
    `puts the agent in a transient scope and ends an env -i setsid daemon it left${skip ? ` — skipped: ${skip}` : ''}`,
    async () => {
      const repo = await userRepo();
      const env = { DBUS_SESSION_BUS_ADDRESS: undefined };
      const dry = await runRalph(repo, ['run', '--dry-run'], { wrapper: asUser(), env });
      expect(dry.stdout).toMatch(
        /ok +containment +systemd scope: cannot create a cgroup under \S+\/session: EACCES; each agent and gate in a transient scope/,
      );

      const { result, daemon } = await runEscapingAgent(repo, [
        'grep ^0:: /proc/self/cgroup',
        'env -i setsid sleep 300 >/dev/null 2>&1 & echo $! > "$P.tmp"; mv "$P.tmp" "$P"',
        'while [ "$(cat /proc/$(cat "$P")/comm 2>/dev/null)" != sleep ]; do :; done',
      ]);
      expect(result.stdout).toMatch(/^containment: systemd scope \(/m);
      expect(result.stdout).toMatch(/^0::\/\S+\/app\.slice\/ralph-[0-9a-f]+-[0-9a-f]+-\d+-agent-1\.scope$/m);
      expect(result.code).toBe(1);
      expect(repo.lastRun()).toMatchObject({ reason: 'max_iterations', containment: { mode: 'systemd scope' } });
      expect(isAlive(daemon)).toBe(false);
      expect(result.stdout).toMatch(/warning: ended 1 process that left the agent's group: \d+ sleep/);
      // The manager collects the emptied scope: nothing of ralph's is left under the slice.
      const slice = join(delegated, 'app.slice');
      await waitFor(() => !readdirSync(slice).some((name) => name.startsWith('ralph-')), 5_000);
    },
    60_000,
  );

  it.skipIf(skip !== undefined)(
    `ends a daemon the agent moved into a scope of its own with systemd-run, by its marker${skip ? ` — skipped: ${skip}` : ''}`,
    async () => {
      const repo = await userRepo();
      const { result, daemon } = await runEscapingAgent(repo, [
        'systemd-run --user --scope --quiet --collect --unit=escape-$$ -- setsid sleep 300 >/dev/null 2>&1 &',
        'echo $! > "$P.tmp"; mv "$P.tmp" "$P"',
        // In its scope, and `sleep` already: systemd-run joins the scope before it execs setsid, and
        // until setsid runs, the process is still in the agent's group, which ralph ends as such.
        'D=/proc/$(cat "$P")',
        'while ! { grep -q "escape-$$" $D/cgroup && [ "$(cat $D/comm)" = sleep ]; } 2>/dev/null; do :; done',
      ]);
      expect(isAlive(daemon)).toBe(false);
      expect(result.stdout).toMatch(/warning: ended 1 process that left the agent's group: \d+ sleep/);
    },
    60_000,
  );

  it.skipIf(skip !== undefined)(
    `ends what the agent and a gate left, each from its own scope${skip ? ` — skipped: ${skip}` : ''}`,
    async () => {
      const repo = await userRepo();
      const daemons = join(repo.root, '.git/daemons.pid');
      const gate = [
        'env -i setsid sleep 300 >/dev/null 2>&1 & echo $! > .git/gate.pid',
        'while [ "$(cat /proc/$(cat .git/gate.pid)/comm 2>/dev/null)" != sleep ]; do :; done',
        'grep ^0:: /proc/self/cgroup',
      ].join('; ');
      await writeFile(
        join(repo.root, 'ralph/config.json'),
        JSON.stringify({ gates: [{ name: 'tests', command: gate }] }),
      );
      await repo.steps([{ daemons, implement: true, completeWhenDone: true }]);
      execFileSync('chown', ['-R', `${uid}:${gid}`, repo.root]);
      const result = await runRalph(repo, ['run'], { wrapper: asUser(), env: { DBUS_SESSION_BUS_ADDRESS: undefined } });

      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/warning: ended 2 processes that left the agent's group/);
      const gateLog = repo.read('ralph/logs/gates-001-tests.log');
      expect(gateLog).toMatch(/app\.slice\/ralph-[0-9a-f]+-[0-9a-f]+-\d+-gate-\S+\.scope/);
      expect(gateLog).toMatch(/\[ralph\] ended 1 process that left the gate's group: \d+ sleep/);
      expect(repo.lastRun()).toMatchObject({ containment: { mode: 'systemd scope' }, strayProcessesEnded: 3 });
      const pids = [...repo.read('.git/daemons.pid').split('\n'), repo.read('.git/gate.pid')].filter((line) =>
        line.trim(),
      );
      expect(pids).toHaveLength(3);
      expect(pids.map(Number).filter(isAlive)).toEqual([]);
    },
    60_000,
  );

  it.skipIf(skip !== undefined)(
    `the next run ends what a killed run left in its scopes${skip ? ` — skipped: ${skip}` : ''}`,
    async () => {
      const repo = await userRepo();
      const agent = join(repo.root, 'crash-agent.sh');
      const pidFile = join(repo.root, '.git/escape.pids');
      await writeFile(
        agent,
        `#!/bin/sh\nenv -i setsid sleep 300 >/dev/null 2>&1 & echo $! > "${pidFile}"\nexec sleep 300\n`,
        {
          mode: 0o755,
        },
      );
      chownSync(agent, uid, gid);
      const args = ['run', '--allow-dirty', '--agent-bin', agent, '--output', 'text', '--max-iterations', '1'];
      const env = { DBUS_SESSION_BUS_ADDRESS: undefined };
      const first = await runRalph(repo, args, {
        wrapper: asUser(),
        env,
        onStart: killOnceWritten(pidFile),
      });
      expect(first.code).toBe(null);
      const daemon = Number(readFileSync(pidFile, 'utf8'));
      expect(isAlive(daemon)).toBe(true);
      const slice = join(delegated, 'app.slice');
      expect(readdirSync(slice).filter((name) => name.startsWith('ralph-'))).toHaveLength(1);

      await writeFile(agent, '#!/bin/sh\necho done\n', { mode: 0o755 });
      const second = await runRalph(repo, args, { wrapper: asUser(), env });
      expect(second.code).toBe(1);
      expect(isAlive(daemon)).toBe(false);
      expect(second.stdout).toMatch(/warning: .*ended \d+ process(es)? .*\d+ sleep/);
      await waitFor(() => !readdirSync(slice).some((name) => name.startsWith('ralph-')), 5_000);
    },
    60_000,
  );

  it.skipIf(skip !== undefined)(
    `ralph run in a delegated scope of its own gets the cgroup mode (docs/run.md)${skip ? ` — skipped: ${skip}` : ''}`,
    async () => {
      const repo = await userRepo();
      const wrapper = [...asUser(), 'systemd-run', '--user', '--scope', '--quiet', '-p', 'Delegate=yes', '--'];
      const env = { DBUS_SESSION_BUS_ADDRESS: undefined };
      const dry = await runRalph(repo, ['run', '--dry-run'], { wrapper, env });
      expect(dry.stdout).toMatch(
        /ok +containment +cgroup: each agent and gate in a cgroup of its own under \S+\.scope/,
      );

      const pidFile = join(repo.root, '.git/daemon.pid');
      const agent = join(repo.root, 'escape-agent.sh');
      const script = `#!/bin/sh\nenv -i setsid sleep 300 >/dev/null 2>&1 & echo $! > "${pidFile}"\nsleep 0.2\necho escaped\n`;
      await writeFile(agent, script, { mode: 0o755 });
      chownSync(agent, uid, gid);
      const args = ['run', '--allow-dirty', '--agent-bin', agent, '--output', 'text', '--max-iterations', '1'];
      const result = await runRalph(repo, args, { wrapper, env });
      expect(result.stdout).toContain('escaped');
      expect(repo.lastRun()).toMatchObject({ containment: { mode: 'cgroup' }, strayProcessesEnded: 1 });
      expect(isAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
    },
    60_000,
  );
});
