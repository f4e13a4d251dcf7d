import { describe, expect, it } from 'vitest';
import { CLAUDE_HINTS } from '../../../src/agent/claude/hints.js';
import type { LoopSettings } from '../../../src/loop/loop-state.js';
import { runLoop } from '../../../src/loop/run-loop.js';
import type { GateVerdict } from '../../../src/loop/port-data.js';
import { detailOf, exitCodeFor } from '../../../src/loop/termination.js';
import { fakePorts, taskList, type FakeCall, loopSettings } from './fakes.js';

const settings: LoopSettings = loopSettings();
const tasks = taskList(['US-1', false], ['US-2', false]);
/** One story left: a single iteration may finish it (an iteration marks at most one story passing). */
const lastOneLeft = taskList(['US-1', true], ['US-2', false]);

async function loop(calls: FakeCall[], overrides: Partial<LoopSettings> = {}, initial = tasks, gates?: GateVerdict[]) {
  const fake = fakePorts(initial, calls, gates ? { gates } : {});
  const result = await runLoop({ ...settings, ...overrides }, fake.ports, initial);
  return { ...fake, result };
}

describe('runLoop', () => {
  it("names the run's branch in every prompt, and no branch when it has none", async () => {
    const onBranch = await loop(
      [
        { commit: true, pass: ['US-1'] },
        { commit: true, pass: ['US-2'], signals: { complete: true } },
      ],
      { branch: 'ralph/feature' },
    );
    expect(onBranch.prompts).toHaveLength(2);
    for (const prompt of onBranch.prompts) expect(prompt).toContain('you are on `ralph/feature`');
    const without = await loop([
      { commit: true, pass: ['US-1'] },
      { commit: true, pass: ['US-2'], signals: { complete: true } },
    ]);
    for (const prompt of without.prompts) expect(prompt).not.toContain('**Branch:**');
  });

  it('ends complete when the agent says COMPLETE and every story passes', async () => {
    const { result, rows } = await loop([
      { commit: true, pass: ['US-1'] },
      { commit: true, pass: ['US-2'], signals: { complete: true } },
    ]);
    expect(result.termination).toEqual({ reason: 'complete' });
    expect(result.iterations).toBe(2);
    expect(result.stories).toEqual({ complete: 2, total: 2 });
    expect(rows.map((row) => [row.iteration, row.storiesComplete, row.commitHash])).toEqual([
      [1, 1, 'c1'],
      [2, 2, 'c2'],
    ]);
  });

  it('calls no agent when every story already passes', async () => {
    const { result, prompts } = await loop([], {}, taskList(['US-1', true]));
    expect(result.termination.reason).toBe('complete');
    expect(result.iterations).toBe(0);
    expect(prompts).toEqual([]);
  });

  it('rejects COMPLETE while stories fail, tells the next prompt which, and goes on', async () => {
    const { result, prompts, events } = await loop([
      { commit: true, pass: ['US-1'], signals: { complete: true } },
      { commit: true, pass: ['US-2'], signals: { complete: true } },
    ]);
    expect(result.termination.reason).toBe('complete');
    expect(events).toContain('rejected US-2');
    expect(prompts[0]).not.toContain('Loop feedback');
    expect(prompts[1]).toContain('## Loop feedback');
    expect(prompts[1]).toContain('US-2 (Story US-2)');
  });

  it('accepts COMPLETE on the last allowed iteration', async () => {
    const { result } = await loop(
      [{ commit: true, pass: ['US-2'], signals: { complete: true } }],
      { maxIterations: 1 },
      lastOneLeft,
    );
    expect(result.termination.reason).toBe('complete');
  });

  it('ends blocked with the reason written for a human', async () => {
    const { result, blocked } = await loop([{ signals: { blocked: 'no API key' } }]);
    expect(result.termination).toEqual({ reason: 'blocked', message: 'no API key' });
    expect(exitCodeFor(result.termination)).toBe(2);
    expect(blocked).toEqual([expect.objectContaining({ iteration: 1, reason: 'no API key' })]);
  });

  it('ends decide with the question written for a human', async () => {
    const { result, decided } = await loop([{ commit: true, signals: { decide: 'REST or GraphQL?' } }]);
    expect(result.termination).toEqual({ reason: 'decide', question: 'REST or GraphQL?' });
    expect(exitCodeFor(result.termination)).toBe(3);
    expect(decided).toHaveLength(1);
  });

  it('prefers a verified COMPLETE over BLOCKED over DECIDE', async () => {
    const all = { complete: true, blocked: 'b', decide: 'd' };
    const complete = await loop([{ commit: true, pass: ['US-2'], signals: all }], {}, lastOneLeft);
    expect(complete.result.termination.reason).toBe('complete');
    const blocked = await loop([{ commit: true, signals: all }]);
    expect(blocked.result.termination.reason).toBe('blocked');
    const decide = await loop([{ commit: true, signals: { decide: 'd', complete: true } }]);
    expect(decide.result.termination.reason).toBe('decide');
  });

  it('stops stuck after max-stuck iterations without a commit', async () => {
    const { result, rows } = await loop([{}, {}, {}]);
    expect(result.termination).toEqual({ reason: 'stuck', stuckCount: 3 });
    expect(exitCodeFor(result.termination)).toBe(4);
    expect(rows.map((row) => row.stuckCount)).toEqual([1, 2, 3]);
    expect(rows.every((row) => row.commitHash === '')).toBe(true);
    expect(result.stuckIterations).toBe(3);
  });

  it('resets the stuck count on a commit: 2 stuck, 1 commit, 2 stuck does not stop at the 4th', async () => {
    const { result, rows } = await loop([{}, {}, { commit: true }, {}, {}, {}]);
    expect(rows.map((row) => row.stuckCount)).toEqual([1, 2, 0, 1, 2, 3]);
    expect(result.termination.reason).toBe('stuck');
    expect(result.iterations).toBe(6);
    expect(result.stuckIterations).toBe(5);
  });

  it('counts the first commit of an unborn repository as progress', async () => {
    const fake = fakePorts(tasks, [{ commit: true }, {}], { head: null });
    const result = await runLoop({ ...settings, maxIterations: 2 }, fake.ports, tasks);
    expect(fake.rows[0]?.commitHash).toBe('c1');
    expect(fake.rows[0]?.stuckCount).toBe(0);
    expect(result.termination.reason).toBe('max_iterations');
  });

  it('ends at max-iterations without completion', async () => {
    const { result, rows } = await loop([{ commit: true }, { commit: true }], { maxIterations: 2 });
    expect(result.termination).toEqual({ reason: 'max_iterations' });
    expect(exitCodeFor(result.termination)).toBe(1);
    expect(rows).toHaveLength(2);
  });

  it('numbers iterations from the first number it is given', async () => {
    const { rows, active } = await loop([{ commit: true }, { commit: true }], { maxIterations: 2, firstIteration: 8 });
    expect(rows.map((row) => row.iteration)).toEqual([8, 9]);
    expect(active.map((state) => state.iteration)).toEqual([8, 9]);
    // `ralph status` shows the run's own count beside the number, as the run's header does.
    expect(active.map((state) => state.thisRun)).toEqual([1, 2]);
  });

  it('records the interrupted iteration and ends with the signal', async () => {
    const { result, rows, remainingCalls } = await loop([{ interrupt: 'SIGINT', exitCode: null }, { commit: true }]);
    expect(result.termination).toEqual({ reason: 'interrupted', signal: 'SIGINT' });
    expect(exitCodeFor(result.termination)).toBe(130);
    expect(rows).toHaveLength(1);
    expect(remainingCalls()).toBe(1);
  });

  it('tells the next prompt when tasks.json was left invalid, and never accepts COMPLETE then', async () => {
    const { result, prompts } = await loop(
      [{ commit: true, corruptTasks: true, signals: { complete: true } }, { commit: true }],
      { maxIterations: 2 },
      taskList(['US-1', false]),
    );
    expect(result.termination.reason).toBe('max_iterations');
    expect(prompts[1]).toContain('ralph/tasks.json is not a valid task list');
  });

  it('points the prompt at an answered decide.txt', async () => {
    const fake = fakePorts(tasks, [{ commit: true }], { decide: 'answered' });
    await runLoop({ ...settings, maxIterations: 1 }, fake.ports, tasks);
    expect(fake.prompts[0]).toContain('ralph/decide.txt');
  });

  it('explains ignored promise tags in the next prompt', async () => {
    const { prompts } = await loop(
      [{ commit: true, signals: { invalid: ['<promise>DONE</promise>'] } }, { commit: true }],
      {
        maxIterations: 2,
      },
    );
    expect(prompts[1]).toContain('<promise>DONE</promise>');
  });
});

