import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processStartTime } from '../../src/process/proc.js';
import { isAlive, liveLock, lockNow, makeRepo, processesMarked, runPrefix, runRalph, waitFor } from '../helpers/e2e.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

const pidsIn = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map(Number);

describe('ralph/.ralph-active knows its owner', () => {
  it('takes over a lock whose pid now belongs to an unrelated process, and leaves that process alone', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    // A live process with the lock's pid, leading its own group, as a reused pid would be.
    const unrelated = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    started.push(unrelated);
    const pid = unrelated.pid!;
    await repo.write(
      'ralph/.ralph-active',
      JSON.stringify(liveLock({ pid, startTime: '12345@an-earlier-boot', agentGroup: pid })),
    );
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `warning: took over a stale ralph/.ralph-active left by pid ${pid}, which is no longer running`,
    );
    expect(isAlive(pid)).toBe(true);
  });

  it('treats a lock from an older ralph (no start time) as stale, even when its pid is alive', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const alive = spawn('sleep', ['300'], { stdio: 'ignore' });
    started.push(alive);
    const pid = alive.pid!;
    await repo.write('ralph/.ralph-active', JSON.stringify({ pid, startedAt: new Date().toISOString(), iteration: 3 }));
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `took over a stale ralph/.ralph-active left by an older ralph (pid ${pid}), which recorded no start time`,
    );
    expect(isAlive(pid)).toBe(true);
  });

  it('after kill -9 of ralph, the next run ends the orphaned agent and its daemons before its first iteration', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const daemons = join(repo.root, 'daemons.pid');
    const grandchild = join(repo.root, 'grandchild.pid');
    // Silent after its first line: an agent that writes on dies of EPIPE once ralph is gone, this one would not.
    await repo.steps([
      { daemons, grandchild, say: 'working\n', hang: true },
      { implement: true, completeWhenDone: true },
    ]);
    const crashed = await runRalph(repo, ['run'], {
      onStdout: (_text, child) => {
        if (
          repo.calls() >= 1 &&
          repo.exists('daemons.pid') &&
          pidsIn(daemons).length >= 2 &&
          repo.exists('grandchild.pid')
        )
          child.kill('SIGKILL');
      },
    });
    expect(crashed.code).toBe(null);
    const marker = repo.call(1).marker;
    const orphans = [...pidsIn(daemons), Number(repo.read('grandchild.pid'))];
    expect(orphans.filter(isAlive)).toHaveLength(3);
    expect(processesMarked(runPrefix(marker)).length).toBeGreaterThanOrEqual(4);

    // --allow-dirty: the crashed run could record nothing of what it left in the work tree (the test's pid files).
    const result = await runRalph(repo, ['run', '--allow-dirty']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    const tookOver = lines.findIndex((line) =>
      /warning: took over a stale ralph\/\.ralph-active left by pid \d+, which is no longer running; ended \d+ processes that its run left running: /.test(
        line,
      ),
    );
    const firstIteration = lines.findIndex((line) => line.includes('Iteration 2'));
    expect(tookOver).toBeGreaterThan(-1);
    expect(tookOver).toBeLessThan(firstIteration);
    expect(lines[tookOver]).toMatch(/\d+ node.*\d+ sleep/);
    expect(orphans.filter(isAlive)).toEqual([]);
    expect(processesMarked(runPrefix(marker))).toEqual([]);
  });

  it('takes over the lock of a ralph that was pid 1 in a pid namespace, from a new ralph that is pid 1 again (a container restart)', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([
      { say: 'working\n', tickMs: 200, hang: true },
      { implement: true, completeWhenDone: true },
    ]);
    // --kill-child: killing unshare kills its child, pid 1 of the namespace, and with it the whole namespace.
    const namespace = ['unshare', '--pid', '--mount-proc', '--kill-child'];
    let agentStarted: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (agentStarted = resolve));
    let ralph: ChildProcess | undefined;
    const crashing = runRalph(repo, ['run'], {
      wrapper: namespace,
      onStart: (child) => (ralph = child),
      onStdout: () => (repo.calls() >= 1 ? agentStarted() : undefined),
    });
    await running;
    // Seen from outside the namespace, pid 1 is another process, but the run is there and alive.
    const outside = await runRalph(repo, ['status', '--json']);
    expect(JSON.parse(outside.stdout).loop).toMatchObject({ running: true, pid: 1 });
    ralph?.kill('SIGKILL');
    const crashed = await crashing;
    expect(crashed.code).toBe(null);
    expect(JSON.parse((await runRalph(repo, ['status', '--json'])).stdout).loop).toEqual({ running: false });
    const lock = lockNow(repo.read('ralph/.ralph-active'));
    expect(lock).toMatchObject({ pid: 1, startTime: expect.stringMatching(/^\d+@/) });

    const result = await runRalph(repo, ['run'], { wrapper: namespace });
    expect(result.stderr).not.toContain('another ralph run is active');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'warning: took over a stale ralph/.ralph-active left by pid 1, which is no longer running',
    );
    expect(repo.exists('ralph/.ralph-active')).toBe(false);
  });
});

