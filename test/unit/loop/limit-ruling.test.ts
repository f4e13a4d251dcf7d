import { describe, expect, it } from 'vitest';
import { usageLimitRuling } from '../../../src/loop/limit-ruling.js';
import { taskList, judgeSettings } from './fakes.js';
import {
  type IterationFacts,
  INITIAL_COUNTERS,
  type JudgeSettings,
  type Counters,
} from '../../../src/loop/judge-inputs.js';
import type { LimitReset } from '../../../src/domain/usage.js';
import type { AgentRun } from '../../../src/loop/port-data.js';

// The usage-limit ruling is pure: one iteration's facts in, a wait or an ending out.

const NOW = 1_750_000_000_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const settings: JudgeSettings = judgeSettings();

function facts(run: Partial<AgentRun>, deadline = NOW + HOUR): IterationFacts {
  const agentRun: AgentRun = {
    exitCode: 1,
    truncated: false,
    stats: { toolCalls: 0, invalidLines: 0 },
    signals: { complete: false, invalid: [] },
    ...run,
  };
  return {
    run: agentRun,
    committed: false,
    tasks: { ok: true, tasks: taskList(['US-1', false]) },
    unconfirmed: new Set(),
    now: NOW,
    deadline,
  };
}

const limited = (reset?: LimitReset): Partial<AgentRun> => ({
  failure: { kind: 'usage_limit', message: 'limit', ...(reset ? { reset } : {}) },
});
const rule = (iteration: IterationFacts, counters: Partial<Counters> = {}, overrides: Partial<JudgeSettings> = {}) =>
  usageLimitRuling(iteration, { ...settings, ...overrides }, { ...INITIAL_COUNTERS, ...counters });

describe('usageLimitRuling: a usage limit', () => {
  it('waits until a minute after the announced reset, naming the reset and its evidence', () => {
    const reset = NOW + 10 * MINUTE;
    expect(rule(facts(limited({ at: reset, source: 'dated' })))).toEqual({
      wait: { until: reset + MINUTE, message: 'limit', resetsAt: reset, resetSource: 'dated', why: 'usage_limit' },
    });
  });

  it('waits when the wait ends exactly at the deadline, and stops when it ends a millisecond later', () => {
    const reset = NOW + 10 * MINUTE;
    const run = limited({ at: reset, source: 'event' });
    expect(rule(facts(run, reset + MINUTE))).toMatchObject({ wait: { until: reset + MINUTE } });
    expect(rule(facts(run, reset + MINUTE - 1))).toEqual({
      termination: {
        reason: 'usage_limit',
        message: 'limit',
        resetsAt: reset,
        resetSource: 'event',
        why: 'beyond_max_runtime',
      },
    });
  });

  it('backs off 5, 10, 20, 40 minutes on consecutive limits without a reset time, at most an hour', () => {
    // The counters the ruling reads already count this iteration's limit.
    const waits = [1, 2, 3, 4, 5, 6].map((consecutive) => {
      const ruling = rule(facts(limited(), NOW + 10 * HOUR), { usageLimits: consecutive });
      return ruling && 'wait' in ruling ? (ruling.wait.until - NOW) / MINUTE : undefined;
    });
    expect(waits).toEqual([5, 10, 20, 40, 60, 60]);
  });

  it('a wait without an announced reset carries no reset time', () => {
    expect(rule(facts(limited()))).toEqual({ wait: { until: NOW + 5 * MINUTE, message: 'limit', why: 'usage_limit' } });
  });

  it('with --on-usage-limit stop ends at once, with no reset time and backoff as its evidence when none was given', () => {
    expect(rule(facts(limited()), {}, { onUsageLimit: 'stop' })).toEqual({
      termination: { reason: 'usage_limit', message: 'limit', resetSource: 'backoff', why: 'stop_requested' },
    });
  });

  it('with --on-usage-limit stop keeps the announced reset in the ending, for the user to run again after it', () => {
    const reset = NOW + 10 * MINUTE;
    expect(rule(facts(limited({ at: reset, source: 'clock' })), {}, { onUsageLimit: 'stop' })).toEqual({
      termination: {
        reason: 'usage_limit',
        message: 'limit',
        resetsAt: reset,
        resetSource: 'clock',
        why: 'stop_requested',
      },
    });
  });

  it('a limit no wait lifts ends the run even when its reset is well inside --max-runtime', () => {
    const run: Partial<AgentRun> = {
      failure: {
        kind: 'usage_limit',
        message: 'out',
        reset: { at: NOW + MINUTE, source: 'event' },
        exhausted: 'out_of_credits',
        hint: 'add credits',
      },
    };
    expect(rule(facts(run, NOW + 10 * HOUR))).toEqual({
      termination: {
        reason: 'usage_limit',
        message: 'out',
        resetsAt: NOW + MINUTE,
        resetSource: 'event',
        why: 'out_of_credits',
        hint: 'add credits',
      },
    });
  });
});

