import type { ExhaustedCause, ResetSource } from '../domain/usage.js';
import type { ServerBusy } from '../domain/usage.js';

/**
 * Why a usage limit ended the run instead of being waited out. Used-up credits carry the agent's
 * own fix (`hint`, from its dialect): where its account adds them.
 */
export type UsageLimitStop =
  | { why: Exclude<ExhaustedCause, 'out_of_credits'> | 'stop_requested' | 'beyond_max_runtime' }
  | { why: Extract<ExhaustedCause, 'out_of_credits'>; hint: string };

/** The facts of a usage-limit ending (the `usage_limit` termination without its reason). */
export type UsageLimitEnding = {
  message: string;
  resetsAt?: number;
  /** Which evidence the reset instant came from (`backoff`: none was given). */
  resetSource: ResetSource;
} & UsageLimitStop;

/** Where a reset instant was read from, in words. */
export const EVIDENCE: Record<ResetSource, string> = {
  event: "the agent's rate_limit_event",
  epoch: 'the timestamp in the message',
  dated: 'the date in the message',
  retry_after: 'the retry-after in the message',
  clock: 'the clock time in the message',
  backoff: 'the agent named none',
};

/** What ended the run and what the user can do about it, in one paragraph. */
export function usageLimitDetail(ending: UsageLimitEnding): string {
  const { message, resetsAt, resetSource } = ending;
  const when = resetsAt === undefined ? undefined : new Date(resetsAt).toISOString();
  const resets =
    when === undefined
      ? ` (no reset time: ${EVIDENCE.backoff})`
      : ` (resets ${when}, read from ${EVIDENCE[resetSource]})`;
  switch (ending.why) {
    case 'allocation_disabled':
      return `${message} — an admin has turned your usage allocation off, and no wait lifts that: ask your organisation's admin to re-enable it or raise your limit, then run ralph again`;
    case 'out_of_credits':
      return `${message} — the usage credits are used up, and no wait lifts that: ${ending.hint}, then run ralph again`;
    case 'monthly_cap':
      return `${message}${resets} — the monthly usage or spend cap is reached, and it lifts only when the month turns or an admin raises it: ask for a higher limit, or run ralph again after the reset`;
    case 'beyond_max_runtime':
      return `${message}${resets} — the reset comes after --max-runtime ends, so ralph stopped instead of waiting: run ralph again after ${when ?? 'the reset'}, or allow a longer --max-runtime`;
    case 'stop_requested':
      return `${message}${resets} — --on-usage-limit stop: run ralph again after ${when ?? 'the limit resets'}, or use --on-usage-limit wait`;
  }
}

/** How a busy server reads in the transcript and the summary. */
export const BUSY_LABEL: Record<ServerBusy['kind'], string> = {
  rate_limited: 'rate limited',
  overloaded: 'overloaded',
};

/** `once`, `2 times`: how often the agent failed. */
export function times(count: number): string {
  return count === 1 ? 'once' : `${count} times`;
}