describe('runLoop: budgets and failures', () => {
  it('stops at --max-runtime before starting an iteration it has no time for', async () => {
    const { result, rows } = await loop(
      [
        { commit: true, takesMs: 50 * 60_000 },
        { commit: true, takesMs: 50 * 60_000 },
      ],
      {
        maxRuntimeMs: 90 * 60_000,
      },
    );
    expect(result.termination).toEqual({ reason: 'max_runtime', limitMs: 90 * 60_000 });
    expect(exitCodeFor(result.termination)).toBe(1);
    expect(rows).toHaveLength(2);
  });

  it('ends max_runtime when the runner stopped the agent at the deadline, keeping its row', async () => {
    const { result, rows } = await loop([{ stoppedBy: { cause: 'max_runtime' }, exitCode: null }]);
    expect(result.termination.reason).toBe('max_runtime');
    expect(rows[0]?.outcome).toBe('max_runtime');
  });

  it('stops at --max-cost once the summed cost reaches the cap', async () => {
    const { result } = await loop([{ commit: true, costUsd: 0.4 }, { commit: true, costUsd: 0.6 }, { commit: true }], {
      maxCostUsd: 1,
    });
    expect(result.termination).toEqual({ reason: 'max_cost', costUsd: 1, limitUsd: 1 });
    expect(result.costUsd).toBe(1);
  });

  it('stops after --max-agent-failures consecutive failures; a success resets the count; timeouts neither add nor reset', async () => {
    const fail: FakeCall = { failure: { kind: 'error', lines: ['boom'] }, exitCode: 1 };
    const { result, rows } = await loop(
      [
        fail,
        fail,
        { commit: true },
        fail,
        { stoppedBy: { cause: 'timeout' }, exitCode: null, commit: true },
        fail,
        fail,
      ],
      { maxStuck: 10 },
    );
    expect(rows.map((row) => row.outcome)).toEqual([
      'agent_error',
      'agent_error',
      'ok',
      'agent_error',
      'timeout',
      'agent_error',
      'agent_error',
    ]);
    expect(result.termination).toEqual({ reason: 'agent_failures', count: 3, lastError: ['boom'] });
    expect(exitCodeFor(result.termination)).toBe(4);
  });

  it('stops at once on an authentication failure (exit 64) and on the root refusal', async () => {
    const auth = await loop([
      { failure: { kind: 'auth', message: 'Not logged in · Please run /login', hint: 'the fix' }, exitCode: 1 },
    ]);
    expect(auth.result.termination).toEqual({
      reason: 'agent_auth',
      message: 'Not logged in · Please run /login',
      hint: 'the fix',
    });
    expect(exitCodeFor(auth.result.termination)).toBe(64);
    expect(auth.rows[0]?.stuckCount).toBe(0);
    const setup = await loop([
      { failure: { kind: 'setup', message: 'cannot be used with root', hint: 'the fix' }, exitCode: 1 },
    ]);
    expect(setup.result.termination.reason).toBe('agent_setup');
  });

  it('stops after one call when the agent cannot reach the API, with the network hint (exit 64)', async () => {
    const message = 'API Error: Unable to connect to API (FailedToOpenSocket)';
    const hint = CLAUDE_HINTS.network;
    const { result, rows } = await loop([
      { failure: { kind: 'setup', message, cause: 'network', hint }, exitCode: 1 },
      { commit: true },
    ]);
    expect(rows).toHaveLength(1);
    // The machine's network, not the agent: no strike, in the row or the run's count.
    expect(rows[0]?.stuckCount).toBe(0);
    expect(result.stuckIterations).toBe(0);
    expect(result.termination).toEqual({ reason: 'agent_setup', message, cause: 'network', hint });
    expect(exitCodeFor(result.termination)).toBe(64);
    expect(detailOf(result.termination)).toMatch(/HTTPS_PROXY.*NODE_EXTRA_CA_CERTS.*curl -sI/);
    const root = await loop([
      { failure: { kind: 'setup', message: 'cannot be used with root', hint: CLAUDE_HINTS.setup }, exitCode: 1 },
    ]);
    expect(detailOf(root.result.termination)).toContain('IS_SANDBOX=1');
  });

  it('waits out a usage limit until its reset plus a minute; the limited iteration counts neither as an iteration nor as a strike', async () => {
    const fake = fakePorts(lastOneLeft, [
      {},
      {
        failure: {
          kind: 'usage_limit',
          message: 'limit',
          reset: { at: 1_750_000_000_000 + 3 * 3600_000, source: 'event' },
        },
        exitCode: 1,
      },
      { commit: true, pass: ['US-2'], signals: { complete: true } },
    ]);
    const result = await runLoop({ ...settings, maxIterations: 2, maxStuck: 2 }, fake.ports, lastOneLeft);
    expect(result.termination.reason).toBe('complete');
    expect(fake.rows.map((row) => [row.iteration, row.outcome, row.stuckCount])).toEqual([
      [1, 'ok', 1],
      [2, 'usage_limit', 1],
      [3, 'ok', 0],
    ]);
    expect(fake.events).toContain(`wait until ${1_750_000_000_000 + 3 * 3600_000 + 60_000}`);
    expect(fake.events).toContain('wait ended');
    expect(fake.sleeps).toHaveLength(1);
  });

  it('stops instead of waiting when the reset is past the --max-runtime deadline, or with --on-usage-limit stop', async () => {
    const limit: FakeCall = {
      failure: {
        kind: 'usage_limit',
        message: 'limit',
        reset: { at: 1_750_000_000_000 + 10 * 3600_000, source: 'clock' },
      },
      exitCode: 1,
    };
    const late = await loop([limit]);
    expect(late.result.termination).toMatchObject({
      reason: 'usage_limit',
      resetsAt: 1_750_000_000_000 + 10 * 3600_000,
      resetSource: 'clock',
      why: 'beyond_max_runtime',
    });
    expect(late.sleeps).toEqual([]);
    const stop = await loop([{ failure: { kind: 'usage_limit', message: 'limit' }, exitCode: 1 }], {
      onUsageLimit: 'stop',
    });
    expect(stop.result.termination).toMatchObject({
      reason: 'usage_limit',
      resetSource: 'backoff',
      why: 'stop_requested',
    });
    expect(exitCodeFor(stop.result.termination)).toBe(1);
  });

  it('backs off when a usage limit names no reset time', async () => {
    const limit: FakeCall = {
      failure: { kind: 'usage_limit', message: 'API Error: Request rejected (429) · The usage limit has been reached' },
      exitCode: 1,
    };
    const { sleeps } = await loop(
      [limit, limit, { commit: true, pass: ['US-2'], signals: { complete: true } }],
      {},
      lastOneLeft,
    );
    expect(sleeps).toEqual([5 * 60_000, 10 * 60_000]);
  });

  it.each([
    { exhausted: 'allocation_disabled' },
    { exhausted: 'out_of_credits', hint: 'add credits' },
    { exhausted: 'monthly_cap' },
  ] as const)(
    'stops at once on a limit no wait lifts ($exhausted), even with --on-usage-limit wait',
    async (exhaustion) => {
      const { exhausted } = exhaustion;
      const { result, sleeps, rows } = await loop([
        { failure: { kind: 'usage_limit', message: 'limit', ...exhaustion }, exitCode: 1 },
      ]);
      expect(result.termination).toMatchObject({ reason: 'usage_limit', why: exhausted, resetSource: 'backoff' });
      expect(exitCodeFor(result.termination)).toBe(1);
      expect(rows).toHaveLength(1);
      expect(sleeps).toEqual([]);
    },
  );

  it('with --max-usage, finishes the iteration and then waits for the reset of the window at that share', async () => {
    const start = 1_750_000_000_000;
    const resetsAt = start + 2 * 3600_000;
    const fake = fakePorts(tasks, [
      {
        commit: true,
        pass: ['US-1'],
        usage: [
          { window: 'five_hour', utilization: 0.92, resetsAt },
          { window: 'seven_day', utilization: 0.4 },
        ],
      },
      { commit: true, pass: ['US-2'], signals: { complete: true } },
    ]);
    const result = await runLoop({ ...settings, maxUsage: 0.9 }, fake.ports, tasks);
    expect(result.termination.reason).toBe('complete');
    expect(fake.rows.map((row) => row.outcome)).toEqual(['ok', 'ok']);
    expect(fake.events).toContain(`wait until ${resetsAt + 60_000}`);
    expect(fake.events).toContain('wait why max_usage');
    expect(fake.sleeps).toEqual([resetsAt + 60_000 - (start + 60_000)]);
  });

  it('with --max-usage, goes on below the share, and stops at it under --on-usage-limit stop', async () => {
    const usage = [{ window: 'seven_day', utilization: 0.89, resetsAt: 1_750_000_000_000 + 3600_000 }];
    const below = await loop(
      [
        { commit: true, usage },
        { commit: true, pass: ['US-2'], signals: { complete: true } },
      ],
      { maxUsage: 0.9 },
      lastOneLeft,
    );
    expect(below.result.termination.reason).toBe('complete');
    expect(below.sleeps).toEqual([]);
    const full = [{ window: 'seven_day', utilization: 0.9, resetsAt: 1_750_000_000_000 + 3600_000 }];
    const stop = await loop([{ commit: true, usage: full }], { maxUsage: 0.9, onUsageLimit: 'stop' });
    expect(stop.result.termination).toMatchObject({
      reason: 'usage_limit',
      why: 'stop_requested',
      resetSource: 'event',
      message: expect.stringContaining('seven_day usage is at 90%'),
    });
  });

  it('counts a busy server as an agent failure and pauses briefly between attempts, doubling', async () => {
    const busy: FakeCall = {
      failure: {
        kind: 'error',
        lines: ['API Error: 529 Overloaded'],
        busy: { kind: 'overloaded', message: 'API Error: 529 Overloaded' },
      },
      exitCode: 1,
    };
    const { result, sleeps, events } = await loop([busy, busy, busy]);
    expect(result.termination).toMatchObject({ reason: 'agent_failures', count: 3, busy: 'overloaded' });
    expect(sleeps).toEqual([30_000, 60_000]);
    expect(events).toContain('wait why overloaded');
  });

  it('waits as long as a throttling server asks (Retry in Ns)', async () => {
    const retryAt = 1_750_000_000_000 + 60_000 + 156_000;
    const busy: FakeCall = {
      failure: { kind: 'error', lines: ['x'], busy: { kind: 'rate_limited', message: 'x', retryAt } },
      exitCode: 1,
    };
    const { sleeps, result } = await loop(
      [busy, { commit: true, pass: ['US-2'], signals: { complete: true } }],
      {},
      lastOneLeft,
    );
    expect(result.termination.reason).toBe('complete');
    expect(sleeps).toEqual([156_000]);
  });

  it('stops after --max-validation-failures consecutive rule breaks, and a clean iteration resets the count', async () => {
    const { result, rows, prompts } = await loop([
      { commit: true, signals: { invalid: ['<promise>DONE</promise>'] } },
      { commit: true, truncated: true },
      { commit: true },
      { commit: true, signals: { complete: true } },
      { commit: true, remove: ['US-2'] },
      { commit: true, signals: { invalid: ['<promise>BLOCKED:</promise>'] } },
    ]);
    expect(rows.map((row) => row.outcome)).toEqual(['ok', 'truncated', 'ok', 'ok', 'ok', 'ok']);
    expect(result.termination).toMatchObject({ reason: 'validation_failures', count: 3 });
    expect(prompts[2]).toContain('cut off');
    expect(prompts[5]).toContain(
      'broke a rule of the task list: ralph/tasks.json lost story US-2 during the iteration',
    );
  });

  it('tells the next prompt about a repetition and counts detections per tool', async () => {
    const repetition = {
      tool: 'Bash',
      count: 5,
      kind: 'consecutive' as const,
      inputPreview: '{"command":"npm test"}',
      lastOutcome: { isError: true, preview: 'FAIL' },
    };
    const { result, prompts, rows } = await loop(
      [{ stoppedBy: { cause: 'repetition', repetition }, exitCode: null }, { commit: true }],
      {
        maxIterations: 2,
      },
    );
    expect(rows[0]?.outcome).toBe('repetition');
    expect(prompts[1]).toContain('called `Bash` 5 times with the same input: {"command":"npm test"}');
    expect(prompts[1]).toContain('an error: FAIL');
    expect(result.repetitions).toEqual({ Bash: 1 });
  });

  it('moves feedback over the cap to a file and names it in the prompt', async () => {
    const fake = fakePorts(tasks, [
      { failure: { kind: 'error', lines: Array.from({ length: 8 }, () => 'x'.repeat(300)) }, exitCode: 1 },
      { commit: true },
    ]);
    await runLoop({ ...settings, maxIterations: 2, maxFeedbackBytes: 1024 }, fake.ports, tasks);
    expect(fake.feedbackFiles).toHaveLength(1);
    expect(fake.feedbackFiles[0]?.iteration).toBe(2);
    expect(fake.prompts[1]).toContain('ralph/logs/feedback-2.md');
    expect(Buffer.byteLength(fake.prompts[1] ?? '')).toBeLessThan(1024);
  });

  it('records a timed-out iteration that committed as progress', async () => {
    const { rows } = await loop([{ stoppedBy: { cause: 'timeout' }, exitCode: null, commit: true }, { commit: true }], {
      maxIterations: 2,
    });
    expect(rows[0]).toMatchObject({ outcome: 'timeout', stuckCount: 0 });
    expect(rows[0]?.commitHash).toBe('c1');
  });
});

