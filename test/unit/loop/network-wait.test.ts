import { describe, expect, it } from 'vitest';
import { runLoop } from '../../../src/loop/run-loop.js';
import { NETWORK_BASE_MS, NETWORK_CAP_MS } from '../../../src/loop/network-ruling.js';
import type { LoopSettings } from '../../../src/loop/loop-state.js';
import { fakePorts, loopSettings, taskList, type FakeCall } from './fakes.js';

// A network that drops mid-run: waited out with backoff once an iteration worked, held to
// --max-network-wait and --max-runtime, ended at once by an interrupt.

const MINUTE = 60_000;
const tasks = taskList(['US-1', false], ['US-2', false], ['US-3', false]);
const offline: FakeCall = {
  exitCode: 1,
  takesMs: 1000,
  failure: { kind: 'setup', cause: 'network', message: 'Unable to connect to API (ECONNREFUSED)', hint: 'check it' },
};
const works: FakeCall = { commit: true, pass: ['US-1'] };

async function loop(calls: FakeCall[], overrides: Partial<LoopSettings> = {}) {
  const fake = fakePorts(tasks, calls);
  const result = await runLoop(loopSettings(overrides), fake.ports, tasks);
  return { ...fake, result };
}

describe('runLoop: a network that drops mid-run', () => {
  it('after a working iteration, waits out two network failures (15 s, then 30 s) and goes on', async () => {
    const { result, sleeps, events, rows } = await loop(
      [works, offline, offline, { commit: true, pass: ['US-2'] }, { commit: true, pass: ['US-3'] }],
      { maxIterations: 3 },
    );
    expect(result.termination).toEqual({ reason: 'complete' });
    expect(sleeps).toEqual([NETWORK_BASE_MS, 2 * NETWORK_BASE_MS]);
    expect(events.filter((event) => event === 'wait why network')).toHaveLength(2);
    // The failed tries count toward no --max-iterations (3 allowed, 5 started) and are no strike.
    expect(result.iterations).toBe(5);
    expect(rows.map((row) => row.outcome)).toEqual(['ok', 'agent_setup', 'agent_setup', 'ok', 'ok']);
    expect(rows.map((row) => row.stuckCount)).toEqual([0, 0, 0, 0, 0]);
  });

  it('a network failure before any iteration worked ends the run at once, as a set-up to fix', async () => {
    const { result, sleeps } = await loop([offline, works]);
    expect(result.termination).toMatchObject({ reason: 'agent_setup', cause: 'network' });
    expect(sleeps).toEqual([]);
  });

  it('pauses double up to 5 minutes, and the pauses of one outage stop at --max-network-wait', async () => {
    const calls = [works, ...Array.from({ length: 12 }, () => offline)];
    const { result, sleeps } = await loop(calls, { maxNetworkWaitMs: 20 * MINUTE });
    const base = NETWORK_BASE_MS;
    // 15 s, 30 s, 1 m, 2 m, 4 m, 5 m, 5 m, then what is left of the 20 minutes.
    const expected = [base, 2 * base, 4 * base, 8 * base, 16 * base, NETWORK_CAP_MS, NETWORK_CAP_MS];
    expected.push(20 * MINUTE - expected.reduce((sum, ms) => sum + ms, 0));
    expect(sleeps).toEqual(expected);
    expect(result.termination).toMatchObject({ reason: 'agent_setup', cause: 'network' });
    if (result.termination.reason !== 'agent_setup') throw new Error('unreachable');
    expect(result.termination.message).toContain('after 20m of waiting for the network: --max-network-wait 20m');
  });

  it('an iteration that works between two outages gives the next one the whole --max-network-wait again', async () => {
    const { sleeps, result } = await loop([works, offline, offline, works, offline, works], {
      maxNetworkWaitMs: 30_000,
      maxIterations: 3,
    });
    // 15 s + 15 s (what was left), then a fresh outage: 15 s again.
    expect(sleeps).toEqual([15_000, 15_000, 15_000]);
    expect(result.termination).toEqual({ reason: 'max_iterations' });
  });

  it("the shortened first pause (the end-to-end tests') doubles as the default does", async () => {
    const { sleeps } = await loop([works, offline, offline, offline, works], {
      networkBackoffMs: 200,
      maxIterations: 2,
    });
    expect(sleeps).toEqual([200, 400, 800]);
  });

  it('a wait is never longer than --max-runtime: it ends there, as max_runtime, before another call', async () => {
    // One minute for the working iteration, one second for the failed try: 40 s of the budget left.
    const maxRuntimeMs = MINUTE + 1000 + 40_000;
    const { result, sleeps, prompts } = await loop([works, offline, offline, works], {
      maxRuntimeMs,
      networkBackoffMs: 14_000,
      maxIterations: 5,
    });
    expect(sleeps).toEqual([14_000, 25_000]);
    expect(result.termination).toEqual({ reason: 'max_runtime', limitMs: maxRuntimeMs });
    expect(prompts).toHaveLength(3);
  });

  it('an interrupt during the wait ends the run at once, as interrupted', async () => {
    const fake = fakePorts(tasks, [works, offline, works]);
    let signal: 'SIGINT' | undefined;
    const ports = {
      ...fake.ports,
      interrupts: { received: () => signal, graceful: fake.ports.interrupts.graceful },
      clock: {
        ...fake.ports.clock,
        sleep: async (ms: number) => {
          fake.sleeps.push(ms);
          signal = 'SIGINT';
        },
      },
    };
    const result = await runLoop(loopSettings(), ports, tasks);
    expect(result.termination).toEqual({ reason: 'interrupted', signal: 'SIGINT' });
    expect(fake.prompts).toHaveLength(2);
  });

  it('a usage limit or a busy server counts as a working iteration: the API answered', async () => {
    const limited: FakeCall = { exitCode: 1, failure: { kind: 'usage_limit', message: 'limit' } };
    const { sleeps, result } = await loop([limited, offline, works], { maxIterations: 1 });
    expect(sleeps.slice(1)).toEqual([NETWORK_BASE_MS]);
    expect(result.termination).toEqual({ reason: 'max_iterations' });
  });

  it("an outage longer than --max-network-wait ends the run with the client's own network failure and fix", async () => {
    const { result } = await loop([works, offline, offline], { maxNetworkWaitMs: 1000, networkBackoffMs: 1000 });
    expect(result.termination).toMatchObject({ reason: 'agent_setup', cause: 'network', hint: 'check it' });
  });
});
