import type { PromiseSignals } from '../agent/promise-tags.js';
import { countStories, openStories, type TaskList } from '../files/tasks.js';
import { buildPrompt, type FeedbackItem } from './feedback.js';
import type { IterationRow, LoopPorts, Mode } from './ports.js';
import { hasNewCommit, nextStuckCount } from './stuck.js';
import type { Termination } from './termination.js';
import { isoSeconds } from './time.js';

export interface LoopSettings {
  /** Iterations this run may start. */
  maxIterations: number;
  /** Consecutive iterations without a commit that end the run. */
  maxStuck: number;
  /** The number of this run's first iteration (numbers continue across runs). */
  firstIteration: number;
}

/** What a run did, for the summary block and last-run.json. */
export interface LoopResult {
  termination: Termination;
  /** Iterations this run started. */
  iterations: number;
  /** Iterations of this run that made no commit. */
  stuckIterations: number;
  stories: { complete: number; total: number };
}

/** Everything the loop carries from one iteration to the next. */
interface LoopState {
  tasks: TaskList;
  stuckCount: number;
  stuckIterations: number;
  feedback: FeedbackItem[];
}

/**
 * The loop: one fresh agent per iteration until the task list is done, the agent asks for a
 * human, no commit comes for too long, or the iteration budget runs out.
 */
export async function runLoop(settings: LoopSettings, ports: LoopPorts, tasks: TaskList): Promise<LoopResult> {
  const state: LoopState = { tasks, stuckCount: 0, stuckIterations: 0, feedback: [] };
  const result = (termination: Termination, iterations: number): LoopResult => ({
    termination,
    iterations,
    stuckIterations: state.stuckIterations,
    stories: countStories(state.tasks),
  });

  if (openStories(tasks).length === 0) return result({ reason: 'complete' }, 0);

  for (let index = 0; index < settings.maxIterations; index++) {
    const signal = ports.interrupts.received();
    if (signal) return result({ reason: 'interrupted', signal }, index);
    const termination = await runIteration(settings.firstIteration + index, index, settings, ports, state);
    if (termination) return result(termination, index + 1);
  }
  return result({ reason: 'max_iterations' }, settings.maxIterations);
}

/** One iteration: prompt, agent, observe, record. Returns how the run ends, if it does. */
async function runIteration(
  iteration: number,
  index: number,
  settings: LoopSettings,
  ports: LoopPorts,
  state: LoopState,
): Promise<Termination | undefined> {
  const { agent, clock, files, git, report } = ports;
  const mode: Mode = 'implement';
  const next = openStories(state.tasks)[0];
  await files.writeActive({ iteration, maxIterations: settings.maxIterations, stuckCount: state.stuckCount, mode });
  report.iterationStarted({
    iteration,
    index,
    maxIterations: settings.maxIterations,
    mode,
    stories: countStories(state.tasks),
    nextStory: next && { id: next.id, title: next.title },
  });

  const prompt = buildPrompt(await files.readPrompt(), state.feedback, (await files.decideState()) === 'answered');
  const headBefore = await git.head();
  const startedAt = clock.now();
  const run = await agent.run({ iteration, prompt });
  const endedAt = clock.now();
  const headAfter = await git.head();

  const committed = hasNewCommit(headBefore, headAfter);
  state.stuckCount = nextStuckCount(state.stuckCount, committed);
  if (!committed) state.stuckIterations++;
  state.feedback = [];
  const parsed = await files.readTasks();
  if (parsed.ok) state.tasks = parsed.tasks;
  else state.feedback.push({ kind: 'tasks_invalid', error: parsed.error });

  const termination = run.interrupted
    ? ({ reason: 'interrupted', signal: run.interrupted } as const)
    : await judge(run.signals, iteration, endedAt, parsed.ok, settings, ports, state);

  const stories = countStories(state.tasks);
  const row: IterationRow = {
    iteration,
    mode,
    durationSeconds: Math.round((endedAt - startedAt) / 100) / 10,
    commitHash: committed && headAfter ? headAfter : '',
    storiesComplete: stories.complete,
    storiesTotal: stories.total,
    stuckCount: state.stuckCount,
    timestamp: isoSeconds(endedAt),
  };
  await files.appendRow(row);
  report.iterationFinished({ row, exitCode: run.exitCode, committed });
  return termination;
}

/**
 * Decides what the agent's signals mean once the iteration is over. Precedence: a verified
 * COMPLETE, then BLOCKED, then DECIDE, then the stuck limit.
 */
async function judge(
  signals: PromiseSignals,
  iteration: number,
  at: number,
  tasksValid: boolean,
  settings: LoopSettings,
  { files, report }: LoopPorts,
  state: LoopState,
): Promise<Termination | undefined> {
  if (signals.invalid.length > 0) state.feedback.push({ kind: 'invalid_tags', tags: signals.invalid });
  if (signals.complete) {
    const remaining = openStories(state.tasks).map(({ id, title }) => ({ id, title }));
    if (tasksValid && remaining.length === 0) return { reason: 'complete' };
    report.completeRejected({ remaining });
    state.feedback.push({ kind: 'complete_rejected', remaining });
  }
  if (signals.blocked !== undefined) {
    await files.writeBlocked({ iteration, at, reason: signals.blocked });
    return { reason: 'blocked', message: signals.blocked };
  }
  if (signals.decide !== undefined) {
    await files.writeDecide({ iteration, at, question: signals.decide });
    return { reason: 'decide', question: signals.decide };
  }
  if (state.stuckCount >= settings.maxStuck) return { reason: 'stuck', stuckCount: state.stuckCount };
  return undefined;
}
