import type { ResetSource } from '../domain/usage.js';
import type { LoopResult } from './loop-state.js';
import { detailOf, exitCodeFor, type Ending, type Reason } from './termination.js';

/**
 * What every report of an ending says — the exit code, the summary block, last-run.json, the CI
 * outputs and annotation all read it, so they cannot disagree.
 */
export interface EndingRecord {
  reason: Reason;
  exitCode: number;
  /** The blocked reason, the decide question, or what stopped the run. */
  detail?: string;
  /** When a usage limit resets (usage_limit endings). */
  resetsAt?: string;
  /** Which evidence the reset came from (usage_limit endings): event, epoch, dated, retry_after, clock or backoff. */
  resetSource?: ResetSource;
}

/** The one mapping from an ending to its record. */
export function recordOf(ending: Ending): EndingRecord {
  const detail = detailOf(ending);
  return {
    reason: ending.reason,
    exitCode: exitCodeFor(ending),
    ...(detail === undefined ? {} : { detail }),
    ...(ending.reason === 'usage_limit' && ending.resetsAt !== undefined
      ? { resetsAt: new Date(ending.resetsAt).toISOString() }
      : {}),
    ...(ending.reason === 'usage_limit' ? { resetSource: ending.resetSource } : {}),
  };
}

/** What a run did before it ended: nothing yet for a start refused under the lock. */
export type RunProgress = Omit<LoopResult, 'termination'>;

/** The progress of a run that ended before its loop started. */
export function noProgress(stories: { complete: number; total: number } = { complete: 0, total: 0 }): RunProgress {
  return { iterations: 0, stuckIterations: 0, stories, costUsd: 0, repetitions: {} };
}

/** The facts of a finished run: the summary block and last-run.json say the same things. */
export interface RunReport extends EndingRecord {
  iterations: number;
  maxIterations: number;
  firstIteration: number | null;
  lastIteration: number | null;
  startedAt: string;
  endedAt: string;
  durationSeconds: number;
  avgIterationSeconds: number;
  stories: { complete: number; total: number };
  stuckIterations: number;
  /** The agents' summed total_cost_usd (stream-json). */
  costUsd: number;
  /** Repetition detections per tool. */
  repetitions: Record<string, number>;
  /** Processes ralph ended after they left the agent's or a gate's process group (Linux; 0 elsewhere). */
  strayProcessesEnded: number;
  /** How the run kept its processes (`cgroup`, `marker`, `process group only`) and why. */
  containment?: { mode: string; reason: string };
  /** The OS box around the agent and the gates (`bubblewrap`, `seatbelt`, `none`) and why. */
  box?: { mode: string; reason: string };
  /** The first line of the agent's `--version` (`2.1.197 (<client>)`), when it said one. */
  agentVersion?: string;
  /** Iterations and cost per agent kind, when more than one ran (`--fallback-agent`). */
  agents?: Record<string, AgentShare>;
  /** The run's own flags (no secret, nothing one-shot): what `ralph answer --run` parses and replays. */
  runArgs?: string[];
  /** The iteration limit of the run those flags are (a refused start keeps the asker's): a replay goes no higher. */
  replayMaxIterations?: number;
  /** Notifications that failed or timed out (--notify; absent without a target). */
  notificationsFailed?: number;
}

/** One agent kind's part of a run. */
export interface AgentShare {
  iterations: number;
  /** What its calls cost, when it reports cost. */
  costUsd?: number;
}

/**
 * Builds the report of a run from its ending, what it did, and the clocks: the wall clock's
 * instants for the timestamps, the monotonic clock's measure for the durations (a wall clock set
 * back or forward mid-run would make them negative or hours long).
 */
export function buildRunReport(
  ending: Ending,
  result: RunProgress,
  run: {
    startedAt: number;
    endedAt: number;
    /** The run's length by the monotonic clock. */
    durationMs: number;
    firstIteration: number;
    maxIterations: number;
    strayProcessesEnded: number;
    containment?: { mode: string; reason: string };
    box?: { mode: string; reason: string };
  },
): RunReport {
  const { durationMs } = run;
  const { resetsAt, ...record } = recordOf(ending);
  return {
    ...record,
    iterations: result.iterations,
    maxIterations: run.maxIterations,
    firstIteration: result.iterations > 0 ? run.firstIteration : null,
    lastIteration: result.iterations > 0 ? run.firstIteration + result.iterations - 1 : null,
    startedAt: new Date(run.startedAt).toISOString(),
    endedAt: new Date(run.endedAt).toISOString(),
    durationSeconds: Math.round(durationMs / 1000),
    avgIterationSeconds: result.iterations > 0 ? Math.round(durationMs / 1000 / result.iterations) : 0,
    stories: result.stories,
    stuckIterations: result.stuckIterations,
    costUsd: Math.round(result.costUsd * 1e6) / 1e6,
    repetitions: result.repetitions,
    strayProcessesEnded: run.strayProcessesEnded,
    ...(run.containment ? { containment: run.containment } : {}),
    ...(run.box ? { box: run.box } : {}),
    ...(resetsAt === undefined ? {} : { resetsAt }),
  };
}
