import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoHash } from '../../src/process/cgroup.js';
import { cgroupHome, cgroupWritable } from '../helpers/cgroup.js';
import { isAlive, killOnceWritten, makeRepo, type Repo, runRalph, waitFor } from '../helpers/e2e.js';

/**
 * An agent that starts one escape — a process built to outlive the iteration — waits until it is
 * established (its pids in `escape.pids`), and exits. After the run nothing of it may be running,
 * in each containment mode that can catch it.
 */
type Mode = 'cgroup' | 'marker';

const home = cgroupHome;
const hasNginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(existsSync);

/** Waits (in the agent) until the pid in "$P" runs `sleep`: it has left setsid/perl behind. */
const untilSleep = 'while [ "$(cat /proc/$(cat "$P")/comm 2>/dev/null)" != sleep ]; do :; done';

interface Escape {
  name: string;
  /** Shell lines run by the agent; "$P" is the pid file, "$D" a scratch folder, "$PORT" a free port. */
  script: string;
  /** Which modes can catch it (the other is skipped, the reason given). */
  caughtBy: Mode[];
  needs?: string;
}

const ESCAPES: Escape[] = [
  {
    name: 'env -i setsid sleep',
    script: `env -i setsid sleep 300 >/dev/null 2>&1 & echo $! > "$P.tmp"; mv "$P.tmp" "$P"; ${untilSleep}`,
    caughtBy: ['cgroup'],
  },
  {
    name: 'unsetting RALPH_RUN_MARKER before a double fork',
    script: `(unset RALPH_RUN_MARKER; setsid sh -c 'sleep 300 & echo $! > "$0.tmp"; mv "$0.tmp" "$0"' "$P" >/dev/null 2>&1 &); while [ ! -s "$P" ]; do :; done; ${untilSleep}`,
    caughtBy: ['cgroup'],
  },
  {
    name: 'a long process title over the environment (perl $0)',
    script: `setsid perl -e '$0 = "x" x 8000; open F, ">", "$ARGV[0].tmp"; print F "$$\\n"; close F; rename "$ARGV[0].tmp", $ARGV[0]; sleep 300' "$P" >/dev/null 2>&1 & while [ ! -s "$P" ]; do :; done`,
    caughtBy: ['cgroup'],
  },
  {
    name: 'a daemon that clears its own environment',
    script: `perl -MPOSIX -e 'exit if fork; POSIX::setsid(); exit if fork; %ENV = (); open F, ">", "$ARGV[0].tmp"; print F "$$\\n"; close F; rename "$ARGV[0].tmp", $ARGV[0]; exec "sleep", "300"' "$P" >/dev/null 2>&1; while [ ! -s "$P" ]; do :; done; ${untilSleep}`,
    caughtBy: ['cgroup'],
  },
  {
    name: 'a chain that re-forks every 50 ms',
    // Each generation records itself, waits 50 ms, starts the next outside its group and exits.
    script: `printf '#!/bin/sh\\necho $$ >> "$1"\\nsleep 0.05\\nsetsid "$0" "$1" >/dev/null 2>&1 &\\n' > "$D/chain.sh"; chmod +x "$D/chain.sh"; setsid "$D/chain.sh" "$P" >/dev/null 2>&1 & while [ "$(wc -l < "$P" 2>/dev/null || echo 0)" -lt 3 ]; do sleep 0.01; done`,
    // The marker sweep looks again after each round (five at most): each generation keeps the marker.
    caughtBy: ['cgroup', 'marker'],
  },
  {
    name: 'a real nginx started as a dev server (daemon on)',
    script: [
      `printf 'daemon on;\\npid %s/nginx.pid;\\nerror_log %s/error.log;\\nevents {}\\nhttp { access_log off; client_body_temp_path %s; proxy_temp_path %s; fastcgi_temp_path %s; uwsgi_temp_path %s; scgi_temp_path %s; server { listen 127.0.0.1:%s; } }\\n' "$D" "$D" "$D" "$D" "$D" "$D" "$D" "$PORT" > "$D/nginx.conf"`,
      `${hasNginx ?? 'nginx'} -p "$D" -c "$D/nginx.conf"`,
      'while [ ! -s "$D/nginx.pid" ]; do sleep 0.01; done',
      // The master and its workers (its children): setproctitle wrote over their environment.
      `M=$(cat "$D/nginx.pid"); { echo $M; for pid in $(ls /proc | grep -E '^[0-9]+$'); do [ "$(cut -d' ' -f4 /proc/$pid/stat 2>/dev/null)" = "$M" ] && echo $pid; done; } > "$P.tmp"; mv "$P.tmp" "$P"`,
    ].join('\n'),
    caughtBy: ['cgroup'],
    needs: hasNginx ? undefined : 'nginx is not installed (.ci/run installs nginx-light)',
  },
];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function runEscape(repo: Repo, escape: Escape, mode: Mode) {
  const agent = join(repo.root, 'escape-agent.sh');
  const port = await freePort();
  const lines = [
    '#!/bin/sh',
    `P="${repo.root}/escape.pids"`,
    `D="${repo.root}/scratch"`,
    `PORT=${port}`,
    'mkdir -p "$D"',
  ];
  await writeFile(agent, `${[...lines, escape.script, 'echo escaped'].join('\n')}\n`, { mode: 0o755 });
  // --allow-dirty: the agent script and its scratch folder sit untracked in the work tree.
  const args = ['run', '--allow-dirty', '--agent-bin', agent, '--output', 'text', '--max-iterations', '1'];
  return runRalph(repo, args, { env: { RALPH_CONTAINMENT: mode === 'marker' ? 'marker' : undefined } });
}

