import type { PromiseSignals } from '../agent/promise-tags.js';
import type { TasksParse } from '../files/tasks.js';
import type { InterruptSignal } from './termination.js';

/** The loop's view of the world: everything with a side effect arrives through these ports. */
export interface LoopPorts {
  agent: AgentRunner;
  git: Git;
  clock: Clock;
  files: LoopFiles;
  interrupts: Interrupts;
  report: LoopReporter;
}

/** Runs one agent process for one iteration and reports how it ended. */
export interface AgentRunner {
  run(request: AgentRequest): Promise<AgentRun>;
}

export interface AgentRequest {
  iteration: number;
  prompt: string;
}

export interface AgentRun {
  /** The agent's exit code; null when it was ended by a signal. */
  exitCode: number | null;
  signals: PromiseSignals;
  /** Set when ralph stopped the agent because ralph itself was interrupted. */
  interrupted?: InterruptSignal;
}

/** The one git fact the loop needs: the commit HEAD points at (null while unborn). */
export interface Git {
  head(): Promise<string | null>;
}

/** Milliseconds since the epoch; tests move it by hand. */
export interface Clock {
  now(): number;
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
  writeActive(state: ActiveState): Promise<void>;
}

/** What `.ralph-active` says about the running loop (the adapter adds pid and start time). */
export interface ActiveState {
  iteration: number;
  maxIterations: number;
  stuckCount: number;
  mode: Mode;
}

/** What an iteration is for. Only `implement` exists until the review cycle. */
export type Mode = 'implement';

/** One row of ralph/logs/summary.csv. */
export interface IterationRow {
  iteration: number;
  mode: Mode;
  durationSeconds: number;
  /** HEAD after the iteration when it moved; empty when no commit was made. */
  commitHash: string;
  storiesComplete: number;
  storiesTotal: number;
  stuckCount: number;
  /** ISO-8601 UTC, when the iteration ended. */
  timestamp: string;
}

/** Whether ralph has been asked to stop, and by which signal. */
export interface Interrupts {
  received(): InterruptSignal | undefined;
}

/** Events the loop emits; the terminal (or a test) decides how they look. */
export interface LoopReporter {
  iterationStarted(event: {
    iteration: number;
    index: number;
    maxIterations: number;
    mode: Mode;
    stories: { complete: number; total: number };
    nextStory?: { id: string; title: string };
  }): void;
  iterationFinished(event: { row: IterationRow; exitCode: number | null; committed: boolean }): void;
  completeRejected(event: { remaining: { id: string; title: string }[] }): void;
  warning(message: string): void;
}
