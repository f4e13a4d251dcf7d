import { describe, expect, it } from 'vitest';
import { withFallback } from '../../../src/agent/fallback-runner.js';
import type { AgentRequest, AgentRun } from '../../../src/loop/port-data.js';

const HOUR = 3_600_000;
const ok = (costUsd?: number): AgentRun => ({
  exitCode: 0,
  signals: { complete: false, invalid: [] },
  truncated: false,
  stats: { toolCalls: 1, invalidLines: 0, ...(costUsd === undefined ? {} : { costUsd }) },
});
const limited = (resetAt?: number, exhausted = false): AgentRun => ({
  ...ok(0.001),
  exitCode: 1,
  failure: {
    kind: 'usage_limit',
    message: "You've hit your limit",
    ...(resetAt === undefined ? {} : { reset: { at: resetAt, source: 'clock' as const } }),
    ...(exhausted ? { exhausted: 'monthly_cap' as const } : {}),
  },
});

/** Two scripted runners, a clock the test moves, and what each was asked. */
function rig(primaryRuns: AgentRun[], fallbackRuns: AgentRun[]) {
  let now = 0;
  const calls: string[] = [];
  const notices: string[] = [];
  const scripted = (kind: string, runs: AgentRun[]) => ({
    kind,
    runner: {
      run: (request: AgentRequest) => {
        calls.push(`${kind}:${request.iteration}`);
        return Promise.resolve(runs.shift() ?? ok());
      },
    },
  });
  const runner = withFallback(scripted('claude', primaryRuns), scripted('codex', fallbackRuns), {
    now: () => now,
    notice: (line) => notices.push(line),
  });
  const run = (iteration: number) => runner.run({ iteration, prompt: 'p' });
  return { run, calls, notices, setNow: (value: number) => (now = value) };
}

describe('withFallback: a second agent while the first one’s usage limit runs', () => {
  it('runs the limited iteration again on the fallback, stays there until the reset, then goes back', async () => {
    const { run, calls, notices, setNow } = rig([ok(0.1), limited(5 * HOUR), ok(0.2)], [ok(), ok()]);
    expect((await run(1)).agent).toBe('claude');
    setNow(HOUR);
    const switched = await run(2);
    expect(switched).toMatchObject({ agent: 'codex', exitCode: 0 });
    expect(switched.failure).toBeUndefined();
    // The primary's limited call is the iteration's cost too; the fallback reported none.
    expect(switched.stats.costUsd).toBe(0.001);
    expect(notices).toEqual([
      'claude hit its usage limit until 1970-01-01T05:00:00.000Z: codex runs this iteration and the next ones until then',
    ]);
    setNow(5 * HOUR - 1);
    expect((await run(3)).agent).toBe('codex');
    setNow(5 * HOUR);
    expect((await run(4)).agent).toBe('claude');
    expect(calls).toEqual(['claude:1', 'claude:2', 'codex:2', 'codex:3', 'claude:4']);
  });

  it('leaves a limit it cannot time to the loop: no reset, one no wait lifts, a reset already past', async () => {
    for (const run of [limited(undefined), limited(5 * HOUR, true), limited(0)]) {
      const rigged = rig([run], []);
      rigged.setNow(HOUR);
      expect(await rigged.run(1)).toMatchObject({ agent: 'claude', failure: { kind: 'usage_limit' } });
      expect(rigged.calls).toEqual(['claude:1']);
    }
  });

  it('hands a limit on the fallback too to the loop, which waits for it (or stops) as with one agent', async () => {
    const { run, calls } = rig([limited(5 * HOUR)], [limited(2 * HOUR)]);
    expect(await run(1)).toMatchObject({ agent: 'codex', failure: { kind: 'usage_limit', reset: { at: 2 * HOUR } } });
    expect(calls).toEqual(['claude:1', 'codex:1']);
  });
});