describe('runLoop: quality gates', () => {
  const pass: GateVerdict = { passed: true };
  const fail = (summary: string): GateVerdict => ({
    passed: false,
    interrupted: false,
    summary,
    event: `## Completion Blocked: ${summary}\n`,
  });
  const claim: FakeCall = { commit: true, pass: ['US-2'], signals: { complete: true } };

  it('gives the gates the run deadline, at the start of a run as after a claim: none may run past it', async () => {
    const done = taskList(['US-1', true], ['US-2', false]);
    const { gateDeadlines, now } = await loop([{ ...claim, takesMs: 5_000 }], { maxRuntimeMs: 60_000 }, done, [pass]);
    const started = now() - 5_000;
    expect(gateDeadlines).toEqual([started + 60_000]);
    const allDone = taskList(['US-1', true]);
    const atStart = await loop([], { maxRuntimeMs: 90_000 }, allDone, [pass]);
    expect(atStart.gateDeadlines).toEqual([atStart.now() + 90_000]);
  });

  it('lets a COMPLETE stand when the gates pass', async () => {
    const { result, gateChecks } = await loop([claim], {}, lastOneLeft, [pass]);
    expect(result.termination.reason).toBe('complete');
    expect(gateChecks).toEqual([{ iteration: 1, trigger: 'complete' }]);
  });

  it('rejects a COMPLETE the gates fail, hands the event to the next prompt, and ends when a claim passes', async () => {
    const { result, prompts } = await loop([claim, { commit: true, signals: { complete: true } }], {}, lastOneLeft, [
      fail('tests failed'),
      pass,
    ]);
    expect(result.termination.reason).toBe('complete');
    expect(prompts[1]).toContain('## Completion Blocked: tests failed');
  });

  it('ends quality_gate_exhausted after --max-gate-failures rejected claims in a row; claims only count', async () => {
    const again: FakeCall = { commit: true, signals: { complete: true } };
    const { result, gateChecks } = await loop([claim, { commit: true }, again, again], {}, lastOneLeft, [
      fail('tests failed'),
    ]);
    expect(result.termination).toMatchObject({ reason: 'quality_gate_exhausted', count: 3 });
    expect(exitCodeFor(result.termination)).toBe(4);
    expect(gateChecks).toHaveLength(3);
  });

  it('does not count a gate rejection as a validation failure', async () => {
    const again: FakeCall = { commit: true, signals: { complete: true } };
    const { result } = await loop(
      [claim, again, again],
      { maxValidationFailures: 1, maxGateFailures: 5, maxIterations: 3 },
      lastOneLeft,
      [fail('tests failed')],
    );
    expect(result.termination.reason).toBe('max_iterations');
  });

  it('an interrupt after the agent ended, before the gates ran, ends interrupted: never complete unchecked', async () => {
    const { result, gateChecks } = await loop([{ ...claim, interruptAfter: 'SIGINT' }], {}, lastOneLeft, [pass]);
    expect(result.termination).toEqual({ reason: 'interrupted', signal: 'SIGINT' });
    expect(gateChecks).toEqual([]);
  });

  it('an interrupt after the agent ended ends interrupted on the last iteration too, not max_iterations', async () => {
    const { result } = await loop([{ ...claim, interruptAfter: 'SIGTERM' }], { maxIterations: 1 }, lastOneLeft, [pass]);
    expect(result.termination).toEqual({ reason: 'interrupted', signal: 'SIGTERM' });
  });

  it('an interrupt after the agent ended outranks the stuck ending that iteration brings', async () => {
    const { result } = await loop([{}, { interruptAfter: 'SIGINT' }], { maxStuck: 2 });
    expect(result.termination).toEqual({ reason: 'interrupted', signal: 'SIGINT' });
  });

  it('without gates, an interrupt after the agent finished the list still ends complete: the list is the proof', async () => {
    const { result } = await loop([{ ...claim, interruptAfter: 'SIGINT' }], {}, lastOneLeft);
    expect(result.termination.reason).toBe('complete');
  });

  it('runs no gates for a claim tasks.json does not back', async () => {
    const { gateChecks } = await loop([{ commit: true, signals: { complete: true } }], { maxIterations: 1 }, tasks, [
      pass,
    ]);
    expect(gateChecks).toEqual([]);
  });

  it('with gatesWhen commit also checks after every commit, feeding failures forward without counting them', async () => {
    const { result, gateChecks, prompts } = await loop(
      [{ commit: true }, { commit: true }, {}],
      { gatesWhen: 'commit', maxIterations: 3, maxGateFailures: 1 },
      tasks,
      [fail('build failed')],
    );
    expect(gateChecks.map((check) => check.trigger)).toEqual(['commit', 'commit']);
    expect(prompts[1]).toContain('Completion Blocked: build failed');
    expect(result.termination.reason).toBe('max_iterations');
  });

  it('checks the gates at the start of a run whose stories all pass: passing ends it without an agent call', async () => {
    const done = taskList(['US-1', true]);
    const { result, prompts, gateChecks } = await loop([], {}, done, [pass]);
    expect(result.termination.reason).toBe('complete');
    expect(prompts).toEqual([]);
    expect(gateChecks).toEqual([{ iteration: 1, trigger: 'start' }]);
  });

  it('hands a failing start-of-run check to the first iteration', async () => {
    const done = taskList(['US-1', true]);
    const { result, prompts } = await loop([{ commit: true, signals: { complete: true } }], {}, done, [
      fail('lint failed'),
      pass,
    ]);
    expect(prompts[0]).toContain('Completion Blocked: lint failed');
    expect(result.termination.reason).toBe('complete');
  });
});

