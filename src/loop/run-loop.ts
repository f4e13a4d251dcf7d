import { countStories, openStories, type ReviewPolicy, type TaskList } from '../domain/tasks.js';
import { startingUnconfirmed } from './approvals.js';
import { buildPrompt, feedbackPreview, renderFeedback, type FeedbackItem } from './feedback.js';
import { isVerifiedComplete, judgeIteration, type Verdict } from './judge.js';
import { INITIAL_COUNTERS, type Counters, type IterationFacts, type JudgeSettings } from './judge-inputs.js';
import { chooseMode, type ModeChoice } from './mode.js';
import { renderModeSection } from './mode-section.js';
import { observeIteration, type Baseline } from './observe.js';
import type { LoopPorts } from './ports.js';
import type { GateTrigger, IterationRow } from './port-data.js';
import { readPosition } from './progress.js';
import type { Termination } from './termination.js';
import { isoSeconds } from './time.js';

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
interface LoopState extends Baseline {
  counters: Counters;
  stuckIterations: number;
  feedback: FeedbackItem[];
  repetitions: Record<string, number>;
  started: number;
  /** The human's answer in decide.txt was pointed out once this run (the agent deletes the file). */
  decideDelivered: boolean;
}

/**
 * The loop: one fresh agent per iteration until the task list is done, the agent asks for a
 * human, no commit comes for too long, or a budget runs out.
 */
export async function runLoop(settings: LoopSettings, ports: LoopPorts, tasks: TaskList, unconfirmed: readonly string[] = []): Promise<LoopResult> {
  const deadline = ports.clock.now() + settings.maxRuntimeMs;
  const baseline = { tasks, accepted: await readPosition(ports.git), unconfirmed: startingUnconfirmed(unconfirmed, tasks) };
  const state: LoopState = { ...baseline, counters: INITIAL_COUNTERS, stuckIterations: 0, feedback: [], repetitions: {}, started: 0, decideDelivered: false };
  const result = (termination: Termination): LoopResult => ({
    termination,
    iterations: state.started,
    stuckIterations: state.stuckIterations,
    stories: countStories(state.tasks, policyOf(settings, state)),
    costUsd: state.counters.costUsd,
    repetitions: state.repetitions,
  });

  if (openStories(tasks, policyOf(settings, state)).length === 0) {
    // Nothing left to do: only the project's own checks can still say otherwise.
    const verdict = await ports.gates?.check({ iteration: settings.firstIteration, trigger: 'start' });
    if (!verdict || verdict.passed) return result({ reason: 'complete' });
    if (verdict.interrupted) return result({ reason: 'interrupted', signal: ports.interrupts.received() ?? 'SIGINT' });
    state.feedback = [{ kind: 'gates_blocked', event: verdict.event }];
  }
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
  const { agent, clock, files, report } = ports;
  const choice = chooseMode(state.tasks, policyOf(settings, state));
  const { mode, story } = choice;
  await files.snapshotTasks();
  const active = { iteration, maxIterations: settings.maxIterations, stuckCount: state.counters.stuck, mode, ...(settings.review ? {} : { review: false }) };
  await files.writeActive({ ...active, ...(story ? { story: story.id } : {}) });
  report.iterationStarted({
    iteration,
    index: counted,
    maxIterations: settings.maxIterations,
    mode,
    stories: countStories(state.tasks, policyOf(settings, state)),
    ...(story ? { story: { id: story.id, title: story.title } } : {}),
  });

  const prompt = await promptFor(iteration, choice, settings, ports, state);
  const startedAt = clock.now();
  const run = await agent.run({ iteration, prompt, deadline });
  const endedAt = clock.now();
  const { accepted, commit, ...observed } = await observeIteration(state, choice, settings.review, ports);
  Object.assign(state, { accepted, unconfirmed: observed.unconfirmed }, observed.tasks.ok ? { tasks: observed.tasks.tasks } : {});
  const claim = { run, ...observed };
  const gates = await checkGates(iteration, claim, observed.committed, settings, ports);
  const reviewCap = mode === 'review' && story ? await countReview(story.id, state.tasks, settings, ports) : undefined;

  const verdict = judgeIteration(
    { ...claim, now: endedAt, deadline, ...(gates ? { gates } : {}), ...(reviewCap ? { reviewCap } : {}) },
    state.counters,
    settings,
  );
  // A strike, not just a missing commit: usage-limited iterations and endings are no strike.
  if (verdict.counters.stuck > state.counters.stuck) state.stuckIterations++;
  state.counters = verdict.counters;
  state.feedback = verdict.feedback;
  if (run.stoppedBy?.cause === 'repetition') {
    const { tool } = run.stoppedBy.repetition;
    state.repetitions[tool] = (state.repetitions[tool] ?? 0) + 1;
  }
  if (verdict.rejectedComplete) report.completeRejected({ remaining: verdict.rejectedComplete });
  if (verdict.termination?.reason === 'blocked') await files.writeBlocked({ iteration, at: endedAt, reason: verdict.termination.message });
  if (verdict.termination?.reason === 'decide') await files.writeDecide({ iteration, at: endedAt, question: verdict.termination.question });

  const stories = countStories(state.tasks, policyOf(settings, state));
  const row: IterationRow = {
    iteration,
    mode,
    durationSeconds: Math.round((endedAt - startedAt) / 100) / 10,
    commitHash: commit ?? '',
    storiesComplete: stories.complete,
    storiesTotal: stories.total,
    stuckCount: verdict.counters.stuck,
    timestamp: isoSeconds(endedAt),
    outcome: verdict.outcome,
    agentExitCode: run.exitCode,
    stats: run.stats,
  };
  await files.appendRow(row);
  report.iterationFinished({ row, committed: observed.committed, ...(run.failure ? { failure: run.failure } : {}), ...(run.stoppedBy ? { stoppedBy: run.stoppedBy } : {}) });
  return verdict;
}