describe('ralph/.ralph-active contents', () => {
  it("records the owner, its start, the host, the run marker and the running agent's group", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ say: 'working\n', tickMs: 200, hang: true }]);
    let seen: Record<string, unknown> | undefined;
    const result = await runRalph(repo, ['run', '--max-iterations', '1'], {
      onStdout: (_text, child) => {
        if (seen || repo.calls() < 1) return;
        const lock = lockNow(repo.read('ralph/.ralph-active'));
        if (lock.agentGroup === undefined) return;
        seen = lock;
        child.kill('SIGINT');
      },
    });
    expect(result.code).toBe(130);
    const marker = repo.call(1).marker;
    expect(seen).toMatchObject({
      pid: expect.any(Number),
      startTime: expect.stringMatching(/^\d+@[0-9a-f-]+$/),
      host: expect.any(String),
      marker: runPrefix(marker).slice(0, -1),
      agentGroup: expect.any(Number),
      iteration: 1,
    });
    await waitFor(() => !repo.exists('ralph/.ralph-active'));
  });
});

describe('a lock the agent cannot lift or forge', () => {
  it('refuses a second run while the first lives, though its agent deleted ralph/.ralph-active', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ shell: ['rm -f ralph/.ralph-active', 'git clean -fdxq ralph'], say: 'working\n', hang: true }]);
    let second: Promise<Awaited<ReturnType<typeof runRalph>>> | undefined;
    const first = await runRalph(repo, ['run', '--max-iterations', '1'], {
      onStdout: (_text, child) => {
        if (second || repo.calls() < 1 || repo.exists('ralph/.ralph-active')) return;
        second = runRalph(repo, ['run']);
        void second.then(() => child.kill('SIGINT'));
      },
    });
    expect(first.code).toBe(130);
    const refused = await second!;
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain(
      'ralph: another ralph run is active in this work tree (its ralph/.ralph-active is missing or does not name it)',
    );
    // The refused start wrote nothing: the first run's record is its own.
    expect(repo.calls()).toBe(1);
  });

  it('starts normally beside a lock naming pid 1, warning that it was forged, and signals nothing', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.write(
      'ralph/.ralph-active',
      JSON.stringify(liveLock({ pid: 1, startTime: processStartTime(1), agentGroup: 1 })),
    );
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'warning: ralph/.ralph-active names pid 1, which is not a ralph run of this repository: the file was forged or is stale; ignoring it',
    );
    expect(result.stdout + result.stderr).not.toContain('kill 1');
  });

  it("leaves another repository's run alone when a stale lock carries its marker", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const elsewhere = await mkdtemp(join(tmpdir(), 'ralph-other-repo-'));
    const victim = spawn('sleep', ['300'], {
      cwd: elsewhere,
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, RALPH_RUN_MARKER: 'victim0:agent-1' },
    });
    started.push(victim);
    const gone = spawn('true');
    await new Promise((resolve) => gone.on('exit', resolve));
    await repo.write(
      'ralph/.ralph-active',
      JSON.stringify(
        liveLock({
          pid: gone.pid,
          startTime: '1@an-earlier-boot',
          host: hostname(),
          marker: 'victim0',
          agentGroup: victim.pid,
        }),
      ),
    );
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `took over a stale ralph/.ralph-active left by pid ${gone.pid}, which is no longer running`,
    );
    expect(result.stdout).not.toContain('ended 1 process');
    expect(isAlive(victim.pid!)).toBe(true);
    await rm(elsewhere, { recursive: true, force: true });
  });
});