describe('runLoop: the review cycle', () => {
  const review = { review: true } as const;

  it('chooses implement, then review for a story that passes unreviewed, and records the mode', async () => {
    const { result, rows, active, prompts } = await loop(
      [
        { commit: true, pass: ['US-1'] },
        { commit: true, review: { 'US-1': { reviewStatus: 'approved' } } },
        { commit: true, pass: ['US-2'] },
        { commit: true, review: { 'US-2': { reviewStatus: 'approved' } }, signals: { complete: true } },
      ],
      review,
    );
    expect(rows.map((row) => [row.mode, row.storiesComplete])).toEqual([
      ['implement', 0],
      ['review', 1],
      ['implement', 1],
      ['review', 2],
    ]);
    expect(active.map((state) => state.story)).toEqual(['US-1', 'US-1', 'US-2', 'US-2']);
    expect(prompts[1]).toContain('## mode review: US-1');
    expect(result.termination.reason).toBe('complete');
  });

  it('refuses COMPLETE until every story is approved, then accepts it', async () => {
    // Both stories already pass; only review stands between them and completion.
    const built = taskList(['US-1', true], ['US-2', true]);
    const { result, events } = await loop(
      [
        { commit: true, review: { 'US-1': { reviewStatus: 'approved' } }, signals: { complete: true } },
        { commit: true, review: { 'US-2': { reviewStatus: 'approved' } }, signals: { complete: true } },
      ],
      { ...review, maxIterations: 2 },
      built,
    );
    expect(events).toContain('rejected US-2');
    expect(result.termination.reason).toBe('complete');
    expect(result.iterations).toBe(2);
  });

  it('ends complete when a review approves the last story, without another agent only to say COMPLETE', async () => {
    const built = taskList(['US-1', true]);
    const { result, prompts } = await loop(
      [
        { commit: true, review: { 'US-1': { reviewStatus: 'approved' } } },
        { commit: true, signals: { complete: true } },
      ],
      { ...review, maxIterations: 5 },
      built,
    );
    expect(result.termination.reason).toBe('complete');
    expect(prompts).toHaveLength(1);
  });

  it('sends a story back to review-fix after changes are requested, with its feedback', async () => {
    const initial = taskList(['US-1', true]);
    const fake = fakePorts(initial, [
      {
        commit: true,
        review: { 'US-1': { reviewStatus: 'changes_requested', passes: false, reviewFeedback: 'add tests' } },
      },
      { commit: true, review: { 'US-1': { reviewStatus: 'pending', passes: true } } },
      { commit: true, review: { 'US-1': { reviewStatus: 'approved' } }, signals: { complete: true } },
    ]);
    const result = await runLoop({ ...settings, review: true }, fake.ports, initial);
    expect(fake.rows.map((row) => row.mode)).toEqual(['review', 'review-fix', 'review']);
    expect(fake.reviewRejections).toEqual({ 'US-1': 1 });
    expect(result.termination.reason).toBe('complete');
  });

  it('stops with BLOCKED semantics when review sends a story back --max-reviews times', async () => {
    const initial = taskList(['US-1', true]);
    const reject: FakeCall = {
      commit: true,
      review: { 'US-1': { reviewStatus: 'changes_requested', passes: false, reviewFeedback: 'still no tests' } },
    };
    const fix: FakeCall = { commit: true, review: { 'US-1': { reviewStatus: 'pending', passes: true } } };
    const fake = fakePorts(initial, [reject, fix, reject]);
    const result = await runLoop({ ...settings, review: true, maxReviews: 2 }, fake.ports, initial);
    expect(result.termination).toMatchObject({ reason: 'blocked' });
    expect(exitCodeFor(result.termination)).toBe(2);
    expect(fake.blocked[0]?.reason).toContain('Story US-1 was sent back by review 2 times');
    expect(fake.blocked[0]?.reason).toContain('still no tests');
  });

  it('snapshots tasks.json before every iteration', async () => {
    const { snapshots } = await loop([{ commit: true }, { commit: true }], { maxIterations: 2 });
    expect(snapshots()).toBe(2);
  });
});
