import type { ReviewPolicy } from '../domain/tasks.js';
import type { FeedbackItem } from './feedback.js';
import type { Counters, JudgeSettings } from './judge-inputs.js';
import type { Verdict } from './judge.js';
import type { Baseline } from './observe.js';
import type { AgentRun } from './port-data.js';
import type { Termination } from './termination.js';
import { countOf, withCount } from '../domain/keyed-counts.js';

/** The settings the loop runs by: the judge's limits, and its own. */
export interface LoopSettings extends JudgeSettings {
  /** Iterations this run may start (usage-limited ones do not count). */
  maxIterations: number;
  /** The number of this run's first iteration (numbers continue across runs). */
  firstIteration: number;
  /** The feedback section's cap in a prompt; longer feedback goes to a file. */
  maxFeedbackBytes: number;
  /** Run the quality gates on a COMPLETE claim only, or also after every iteration that committed. */
  gatesWhen: 'complete' | 'commit';
  /** The branch the run switched to: every prompt names it. */
  branch?: string;
  /** The task list's file when it is not ralph/tasks.json (`--tasks`): every prompt names it. */
  taskFile?: string;
}

/** What a run did, for the summary block and last-run.json. */
export interface LoopResult {
  termination: Termination;
  /** Iterations this run started. */
  iterations: number;
  /** Iterations of this run that made no commit. */
  stuckIterations: number;
  stories: { complete: number; total: number };
  costUsd: number;
  /** Repetition detections per tool. */
  repetitions: Record<string, number>;
}

/** Everything the loop carries from one iteration to the next. */
export interface LoopState extends Baseline {
  counters: Counters;
  stuckIterations: number;
  feedback: FeedbackItem[];
  repetitions: Record<string, number>;
  started: number;
  /** The human's answer in decide.txt was pointed out once this run (the agent deletes the file). */
  decideDelivered: boolean;
}

/** What counts as complete: with reviews, only approvals a review iteration made. */
export function policyOf({ review }: LoopSettings, { unconfirmed }: LoopState): ReviewPolicy {
  return { review, unconfirmed };
}

/**
 * Carries the judge's ruling into the next iteration: its counters, its feedback, the strikes and
 * repetitions so far.
 */
export function carryOver(state: LoopState, verdict: Verdict, run: AgentRun): void {
  // A strike, not just a missing commit: usage-limited iterations and endings are no strike.
  if (verdict.counters.stuck > state.counters.stuck) state.stuckIterations++;
  state.counters = verdict.counters;
  state.feedback = verdict.feedback;
  if (run.stoppedBy?.cause === 'repetition') {
    const { tool } = run.stoppedBy.repetition;
    state.repetitions = withCount(state.repetitions, tool, countOf(state.repetitions, tool) + 1);
  }
}
