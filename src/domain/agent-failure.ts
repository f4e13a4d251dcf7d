import type { ExhaustedCause, LimitReset, ServerBusy } from './usage.js';

/** How an agent that failed on its own failed, read from its own error output only. */
export type AgentFailure =
  /** The agent is not logged in: no further iteration can fix it. `hint`: how to log that client in. */
  | { kind: 'auth'; message: string; hint: string }
  /**
   * The client cannot work here: it refuses to start, or (`network`) cannot reach its API. `hint`: the
   * fix in that client's own terms.
   */
  | { kind: 'setup'; message: string; cause?: 'network'; hint: string }
  /** A usage limit: its reset and the evidence for it when the agent gave one; `exhausted` when no wait lifts it. */
  | ({ kind: 'usage_limit'; message: string; reset?: LimitReset } & Exhaustion)
  /** Any other failure; `busy` when the server throttled or was overloaded (retried after a pause). */
  | { kind: 'error'; lines: string[]; busy?: ServerBusy };

/** A failure no further iteration can fix: not logged in, or the client cannot work in this environment. */
export type FatalAgentFailure = Extract<AgentFailure, { kind: 'auth' | 'setup' }>;

/**
 * Whether a usage limit is one no wait lifts, and why. Used-up credits are added where the client's
 * account lives, so that limit carries `hint`: where and how, in that client's own terms.
 */
export type Exhaustion =
  | { exhausted?: Exclude<ExhaustedCause, 'out_of_credits'> }
  | { exhausted: Extract<ExhaustedCause, 'out_of_credits'>; hint: string };
