// The data the loop's ports carry: what an agent run, an iteration row or a wait is. The ports
// themselves (what the loop can ask of the world) are in ports.ts.
import type { AgentFailure } from '../domain/agent-failure.js';
import type { PromiseSignals } from '../domain/promise-signals.js';
import type { ResetSource, ServerBusy, UsageWindow } from '../domain/usage.js';
import type { Mode } from './mode.js';
import type { InterruptSignal } from './termination.js';

/** Why the gates run: at the start of a run whose stories all pass, on a COMPLETE claim, after a commit. */
export type GateTrigger = 'start' | 'complete' | 'commit';

/**
 * What the gates found: passed, or the blocking event for the next prompt — or nothing, when an
 * interrupt or the end of --max-runtime stopped them (`interrupted`).
 */
export type GateVerdict =
  | { passed: true }
  | { passed: false; interrupted: true }
  | { passed: false; interrupted: false; summary: string; event: string };

/** What one iteration asks of the agent. */
export interface AgentRequest {
  iteration: number;
  prompt: string;
  /** When the run's --max-runtime is up (epoch ms): the agent is stopped then. */
  deadline?: number;
}

/** Why ralph itself stopped the agent before it ended on its own. */
export type StopCause =
  | { cause: 'interrupt'; signal: InterruptSignal }
  | { cause: 'timeout' }
  | { cause: 'idle_timeout' }
  | { cause: 'max_runtime' }
  | { cause: 'repetition'; repetition: RepetitionReport };

/** What one tool call returned, in short. */
export interface ToolOutcome {
  isError: boolean;
  preview: string;
}

/** A tool call the agent kept repeating, and what it last returned. */
export interface RepetitionReport {
  tool: string;
  count: number;
  kind: 'consecutive' | 'window';
  inputPreview: string;
  lastOutcome?: ToolOutcome;
}

export interface AgentRun {
  /** The agent's exit code; null when it was ended by a signal. */
  exitCode: number | null;
  signals: PromiseSignals;
  /** Set when ralph stopped the agent (the first cause wins). */
  stoppedBy?: StopCause;
  /** Set when the agent failed on its own: non-zero exit or `is_error` in its result. */
  failure?: AgentFailure;
  /** stream-json ended without a result although ralph did not stop the agent. */
  truncated: boolean;
  stats: AgentStats;
  /** The latest utilization per usage window, when the agent reported any (stream-json). */
  usage?: UsageWindow[];
  /** The agent kind that ran the iteration (`--agent`, or `--fallback-agent` while the first one's limit runs). */
  agent?: string;
}

/** What one iteration's agent reported about itself (stream-json; text mode knows only the exit). */
export interface AgentStats {
  costUsd?: number;
  inputTokens?: number;
  outputTokens?: number;
  numTurns?: number;
  toolCalls: number;
  invalidLines: number;
}

/** Where a pending human decision stands. */
export type DecideState = 'none' | 'pending' | 'answered';

/** A BLOCKED a human resolved with `ralph answer`, as the next prompt shows it. */
export interface BlockResolution {
  reason: string;
  answer: string;
}

/** An answered DECIDE as the next prompt shows it: the agent's question and the human's answer. */
export interface DecideExchange {
  question: string;
  answer: string;
}

/** What `.ralph-active` says about the running loop (the adapter adds pid and start time). */
export interface ActiveState {
  /** The iteration's number, as its logs are numbered (continuing across runs of one task list). */
  iteration: number;
  /** Its place among this run's iterations that count toward maxIterations (1 for the first). */
  thisRun: number;
  maxIterations: number;
  stuckCount: number;
  mode: Mode;
  /** The story under review or fix (and the one to implement). */
  story?: string;
  /** The latest utilization per usage window the agent reported, for `ralph status`. */
  usage?: UsageWindow[];
  /** False under --skip-review: the Stop hook then leaves review statuses alone. */
  review?: boolean;
}

/** One row of ralph/logs/summary.csv. */
export interface IterationRow {
  iteration: number;
  mode: Mode;
  durationSeconds: number;
  /** HEAD after the iteration when it moved forward on the branch; empty otherwise. */
  commitHash: string;
  storiesComplete: number;
  storiesTotal: number;
  stuckCount: number;
  /** ISO-8601 UTC, when the iteration ended. */
  timestamp: string;
  outcome: Outcome;
  agentExitCode: number | null;
  stats: AgentStats;
  /** The agent kind that ran it, when known. */
  agent?: string;
  /** The story ralph chose for the prompt (none when every story was done and the gates said otherwise). */
  story?: string;
}

/** Why an iteration ended (the CSV `outcome` column). */
export type Outcome =
  | 'ok'
  | 'agent_error'
  | 'agent_auth'
  | 'agent_setup'
  | 'usage_limit'
  | 'truncated'
  | 'timeout'
  | 'idle_timeout'
  | 'max_runtime'
  | 'repetition'
  | 'interrupted'
  /** The agent reset, rebased or switched the branch: commits left it. */
  | 'history_rewritten';

/** A pause before the next iteration, and why. */
export interface Wait {
  until: number;
  message: string;
  /** The announced reset (usage limits), epoch ms, and the evidence it was read from. */
  resetsAt?: number;
  resetSource?: ResetSource;
  /** `network`: the client could not reach its API after an iteration of this run did (--max-network-wait). */
  why: 'usage_limit' | 'max_usage' | 'network' | ServerBusy['kind'];
}

/** A story that keeps a COMPLETE from standing, and why. */
export interface UnfinishedStory {
  id: string;
  title: string;
  /**
   * `failing`: passes is false; `unreviewed`: it passes but no review approved it yet;
   * `unconfirmed`: approved, but not by a review iteration.
   */
  why: 'failing' | 'unreviewed' | 'unconfirmed';
}