/** What counts as complete: with reviews, only approvals a review iteration made. */
function policyOf({ review }: LoopSettings, { unconfirmed }: LoopState): ReviewPolicy {
  return { review, unconfirmed };
}

/** Runs the quality gates when the iteration earned it: a verified COMPLETE claim, or (gatesWhen commit) a commit. */
async function checkGates(
  iteration: number,
  claim: Parameters<typeof isVerifiedComplete>[0],
  committed: boolean,
  settings: LoopSettings,
  { gates, interrupts }: LoopPorts,
): Promise<IterationFacts['gates']> {
  // A claim stands on its work, even when a time limit stopped the agent afterwards; an interrupt judges nothing.
  if (!gates || claim.run.stoppedBy?.cause === 'interrupt' || interrupts.received()) return undefined;
  const trigger: GateTrigger | undefined = isVerifiedComplete(claim, settings)
    ? 'complete'
    : settings.gatesWhen === 'commit' && committed
      ? 'commit'
      : undefined;
  return trigger && { trigger, verdict: await gates.check({ iteration, trigger }) };
}

/**
 * After a review iteration: when the review sent the story back, ralph's own count for it goes
 * up (the agent's reviewCount is informational); at --max-reviews a human must look.
 */
async function countReview(storyId: string, tasks: TaskList, settings: LoopSettings, { files }: LoopPorts): Promise<IterationFacts['reviewCap']> {
  const reviewed = tasks.stories.find((story) => story.id === storyId);
  if (reviewed?.reviewStatus !== 'changes_requested') return undefined;
  const count = await files.recordReviewRejection(storyId);
  if (count < settings.maxReviews) return undefined;
  return { id: storyId, count, ...(reviewed.reviewFeedback ? { feedback: reviewed.reviewFeedback } : {}) };
}

/** The prompt: the user's prompt, the mode's guide, and the feedback (which goes to a file when it is over the cap). */
async function promptFor(iteration: number, choice: ModeChoice, settings: LoopSettings, { files }: LoopPorts, state: LoopState): Promise<string> {
  const decideAnswered = !state.decideDelivered && (await files.decideState()) === 'answered';
  state.decideDelivered ||= decideAnswered;
  let section = renderFeedback(state.feedback, decideAnswered);
  if (Buffer.byteLength(section) > settings.maxFeedbackBytes) {
    const path = await files.writeFeedback(iteration, section);
    section = feedbackPreview(section, path, Math.floor(settings.maxFeedbackBytes / 2));
  }
  const guide = choice.mode === 'implement' && !choice.story ? 'finish' : choice.mode;
  const policy = settings.review ? await files.readModeGuide('review-policy') : '';
  const modeSection = renderModeSection(await files.readModeGuide(guide), choice, policy);
  const branch = settings.branch ? `${branchLine(settings.branch)}\n\n` : '';
  return buildPrompt(await files.readPrompt(), `${branch}${modeSection}`, section);
}

/** Where the work goes: ralph put the work tree on the task list's branch, and it must stay there. */
export function branchLine(branch: string): string {
  return `**Branch:** you are on \`${branch}\`, the task list's branch. Commit there; do not switch, create or reset branches.`;
}