const pidsIn = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map(Number);

describe.each(['cgroup', 'marker'] as const)('ralph run in %s mode: escapes', (mode) => {
  for (const escape of ESCAPES) {
    const skip =
      escape.needs ??
      (!escape.caughtBy.includes(mode)
        ? `the ${mode} mode cannot catch it (docs/run.md)`
        : mode === 'cgroup' && !cgroupWritable
          ? 'no writable cgroup v2 here'
          : undefined);
    it.skipIf(skip !== undefined)(
      `leaves nothing running after the iteration: ${escape.name}${skip ? ` — skipped: ${skip}` : ''}`,
      async () => {
        const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
        const result = await runEscape(repo, escape, mode);
        expect(result.stdout).toContain('escaped');
        expect(result.code).toBe(1);
        expect(repo.lastRun()).toMatchObject({ reason: 'max_iterations', containment: { mode } });
        const pids = pidsIn(join(repo.root, 'escape.pids'));
        expect(pids.length).toBeGreaterThan(0);
        // Gone by the time ralph exits (a chain: its newest generation too, a moment later).
        expect(pids.filter(isAlive)).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(pidsIn(join(repo.root, 'escape.pids')).filter(isAlive)).toEqual([]);
        expect(result.stdout).toMatch(/warning: ended \d+ process(es)? that left the agent's group/);
        expect(repo.lastRun()).toMatchObject({ strayProcessesEnded: expect.any(Number) as number });
      },
    );
  }
});

describe('ralph run: a crashed run in cgroup mode', () => {
  it.skipIf(!cgroupWritable)('the next run empties the cgroup ralph left when it was killed, and says so', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const agent = join(repo.root, 'crash-agent.sh');
    const pidFile = join(repo.root, 'escape.pids');
    const script = `#!/bin/sh\nP="${pidFile}"\n${ESCAPES[0]!.script}\nexec sleep 300\n`;
    await writeFile(agent, script, { mode: 0o755 });
    const args = ['run', '--allow-dirty', '--agent-bin', agent, '--output', 'text', '--max-iterations', '1'];
    const first = await runRalph(repo, args, {
      onStart: killOnceWritten(pidFile),
    });
    expect(first.code).toBe(null);
    const [daemon] = pidsIn(pidFile);
    await waitFor(() => readFileSync(`/proc/${daemon}/comm`, 'utf8').trim() === 'sleep');
    expect(isAlive(daemon!)).toBe(true);
    const mine = `ralph-${repoHash(join(repo.root, 'ralph'))}-`;
    const leftover = () => readdirSync((home as { dir: string }).dir).filter((name) => name.startsWith(mine));
    expect(leftover()).toHaveLength(1);

    await writeFile(agent, '#!/bin/sh\necho done\n', { mode: 0o755 });
    const second = await runRalph(repo, args);
    expect(second.code).toBe(1);
    expect(isAlive(daemon!)).toBe(false);
    expect(second.stdout).toMatch(/warning: .*ended \d+ process(es)? .*\d+ sleep/);
    expect(leftover()).toEqual([]);
  });
});

describe('ralph run: which containment is in effect, and why', () => {
  /** ralph under a private mount of the cgroup hierarchy made read-only: no cgroup can be created. */
  const readOnlyCgroups = (dir: string) => [
    'unshare',
    '-m',
    'sh',
    '-c',
    `mount --bind "${dir}" "${dir}" && mount -o remount,bind,ro "${dir}" && exec "$@"`,
    'sh',
  ];

  it.skipIf(!cgroupWritable)('says cgroup in the dry run, at the start of the run and in last-run.json', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const dry = await runRalph(repo, ['run', '--dry-run']);
    expect(dry.stdout).toMatch(/ok +containment +cgroup: each agent and gate in a cgroup of its own under \//);
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.stdout).toMatch(/^containment: cgroup \(each agent and gate in a cgroup of its own under \//m);
    expect(repo.lastRun()).toMatchObject({ containment: { mode: 'cgroup' } });
  });

  it.skipIf(!cgroupWritable)('falls back to the marker where the hierarchy is read-only, and says why', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const wrapper = readOnlyCgroups((home as { dir: string }).dir);
    const dry = await runRalph(repo, ['run', '--dry-run'], { wrapper });
    expect(dry.stdout).toMatch(
      // Where systemd-run is installed, the line also says why no user manager's scope is used.
      /ok +containment +marker: cannot create a cgroup under \S+: EROFS; (no systemd user manager .*; )?the environment marker/,
    );
    const pidFile = join(repo.root, 'daemons.pid');
    await repo.steps([{ daemons: pidFile, implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run'], { wrapper });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^containment: marker \(cannot create a cgroup under \S+: EROFS/m);
    expect(repo.lastRun()).toMatchObject({ containment: { mode: 'marker' }, strayProcessesEnded: 2 });
    expect(pidsIn(pidFile).filter(isAlive)).toEqual([]);
  });

  it('uses the marker when RALPH_CONTAINMENT=marker asks for it', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const dry = await runRalph(repo, ['run', '--dry-run'], { env: { RALPH_CONTAINMENT: 'marker' } });
    expect(dry.stdout).toMatch(/ok +containment +marker: RALPH_CONTAINMENT=marker asks for it/);
  });
});