describe('usageLimitRuling: a busy server', () => {
  const busy = (retryAt?: number): Partial<AgentRun> => ({
    failure: {
      kind: 'error',
      lines: ['API Error: 529'],
      busy: { kind: 'overloaded', message: 'API Error: 529', ...(retryAt === undefined ? {} : { retryAt }) },
    },
  });

  it('pauses 30 seconds after the first failure, doubling with each, at most ten minutes', () => {
    // The counters the ruling reads already count this iteration's failure.
    const pauses = [1, 2, 3, 5, 6].map((failures) => {
      const ruling = rule(facts(busy(), NOW + 10 * HOUR), { agentFailures: failures });
      return ruling && 'wait' in ruling ? (ruling.wait.until - NOW) / 1000 : undefined;
    });
    expect(pauses).toEqual([30, 60, 120, 480, 600]);
  });

  it('waits until the retry time the server named, and never past the deadline', () => {
    expect(rule(facts(busy(NOW + 90_000)), { agentFailures: 1 })).toEqual({
      wait: { until: NOW + 90_000, message: 'API Error: 529', why: 'overloaded' },
    });
    expect(rule(facts(busy(NOW + 2 * HOUR)), { agentFailures: 1 })).toMatchObject({ wait: { until: NOW + HOUR } });
  });

  it('an agent error that is no busy server asks for no pause', () => {
    expect(rule(facts({ failure: { kind: 'error', lines: ['boom'] } }))).toBeUndefined();
  });
});

describe('usageLimitRuling: --max-usage', () => {
  const usage = (utilization: number, resetsAt?: number): Partial<AgentRun> => ({
    exitCode: 0,
    usage: [{ window: 'five_hour', utilization, ...(resetsAt === undefined ? {} : { resetsAt }) }],
  });

  it('waits out a window at the share until a minute after its reset, read from the event', () => {
    expect(rule(facts(usage(0.9, NOW + 30 * MINUTE)), {}, { maxUsage: 0.9 })).toEqual({
      wait: {
        until: NOW + 31 * MINUTE,
        message: 'five_hour usage is at 90% (--max-usage 90)',
        resetsAt: NOW + 30 * MINUTE,
        resetSource: 'event',
        why: 'max_usage',
      },
    });
  });

  it('a window below the share, or no --max-usage at all, asks for no wait', () => {
    expect(rule(facts(usage(0.89, NOW + 30 * MINUTE)), {}, { maxUsage: 0.9 })).toBeUndefined();
    expect(rule(facts(usage(1, NOW + 30 * MINUTE)))).toBeUndefined();
  });

  it('a full window without a reset time waits the first backoff step', () => {
    expect(rule(facts(usage(0.95)), {}, { maxUsage: 0.9 })).toMatchObject({
      wait: { until: NOW + 5 * MINUTE, why: 'max_usage' },
    });
  });

  it('a full window ends the run with --on-usage-limit stop', () => {
    expect(rule(facts(usage(0.95, NOW + 30 * MINUTE)), {}, { maxUsage: 0.9, onUsageLimit: 'stop' })).toMatchObject({
      termination: { reason: 'usage_limit', why: 'stop_requested', resetsAt: NOW + 30 * MINUTE, resetSource: 'event' },
    });
  });
});
