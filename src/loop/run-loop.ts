import { countStories, openStories, type TaskList } from '../files/tasks.js';
import { buildPrompt, feedbackPreview, renderFeedback, type FeedbackItem } from './feedback.js';
import { INITIAL_COUNTERS, judgeIteration, type Counters, type JudgeSettings, type Verdict } from './judge.js';
import type { IterationRow, LoopPorts, Mode } from './ports.js';
import { hasNewCommit } from './stuck.js';
import type { Termination } from './termination.js';
import { isoSeconds } from './time.js';

export interface LoopSettings extends JudgeSettings {
  /** Iterations this run may start (usage-limited ones do not count). */
  maxIterations: number;
  /** The number of this run's first iteration (numbers continue across runs). */
  firstIteration: number;
  /** The feedback section's cap in a prompt; longer feedback goes to a file. */
  maxFeedbackBytes: number;
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
interface LoopState {
  tasks: TaskList;
  counters: Counters;
  stuckIterations: number;
  feedback: FeedbackItem[];
  repetitions: Record<string, number>;
  started: number;
}

/**
 * The loop: one fresh agent per iteration until the task list is done, the agent asks for a
 * human, no commit comes for too long, or a budget runs out.
 */
export async function runLoop(settings: LoopSettings, ports: LoopPorts, tasks: TaskList): Promise<LoopResult> {
  const deadline = ports.clock.now() + settings.maxRuntimeMs;
  const state: LoopState = { tasks, counters: INITIAL_COUNTERS, stuckIterations: 0, feedback: [], repetitions: {}, started: 0 };
  const result = (termination: Termination): LoopResult => ({
    termination,
    iterations: state.started,
    stuckIterations: state.stuckIterations,
    stories: countStories(state.tasks),
    costUsd: state.counters.costUsd,
    repetitions: state.repetitions,
  });

  if (openStories(tasks).length === 0) return result({ reason: 'complete' });
  let counted = 0;
  while (counted < settings.maxIterations) {
    const signal = ports.interrupts.received();
    if (signal) return result({ reason: 'interrupted', signal });
    if (ports.clock.now() >= deadline) return result({ reason: 'max_runtime', limitMs: settings.maxRuntimeMs });

    const verdict = await runIteration(settings.firstIteration + state.started, counted, deadline, settings, ports, state);
    state.started++;
    if (verdict.termination) return result(verdict.termination);
    if (verdict.outcome !== 'usage_limit') counted++;
    if (verdict.wait) {
      const endDisplay = ports.report.usageLimitWait(verdict.wait);
      const waitMs = verdict.wait.until - ports.clock.now();
      if (waitMs > 0) await ports.clock.sleep(waitMs, ports.interrupts.graceful);
      endDisplay();
    }
  }
  return result({ reason: 'max_iterations' });
}

/** One iteration: prompt, agent, observe, judge, record. */
async function runIteration(
  iteration: number,
  counted: number,
  deadline: number,
  settings: LoopSettings,
  ports: LoopPorts,
  state: LoopState,
): Promise<Verdict> {
  const { agent, clock, files, git, report } = ports;
  const mode: Mode = 'implement';
  const next = openStories(state.tasks)[0];
  await files.writeActive({ iteration, maxIterations: settings.maxIterations, stuckCount: state.counters.stuck, mode });
  report.iterationStarted({
    iteration,
    index: counted,
    maxIterations: settings.maxIterations,
    mode,
    stories: countStories(state.tasks),
    nextStory: next && { id: next.id, title: next.title },
  });

  const prompt = await promptFor(iteration, settings, ports, state.feedback);
  const storiesBefore = state.tasks.stories.map((story) => story.id);
  const headBefore = await git.head();
  const startedAt = clock.now();
  const run = await agent.run({ iteration, prompt, deadline });
  const endedAt = clock.now();
  const headAfter = await git.head();
  const committed = hasNewCommit(headBefore, headAfter);
  const tasks = await files.readTasks();
  if (tasks.ok) state.tasks = tasks.tasks;

  const verdict = judgeIteration({ run, committed, tasks, storiesBefore, now: endedAt, deadline }, state.counters, settings);
  state.counters = verdict.counters;
  state.feedback = verdict.feedback;
  if (!committed) state.stuckIterations++;
  if (run.stoppedBy?.cause === 'repetition') {
    const { tool } = run.stoppedBy.repetition;
    state.repetitions[tool] = (state.repetitions[tool] ?? 0) + 1;
  }
  if (verdict.rejectedComplete) report.completeRejected({ remaining: verdict.rejectedComplete });
  if (verdict.termination?.reason === 'blocked') await files.writeBlocked({ iteration, at: endedAt, reason: verdict.termination.message });
  if (verdict.termination?.reason === 'decide') await files.writeDecide({ iteration, at: endedAt, question: verdict.termination.question });

  const stories = countStories(state.tasks);
  const row: IterationRow = {
    iteration,
    mode,
    durationSeconds: Math.round((endedAt - startedAt) / 100) / 10,
    commitHash: committed && headAfter ? headAfter : '',
    storiesComplete: stories.complete,
    storiesTotal: stories.total,
    stuckCount: verdict.counters.stuck,
    timestamp: isoSeconds(endedAt),
    outcome: verdict.outcome,
    agentExitCode: run.exitCode,
    stats: run.stats,
  };
  await files.appendRow(row);
  report.iterationFinished({ row, committed, ...(run.failure ? { failure: run.failure } : {}), ...(run.stoppedBy ? { stoppedBy: run.stoppedBy } : {}) });
  return verdict;
}

/** The prompt: the user's prompt and the feedback, which goes to a file when it is over the cap. */
async function promptFor(iteration: number, settings: LoopSettings, { files }: LoopPorts, feedback: FeedbackItem[]): Promise<string> {
  let section = renderFeedback(feedback, (await files.decideState()) === 'answered');
  if (Buffer.byteLength(section) > settings.maxFeedbackBytes) {
    const path = await files.writeFeedback(iteration, section);
    section = feedbackPreview(section, path, Math.floor(settings.maxFeedbackBytes / 2));
  }
  return buildPrompt(await files.readPrompt(), section);
}
