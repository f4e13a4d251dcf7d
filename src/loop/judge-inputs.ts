// What the judge rules on: the run's limits, the counters carried across iterations, and one iteration's facts.
import type { TasksParse } from '../domain/tasks.js';
import type { AgentRun, GateTrigger, GateVerdict } from './port-data.js';
import type { HistoryRewrite } from './progress.js';

/** The limits judged after every iteration. */
export interface JudgeSettings {
  maxStuck: number;
  maxAgentFailures: number;
  maxValidationFailures: number;
  maxCostUsd?: number;
  maxRuntimeMs: number;
  onUsageLimit: 'wait' | 'stop';
  /** --max-usage as a share (0.9): a usage window reported this full is waited out after the iteration. */
  maxUsage?: number;
  maxGateFailures: number;
  /** Stories must also be approved by a review to count as complete. */
  review: boolean;
  maxReviews: number;
  /**
   * --max-network-wait: the pauses one outage of the network may be waited out with, once the run
   * has had a working iteration (0: none; the failure ends the run as at the start).
   */
  maxNetworkWaitMs: number;
  /** The first of those pauses, doubling (default NETWORK_BASE_MS; the end-to-end tests shorten it). */
  networkBackoffMs?: number;
}

/** What the loop counts across iterations. */
export interface Counters {
  stuck: number;
  agentFailures: number;
  validationFailures: number;
  /** Consecutive usage-limited iterations (for the backoff when no reset time is given). */
  usageLimits: number;
  /** Consecutive COMPLETE claims the quality gates rejected. */
  gateFailures: number;
  costUsd: number;
  /** An iteration of this run has reached the agent's API: a network failure since is an outage, waited out. */
  worked: boolean;
  /** Consecutive iterations that failed for the network after one worked (the backoff's exponent). */
  networkFailures: number;
  /** The pauses this outage was waited out with so far (held to --max-network-wait). */
  networkWaitedMs: number;
}

/** The counters before the first iteration. */
export const INITIAL_COUNTERS: Counters = {
  stuck: 0,
  agentFailures: 0,
  validationFailures: 0,
  usageLimits: 0,
  gateFailures: 0,
  costUsd: 0,
  worked: false,
  networkFailures: 0,
  networkWaitedMs: 0,
};

/** What an iteration did, as the judge sees it. */
export interface IterationFacts {
  run: AgentRun;
  /** HEAD moved forward on the branch: progress. */
  committed: boolean;
  /** Commits left the branch, or HEAD left it (never progress). */
  rewrite?: HistoryRewrite;
  /** tasks.json after the iteration. */
  tasks: TasksParse;
  /** The rule of the task list the iteration broke (src/loop/transitions.ts), as one line. */
  ruleBroken?: string;
  /** Approvals no review iteration made, after this iteration: they do not count yet. */
  unconfirmed: ReadonlySet<string>;
  now: number;
  /** When --max-runtime is up (epoch ms). */
  deadline: number;
  /** The quality gates, when they ran after this iteration, and why. */
  gates?: { trigger: GateTrigger; verdict: GateVerdict };
  /** A story review sent back --max-reviews times: a human must look. */
  reviewCap?: { id: string; count: number; feedback?: string };
}
