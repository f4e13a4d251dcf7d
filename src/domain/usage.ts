/**
 * Where a reset instant came from, most trustworthy first: a rejected `rate_limit_event`'s
 * `resetsAt`, an epoch after a bar, a dated text, a retry-after, a clock time; else ralph's backoff.
 */
export type ResetSource = 'event' | 'epoch' | 'dated' | 'retry_after' | 'clock' | 'backoff';

/** A reset instant and the evidence it was read from. */
export interface LimitReset {
  /** Epoch milliseconds. */
  at: number;
  source: Exclude<ResetSource, 'backoff'>;
}

/**
 * A limit no wait within a run lifts: an admin turned the allocation off, the credits are used
 * up, or the organisation's monthly cap (or the API spend limit) is reached.
 */
export type ExhaustedCause = 'allocation_disabled' | 'out_of_credits' | 'monthly_cap';

/** A usage limit the agent ran into, and when it lifts if the agent said so. */
export interface UsageLimit {
  /** The agent's own words (one line, trimmed; a wrapped message joined), or a description of the event. */
  message: string;
  reset?: LimitReset;
  exhausted?: ExhaustedCause;
}

/** Server-side throttling that is not the user's usage limit: a failure to retry after a pause. */
export interface ServerBusy {
  kind: 'rate_limited' | 'overloaded';
  message: string;
  /** When the server said to retry (`Retry in 156s`), epoch ms. */
  retryAt?: number;
}

/** How much of one usage window (`five_hour`, `seven_day`, …) is used, as the agent last reported it. */
export interface UsageWindow {
  window: string;
  /** A share: 0.92 is 92 %. */
  utilization: number;
  /** When the window resets, epoch ms. */
  resetsAt?: number;
}

/** The first window at or above `share` whose reset is still ahead, the fullest first. */
export function windowOverShare(windows: readonly UsageWindow[], share: number, now: number): UsageWindow | undefined {
  return [...windows]
    .filter((window) => window.utilization >= share && (window.resetsAt === undefined || window.resetsAt > now))
    .sort((a, b) => b.utilization - a.utilization)[0];
}

/** `five_hour 92% · seven_day 40%`: for the status line and `ralph status`. */
export function formatUsage(windows: readonly UsageWindow[]): string {
  return windows.map((window) => `${window.window} ${Math.round(window.utilization * 100)}%`).join(' · ');
}
