import type { AgentFailure } from '../domain/agent-failure.js';
import type { PromiseSignals } from '../domain/promise-signals.js';
import type { ResetSource, ServerBusy, UsageWindow } from '../domain/usage.js';
import type { UnfinishedStory } from './feedback.js';
import type { TasksParse } from '../domain/tasks.js';
import type { InterruptSignal } from './termination.js';

/** The loop's view of the world: everything with a side effect arrives through these ports. */
export interface LoopPorts {
  agent: AgentRunner;
  git: Git;
  clock: Clock;
  files: LoopFiles;
  interrupts: Interrupts;
  report: LoopReporter;
  /** The project's quality gates; absent when none are configured or --no-gates. */
  gates?: QualityGates;
}

/** Runs the project's own checks (build, lint, tests…) against a claim of completion. */
export interface QualityGates {
  check(request: { iteration: number; trigger: GateTrigger }): Promise<GateVerdict>;
}

/** Why the gates run: at the start of a run whose stories all pass, on a COMPLETE claim, after a commit. */
export type GateTrigger = 'start' | 'complete' | 'commit';

/** What the gates found: passed, or the blocking event for the next prompt. */
export type GateVerdict =
  | { passed: true }
  | { passed: false; interrupted: true }
  | { passed: false; interrupted: false; summary: string; event: string };

/** Runs one agent process for one iteration and reports how it ended. */
export interface AgentRunner {
  run(request: AgentRequest): Promise<AgentRun>;
}

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

/** What the loop asks git: where HEAD is, and whether it moved forward. */
export interface Git {
  /** The commit HEAD points at (null while unborn). */
  head(): Promise<string | null>;
  /** The branch HEAD is on, short (`main`); null when HEAD is detached. */
  branch(): Promise<string | null>;
  /** Whether `ancestor` is `descendant` or one of its ancestors (`git merge-base --is-ancestor`). */
  isAncestor(ancestor: string, descendant: string): Promise<boolean>;
  /** How many commits reachable from `from` are not reachable from `to` (null: unborn), i.e. left the branch. */
  countLeft(from: string, to: string | null): Promise<number>;
  /** The newest HEAD reflog entry that points at `hash` (`HEAD@{2}`), while the reflog still has it. */
  reflogEntry(hash: string): Promise<string | undefined>;
}

/** Milliseconds since the epoch; tests move it by hand. */
export interface Clock {
  now(): number;
  /** Waits (a usage-limit wait); resolves early when the signal fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Where a pending human decision stands. */
export type DecideState = 'none' | 'pending' | 'answered';

/** The loop's own files under ralph/. */
export interface LoopFiles {
  readPrompt(): Promise<string>;
  readTasks(): Promise<TasksParse>;
  decideState(): Promise<DecideState>;
  writeBlocked(entry: { iteration: number; at: number; reason: string }): Promise<void>;
  writeDecide(entry: { iteration: number; at: number; question: string }): Promise<void>;
  appendRow(row: IterationRow): Promise<void>;
  /** The guide for one mode (templates/modes/NAME.md), and the review-policy note. */
  readModeGuide(name: 'implement' | 'review' | 'review-fix' | 'finish' | 'review-policy'): Promise<string>;
  /** Copies tasks.json aside as the iteration starts, for the Stop hook to compare against. */
  snapshotTasks(): Promise<void>;
  /** Counts one more review that sent this story back; returns the count so far (kept across runs). */
  recordReviewRejection(storyId: string): Promise<number>;
  /** Saves a feedback section too large for the prompt; returns its path for the prompt to name. */
  writeFeedback(iteration: number, text: string): Promise<string>;
  writeActive(state: ActiveState): Promise<void>;
  /** Remembers (ralph/state.json) the stories whose approval no review iteration made, so a later run still doubts them. */
  saveUnconfirmedApprovals(ids: readonly string[]): Promise<void>;
}

/** What `.ralph-active` says about the running loop (the adapter adds pid and start time). */
export interface ActiveState {
  iteration: number;
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

export type { Mode } from './mode.js';
import type { Mode } from './mode.js';

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
  why: 'usage_limit' | 'max_usage' | ServerBusy['kind'];
}

/** Whether ralph has been asked to stop, and by which signal. */
export interface Interrupts {
  received(): InterruptSignal | undefined;
  /** Fires on the first interrupt (ends a usage-limit wait early). */
  graceful: AbortSignal;
}

/** Events the loop emits; the terminal (or a test) decides how they look. */
export interface LoopReporter {
  iterationStarted(event: {
    iteration: number;
    index: number;
    maxIterations: number;
    mode: Mode;
    stories: { complete: number; total: number };
    story?: { id: string; title: string };
  }): void;
  iterationFinished(event: { row: IterationRow; committed: boolean; failure?: AgentFailure; stoppedBy?: StopCause }): void;
  completeRejected(event: { remaining: UnfinishedStory[] }): void;
  /** A pause before the next iteration (a usage limit, --max-usage, a busy server). Returns what ends the display. */
  usageLimitWait(event: Wait): () => void;
  warning(message: string): void;
}
