// What the loop writes down about an iteration: its start (the active state, the snapshot, the
// reporter) and its end (the signal files, the summary row, the reporter).
import type { Verdict } from './judge.js';
import type { LoopSettings } from './loop-state.js';
import type { ModeChoice } from './mode.js';
import type { LoopPorts } from './ports.js';
import type { AgentRun, IterationRow } from './port-data.js';
import type { Position } from './progress.js';
import { isoSeconds } from './time.js';

/** Announces an iteration: tasks.json set aside for the Stop hook, `.ralph-active`, the reporter. */
export async function recordStart(
  start: {
    iteration: number;
    counted: number;
    choice: ModeChoice;
    stuckCount: number;
    stories: { complete: number; total: number };
    /** The stories approved as ralph sees the list now. */
    approved: readonly string[];
  },
  settings: LoopSettings,
  { files, report }: LoopPorts,
): Promise<void> {
  const {
    iteration,
    choice: { mode, story },
  } = start;
  await files.snapshotTasks();
  await files.recordSeenApprovals(start.approved);
  const active = {
    iteration,
    thisRun: start.counted + 1,
    maxIterations: settings.maxIterations,
    stuckCount: start.stuckCount,
    mode,
    ...(settings.review ? {} : { review: false }),
  };
  await files.writeActive({ ...active, ...(story ? { story: story.id } : {}) });
  report.iterationStarted({
    iteration,
    index: start.counted,
    maxIterations: settings.maxIterations,
    mode,
    stories: start.stories,
    ...(story ? { story: { id: story.id, title: story.title } } : {}),
  });
}

/** What an iteration ended with, for its records. */
export interface IterationEnd {
  iteration: number;
  choice: ModeChoice;
  run: AgentRun;
  /** How long the agent ran, by the monotonic clock. */
  durationMs: number;
  /** When it ended, by the wall clock. */
  endedAt: number;
  /** HEAD after the iteration, when it moved forward on the branch. */
  commit?: string;
  /** Where HEAD stood before the iteration: the last position the loop accepted. */
  before: Position;
  committed: boolean;
  verdict: Verdict;
  stories: { complete: number; total: number };
  /** Where the iteration began, for the task list's pace: its monotonic start and the stories complete then. */
  pace: { startedAt: number; storiesBefore: number; firstOfRun: boolean };
}

/**
 * Records an iteration's end: its commit, a rejected claim, blocked.txt or decide.txt, the iteration's
 * row (heard by the listeners, summary.csv's among them), its pace.
 */
export async function recordEnd(end: IterationEnd, { files, report, clock }: LoopPorts): Promise<void> {
  const { iteration, run, verdict, endedAt } = end;
  // First, before anything the agent's files could make fail: the commit is the loop's own.
  if (end.commit) await files.recordHead({ branch: end.before.branch, from: end.before.head, to: end.commit });
  if (verdict.rejectedComplete) report.completeRejected({ remaining: verdict.rejectedComplete });
  if (verdict.termination?.reason === 'blocked')
    await files.writeBlocked({ iteration, at: endedAt, reason: verdict.termination.message });
  if (verdict.termination?.reason === 'decide')
    await files.writeDecide({ iteration, at: endedAt, question: verdict.termination.question });
  const row: IterationRow = {
    iteration,
    mode: end.choice.mode,
    durationSeconds: Math.round(end.durationMs / 100) / 10,
    commitHash: end.commit ?? '',
    storiesComplete: end.stories.complete,
    storiesTotal: end.stories.total,
    stuckCount: verdict.counters.stuck,
    timestamp: isoSeconds(endedAt),
    outcome: verdict.outcome,
    agentExitCode: run.exitCode,
    stats: run.stats,
    ...(run.agent ? { agent: run.agent } : {}),
    ...(end.choice.story ? { story: end.choice.story.id } : {}),
  };
  // Awaited: summary.csv's row is written by a listener of this event, and is on disk before the
  // pace, the next iteration or the ending.
  await report.iterationFinished({
    row,
    committed: end.committed,
    ...(run.failure ? { failure: run.failure } : {}),
    ...(run.stoppedBy ? { stoppedBy: run.stoppedBy } : {}),
  });
  await files.recordPace({
    storiesBefore: end.pace.storiesBefore,
    storiesAfter: end.stories.complete,
    counted: verdict.outcome !== 'usage_limit',
    seconds: (clock.monotonic() - end.pace.startedAt) / 1000,
    ...(run.stats.costUsd === undefined ? {} : { costUsd: run.stats.costUsd }),
    ...(run.usage ? { usage: run.usage } : {}),
    firstOfRun: end.pace.firstOfRun,
  });
}
