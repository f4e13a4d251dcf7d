import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as pause } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { makeRepo, runRalph, waitFor, type Step } from '../helpers/e2e.js';

// Overnight: a network that drops mid-run is waited out, and a machine that sleeps (ralph and its
// agent stopped, then continued) wakes to the same iteration, not to a timeout.

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/claude', name), 'utf8');

/** The real client's own ending without a network (FailedToOpenSocket), as it streams it. */
const offline: Step = { events: fixture('no-network-ending.stream.jsonl').trim().split('\n'), exit: 1, result: false };

/** The JSON lines a `cmd:` notification target appended to `file`, one per notification. */
function heard(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('a network that drops mid-run', () => {
  it('fails on iterations 3 and 4, works on 5: COMPLETE, a network_wait notice, no exit 64', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }, { id: 'US-3' }] });
    await repo.steps([
      { implement: true },
      { implement: true },
      offline,
      offline,
      { implement: true, completeWhenDone: true },
    ]);
    const notices = join(await mkdtemp(join(tmpdir(), 'ralph-notices-')), 'notices.jsonl');
    const result = await runRalph(
      repo,
      ['run', '--max-iterations', '3', '--notify', `cmd:sh -c 'cat >> ${notices}; echo >> ${notices}'`],
      // The first pause shortened from 15 s (ralph's own environment only): 200 ms, then 400 ms.
      { env: { RALPH_TEST_NETWORK_BACKOFF_MS: '200' } },
    );
    expect(result.code).toBe(0);
    expect(repo.calls()).toBe(5);
    expect(repo.lastRun()).toMatchObject({ reason: 'complete', exitCode: 0, stories: { complete: 3, total: 3 } });
    const [header, ...rows] = repo.csvRows();
    const outcome = header?.indexOf('outcome') ?? -1;
    expect(rows.map((row) => row[outcome])).toEqual(['ok', 'ok', 'agent_setup', 'agent_setup', 'ok']);
    // Said on the terminal at each pause, notified once for the outage.
    const said = result.stdout.split('\n').filter((line) => line.includes('network down'));
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(/Unable to connect to API \(FailedToOpenSocket\) — waiting until \S+Z/);
    const networkWaits = heard(notices).filter((notice) => notice.event === 'network_wait');
    expect(networkWaits).toHaveLength(1);
    expect(networkWaits[0]).toMatchObject({ message: expect.stringContaining('Unable to connect to API') });
    expect(String(networkWaits[0]?.retryAt)).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('at the start the same failure still ends the run at once, exit 64, with no wait', async () => {
    const repo = await makeRepo();
    await repo.steps([offline, { implement: true }]);
    const result = await runRalph(repo, ['run'], { env: { RALPH_TEST_NETWORK_BACKOFF_MS: '200' } });
    expect(result.code).toBe(64);
    expect(repo.calls()).toBe(1);
    expect(result.stdout).not.toContain('network down');
  });

  it('an outage longer than --max-network-wait ends the run, exit 64, saying how long it waited', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true }, offline]);
    const result = await runRalph(repo, ['run', '--max-network-wait', '1s'], {
      env: { RALPH_TEST_NETWORK_BACKOFF_MS: '400' },
    });
    expect(result.code).toBe(64);
    // 400 ms, 600 ms (what was left of the second), then the end.
    expect(repo.calls()).toBe(4);
    expect(repo.lastRun()).toMatchObject({ reason: 'agent_setup', exitCode: 64 });
    expect(repo.lastRun().detail).toContain('after 1s of waiting for the network: --max-network-wait 1s');
  });
});

/** The process group of a process, from /proc (the fifth field of its stat). */
function groupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

describe('a machine that sleeps and wakes', () => {
  it('ralph and its agent stopped for longer than --iteration-timeout, then continued: the run goes on to COMPLETE', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const dir = await mkdtemp(join(tmpdir(), 'ralph-sleep-'));
    const [ready, go] = [join(dir, 'ready'), join(dir, 'go')];
    // The agent says where it is (its shell's pid), then waits for the test's word before it works.
    await repo.steps([
      {
        shell: [`echo $$ > ${ready}.tmp && mv ${ready}.tmp ${ready}; until [ -e ${go} ]; do sleep 0.05; done`],
        implement: true,
        completeWhenDone: true,
      },
    ]);
    const timeoutMs = 25_000;
    let ralph = 0;
    const stopped: number[] = [];
    const run = runRalph(
      repo,
      ['run', '--max-iterations', '1', '--iteration-timeout', '25s', '--idle-timeout', '25s'],
      {
        timeoutMs: 240_000,
        onStart: (child) => (ralph = child.pid ?? 0),
      },
    );
    try {
      await waitFor(() => existsSync(ready), 60_000);
      const agentGroup = groupOf(Number(readFileSync(ready, 'utf8')));
      // The machine sleeps: ralph and everything of its agent stop at once.
      for (const target of [ralph, -agentGroup]) {
        process.kill(target, 'SIGSTOP');
        stopped.push(target);
      }
      // Until the iteration timeout has passed on the clock ralph measures with (the monotonic one,
      // which performance.now reads too): however slow this machine, the timeout lies inside the stop.
      const stoppedAt = performance.now();
      while (performance.now() - stoppedAt < timeoutMs + 5_000) await pause(250);
    } finally {
      // It wakes: continued, the agent told to go on (also when the test failed, so nothing is left stopped).
      for (const target of stopped.reverse()) process.kill(target, 'SIGCONT');
      await writeFile(go, '');
    }
    const result = await run;
    expect(result.code).toBe(0);
    expect(repo.lastRun()).toMatchObject({ reason: 'complete', iterations: 1 });
    const [header, row] = repo.csvRows();
    expect(row?.[header?.indexOf('outcome') ?? -1]).toBe('ok');
    expect(result.stdout).not.toMatch(/timeout/i);
  }, 300_000);
});
