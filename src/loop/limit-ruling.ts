import type { Exhaustion } from '../domain/agent-failure.js';
import { windowOverShare } from '../domain/usage.js';
import type { Counters, IterationFacts, JudgeSettings } from './judge-inputs.js';
import type { Wait } from './port-data.js';
import type { Termination } from './termination.js';
import type { UsageLimitStop } from './usage-limit-ending.js';

/** One minute after the announced reset, so the first call after the wait is not refused again. */
export const RESET_MARGIN_MS = 60_000;
const BACKOFF_BASE_MS = 5 * 60_000;
const BACKOFF_CAP_MS = 60 * 60_000;
/** A throttled or overloaded server: a short pause, doubling, before the next attempt. */
const BUSY_BASE_MS = 30_000;
const BUSY_CAP_MS = 10 * 60_000;

/** What a limit asks of the loop: a pause before the next iteration, or the end of the run. */
export type LimitRuling = { wait: Wait } | { termination: Termination } | undefined;

/**
 * A usage limit waits for its reset (or the backoff), and so does a usage window at --max-usage;
 * a busy server pauses briefly. Limits no wait lifts, --on-usage-limit stop and a reset past
 * --max-runtime end the run instead.
 */
export function usageLimitRuling(facts: IterationFacts, settings: JudgeSettings, counters: Counters): LimitRuling {
  const { run, now } = facts;
  if (run.failure?.kind === 'usage_limit') {
    const { message, reset } = run.failure;
    const until = reset ? reset.at + RESET_MARGIN_MS : now + backoff(counters.usageLimits);
    const announced = reset ? { resetsAt: reset.at, resetSource: reset.source } : {};
    return waitOrStop({ until, message, ...announced, why: 'usage_limit' }, facts.deadline, settings, run.failure);
  }
  if (run.failure?.kind === 'error' && run.failure.busy) {
    const { kind, message, retryAt } = run.failure.busy;
    const pause = Math.min(BUSY_CAP_MS, BUSY_BASE_MS * 2 ** Math.max(0, counters.agentFailures - 1));
    return { wait: { until: Math.min(facts.deadline, retryAt ?? now + pause), message, why: kind } };
  }
  const full =
    settings.maxUsage === undefined || !run.usage ? undefined : windowOverShare(run.usage, settings.maxUsage, now);
  if (!full || settings.maxUsage === undefined) return undefined;
  const message = `${full.window} usage is at ${Math.round(full.utilization * 100)}% (--max-usage ${Math.round(settings.maxUsage * 100)})`;
  const wait: Wait =
    full.resetsAt === undefined
      ? { until: now + BACKOFF_BASE_MS, message, why: 'max_usage' }
      : {
          until: full.resetsAt + RESET_MARGIN_MS,
          message,
          resetsAt: full.resetsAt,
          resetSource: 'event',
          why: 'max_usage',
        };
  return waitOrStop(wait, facts.deadline, settings);
}

/**
 * The account's usage limit, met by another loop of a parallel run (`LoopPorts.account`): this loop
 * waits for the same reset, or stops with it, as if it had met the limit itself, without a call.
 */
export function heldRuling(
  wait: Wait,
  deadline: number,
  settings: Pick<JudgeSettings, 'onUsageLimit'>,
): NonNullable<LimitRuling> {
  return waitOrStop(wait, deadline, settings) ?? { wait };
}

/** The wait, unless no wait lifts the limit, --on-usage-limit stop, or it would end past --max-runtime. */
function waitOrStop(
  wait: Wait,
  deadline: number,
  settings: Pick<JudgeSettings, 'onUsageLimit'>,
  exhaustion: Exhaustion = {},
): LimitRuling {
  const stop = stopOf(exhaustion, wait, deadline, settings);
  if (stop === undefined) return { wait };
  return {
    termination: {
      reason: 'usage_limit',
      message: wait.message,
      resetsAt: wait.resetsAt,
      resetSource: wait.resetSource ?? 'backoff',
      ...stop,
    },
  };
}

/** Why the limit ends the run, the agent's fix with it; undefined: the wait is allowed. */
function stopOf(
  exhaustion: Exhaustion,
  wait: Wait,
  deadline: number,
  settings: Pick<JudgeSettings, 'onUsageLimit'>,
): UsageLimitStop | undefined {
  if (exhaustion.exhausted === 'out_of_credits') return { why: exhaustion.exhausted, hint: exhaustion.hint };
  if (exhaustion.exhausted !== undefined) return { why: exhaustion.exhausted };
  if (settings.onUsageLimit === 'stop') return { why: 'stop_requested' };
  return wait.until > deadline ? { why: 'beyond_max_runtime' } : undefined;
}

/** 5 minutes, doubling with each consecutive limit, at most an hour. */
function backoff(consecutive: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, consecutive - 1));
}
