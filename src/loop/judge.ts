import { openStories, type ReviewPolicy, type TaskList, type TasksParse } from '../files/tasks.js';
import type { FeedbackItem, UnfinishedStory } from './feedback.js';
import { outcomeOf, wasStoppedByRalph } from './outcome.js';
import type { ExhaustedCause } from '../agent/usage-limit.js';
import { windowOverShare } from '../agent/usage-windows.js';
import type { AgentRun, GateTrigger, GateVerdict, Outcome, Wait } from './ports.js';
import type { Termination } from './termination.js';
import type { UsageLimitStop } from './usage-limit-ending.js';

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
}

export const INITIAL_COUNTERS: Counters = { stuck: 0, agentFailures: 0, validationFailures: 0, usageLimits: 0, gateFailures: 0, costUsd: 0 };

/** What an iteration did, as the judge sees it. */
export interface IterationFacts {
  run: AgentRun;
  committed: boolean;
  /** tasks.json after the iteration. */
  tasks: TasksParse;
  /** The story ids before the iteration (stories must never disappear). */
  storiesBefore: readonly string[];
  now: number;
  /** When --max-runtime is up (epoch ms). */
  deadline: number;
  /** The quality gates, when they ran after this iteration, and why. */
  gates?: { trigger: GateTrigger; verdict: GateVerdict };
  /** A story review sent back --max-reviews times: a human must look. */
  reviewCap?: { id: string; count: number; feedback?: string };
}

/** The judge's ruling on one iteration. */
export interface Verdict {
  outcome: Outcome;
  counters: Counters;
  feedback: FeedbackItem[];
  termination?: Termination;
  /** The agent said COMPLETE, but these stories still fail. */
  rejectedComplete?: UnfinishedStory[];
  /** A pause before the next iteration: a usage limit (the limited iteration does not count), --max-usage, a busy server. */
  wait?: Wait;
}

/** One minute after the announced reset, so the first call after the wait is not refused again. */
const RESET_MARGIN_MS = 60_000;
const BACKOFF_BASE_MS = 5 * 60_000;
const BACKOFF_CAP_MS = 60 * 60_000;
/** A throttled or overloaded server: a short pause, doubling, before the next attempt. */
const BUSY_BASE_MS = 30_000;
const BUSY_CAP_MS = 10 * 60_000;

/**
 * Rules on an iteration: updates the counters, gathers the feedback for the next prompt, and
 * decides whether the run ends. When several endings arrive together the first of this order
 * wins: interrupted, complete, blocked, decide, agent_auth, agent_setup, usage_limit, max_cost,
 * max_runtime, agent_failures, validation_failures, quality_gate_exhausted, stuck (max_iterations
 * is the loop's).
 */
export function judgeIteration(facts: IterationFacts, previous: Counters, settings: JudgeSettings): Verdict {
  const outcome = outcomeOf(facts.run);
  const findings = findIssues(facts, settings);
  const verdict: Verdict = {
    outcome,
    counters: nextCounters(facts, previous, outcome, findings),
    feedback: findings.feedback,
    ...(findings.rejectedComplete ? { rejectedComplete: findings.rejectedComplete } : {}),
  };
  return decideEnding(facts, settings, verdict, findings);
}

/** What an iteration claimed and what it got wrong. */
interface Findings {
  feedback: FeedbackItem[];
  /** Broken rules, each of which makes the iteration a validation failure. */
  problems: string[];
  /** COMPLETE was claimed, tasks.json agrees, and the gates, if they ran on the claim, passed. */
  complete: boolean;
  /** The agent said COMPLETE, but these stories still fail. */
  rejectedComplete?: UnfinishedStory[];
  /** The gates judged a COMPLETE claim (an interrupt stopping them judged nothing). */
  claimChecked: boolean;
  /** What blocked the gates, when they failed. */
  gateEvent?: string;
}

/** The problems and the feedback for the next prompt, and whether a COMPLETE claim holds. */
function findIssues(facts: IterationFacts, settings: JudgeSettings): Findings {
  const { run } = facts;
  const feedback: FeedbackItem[] = [];
  const problems: string[] = [];
  const tasks = facts.tasks.ok ? facts.tasks.tasks : undefined;

  if (!facts.tasks.ok) {
    problems.push(`ralph/tasks.json is not valid: ${facts.tasks.error}`);
    feedback.push({ kind: 'tasks_invalid', error: facts.tasks.error });
  }
  const removed = tasks ? removedStories(facts.storiesBefore, tasks) : [];
  if (removed.length > 0) {
    problems.push(`stories removed from ralph/tasks.json: ${removed.join(', ')}`);
    feedback.push({ kind: 'stories_removed', ids: removed });
  }
  if (run.signals.invalid.length > 0) {
    problems.push(`promise tags that are no signal: ${run.signals.invalid.join(', ')}`);
    feedback.push({ kind: 'invalid_tags', tags: run.signals.invalid });
  }
  let complete = false;
  let rejectedComplete: UnfinishedStory[] | undefined;
  if (run.signals.complete) {
    const remaining: UnfinishedStory[] = tasks
      ? openStories(tasks, settings).map(({ id, title, passes }) => ({ id, title, why: passes ? 'unreviewed' : 'failing' }))
      : [];
    complete = isVerifiedComplete(facts, settings);
    if (!complete) {
      rejectedComplete = remaining;
      problems.push(`COMPLETE claimed while stories still fail: ${remaining.map((story) => story.id).join(', ') || 'tasks.json is not valid'}`);
      feedback.push({ kind: 'complete_rejected', remaining });
    }
  }
  if (run.truncated) {
    problems.push('the output stream ended without a result (cut off)');
    feedback.push({ kind: 'truncated' });
  }
  if (run.stoppedBy?.cause === 'repetition') feedback.push({ kind: 'repetition', repetition: run.stoppedBy.repetition });
  if (run.stoppedBy?.cause === 'timeout') feedback.push({ kind: 'time_limit', limit: 'iteration' });
  if (run.stoppedBy?.cause === 'idle_timeout') feedback.push({ kind: 'time_limit', limit: 'idle' });
  if (run.failure?.kind === 'error') feedback.push({ kind: 'agent_failed', lines: run.failure.lines.slice(-8) });
  const gateVerdict = facts.gates?.verdict;
  const gateEvent = gateVerdict && !gateVerdict.passed && !gateVerdict.interrupted ? gateVerdict.event : undefined;
  if (gateEvent !== undefined) feedback.push({ kind: 'gates_blocked', event: gateEvent });
  // A claim the gates rejected is no completion; it counts toward --max-gate-failures, not as a
  // validation failure. Gates stopped by an interrupt judged nothing.
  const claimChecked = facts.gates?.trigger === 'complete' && (gateVerdict?.passed === true || gateEvent !== undefined);
  if (facts.gates?.trigger === 'complete' && gateVerdict?.passed !== true) complete = false;

  return {
    feedback,
    problems,
    complete,
    ...(rejectedComplete ? { rejectedComplete } : {}),
    claimChecked,
    ...(gateEvent === undefined ? {} : { gateEvent }),
  };
}

/** The counters after this iteration. */
function nextCounters(facts: IterationFacts, previous: Counters, outcome: Outcome, { problems, claimChecked, gateEvent }: Findings): Counters {
  const limited = outcome === 'usage_limit';
  return {
    // A usage-limited iteration is no strike; a commit is progress however the iteration ended.
    stuck: facts.committed ? 0 : limited ? previous.stuck : previous.stuck + 1,
    agentFailures: outcome === 'agent_error' ? previous.agentFailures + 1 : outcome === 'ok' ? 0 : previous.agentFailures,
    validationFailures: wasStoppedByRalph(outcome) || limited ? previous.validationFailures : problems.length > 0 ? previous.validationFailures + 1 : 0,
    usageLimits: limited ? previous.usageLimits + 1 : 0,
    gateFailures: claimChecked ? (gateEvent !== undefined ? previous.gateFailures + 1 : 0) : previous.gateFailures,
    costUsd: previous.costUsd + (facts.run.stats.costUsd ?? 0),
  };
}

/** The verdict with the run's ending, if this iteration brings one (the first in the documented order). */
function decideEnding(facts: IterationFacts, settings: JudgeSettings, verdict: Verdict, findings: Findings): Verdict {
  const { run } = facts;
  const { counters } = verdict;
  let ruling = verdict;
  const end = (termination: Termination): Verdict => ({ ...ruling, termination });

  if (run.stoppedBy?.cause === 'interrupt') return end({ reason: 'interrupted', signal: run.stoppedBy.signal });
  if (findings.complete) return end({ reason: 'complete' });
  if (run.signals.blocked !== undefined) return end({ reason: 'blocked', message: run.signals.blocked });
  if (facts.reviewCap) {
    const { id, count, feedback } = facts.reviewCap;
    const last = feedback ? ` Its last review feedback: ${feedback}` : '';
    return end({ reason: 'blocked', message: `Story ${id} was sent back by review ${count} times (--max-reviews ${settings.maxReviews}): a human should look at it.${last}` });
  }
  if (run.signals.decide !== undefined) return end({ reason: 'decide', question: run.signals.decide });
  if (run.failure?.kind === 'auth') return end({ reason: 'agent_auth', message: run.failure.message });
  if (run.failure?.kind === 'setup') return end({ reason: 'agent_setup', message: run.failure.message });
  const pause = usageLimitRuling(facts, settings, counters);
  if (pause && 'termination' in pause) return end(pause.termination);
  if (pause) ruling = { ...verdict, wait: pause.wait };
  if (settings.maxCostUsd !== undefined && counters.costUsd >= settings.maxCostUsd) {
    return end({ reason: 'max_cost', costUsd: counters.costUsd, limitUsd: settings.maxCostUsd });
  }
  if (verdict.outcome === 'max_runtime' || facts.now >= facts.deadline) return end({ reason: 'max_runtime', limitMs: settings.maxRuntimeMs });
  if (counters.agentFailures >= settings.maxAgentFailures) {
    const busy = run.failure?.kind === 'error' ? run.failure.busy?.kind : undefined;
    return end({ reason: 'agent_failures', count: counters.agentFailures, lastError: run.failure?.kind === 'error' ? run.failure.lines : [], ...(busy ? { busy } : {}) });
  }
  if (counters.validationFailures >= settings.maxValidationFailures) {
    return end({ reason: 'validation_failures', count: counters.validationFailures, last: findings.problems.join('; ') });
  }
  if (findings.claimChecked && findings.gateEvent !== undefined && counters.gateFailures >= settings.maxGateFailures) {
    return end({ reason: 'quality_gate_exhausted', count: counters.gateFailures, event: findings.gateEvent });
  }
  if (counters.stuck >= settings.maxStuck) return end({ reason: 'stuck', stuckCount: counters.stuck });
  return ruling;
}

/** What a limit asks of the loop: a pause before the next iteration, or the end of the run. */
type LimitRuling = { wait: Wait } | { termination: Termination } | undefined;

/**
 * A usage limit waits for its reset (or the backoff), and so does a usage window at --max-usage;
 * a busy server pauses briefly. Limits no wait lifts, --on-usage-limit stop and a reset past
 * --max-runtime end the run instead.
 */
function usageLimitRuling(facts: IterationFacts, settings: JudgeSettings, counters: Counters): LimitRuling {
  const { run, now } = facts;
  if (run.failure?.kind === 'usage_limit') {
    const { message, reset, exhausted } = run.failure;
    const until = reset ? reset.at + RESET_MARGIN_MS : now + backoff(counters.usageLimits);
    const announced = reset ? { resetsAt: reset.at, resetSource: reset.source } : {};
    return waitOrStop({ until, message, ...announced, why: 'usage_limit' }, facts, settings, exhausted);
  }
  if (run.failure?.kind === 'error' && run.failure.busy) {
    const { kind, message, retryAt } = run.failure.busy;
    const pause = Math.min(BUSY_CAP_MS, BUSY_BASE_MS * 2 ** Math.max(0, counters.agentFailures - 1));
    return { wait: { until: Math.min(facts.deadline, retryAt ?? now + pause), message, why: kind } };
  }
  const full = settings.maxUsage === undefined || !run.usage ? undefined : windowOverShare(run.usage, settings.maxUsage, now);
  if (!full || settings.maxUsage === undefined) return undefined;
  const message = `${full.window} usage is at ${Math.round(full.utilization * 100)}% (--max-usage ${Math.round(settings.maxUsage * 100)})`;
  const wait: Wait =
    full.resetsAt === undefined
      ? { until: now + BACKOFF_BASE_MS, message, why: 'max_usage' }
      : { until: full.resetsAt + RESET_MARGIN_MS, message, resetsAt: full.resetsAt, resetSource: 'event', why: 'max_usage' };
  return waitOrStop(wait, facts, settings);
}

/** The wait, unless no wait lifts the limit, --on-usage-limit stop, or it would end past --max-runtime. */
function waitOrStop(wait: Wait, facts: IterationFacts, settings: JudgeSettings, exhausted?: ExhaustedCause): LimitRuling {
  const why: UsageLimitStop | undefined = exhausted ?? (settings.onUsageLimit === 'stop' ? 'stop_requested' : wait.until > facts.deadline ? 'beyond_max_runtime' : undefined);
  if (why === undefined) return { wait };
  const resetsAt = wait.resetsAt === undefined ? {} : { resetsAt: wait.resetsAt };
  return { termination: { reason: 'usage_limit', message: wait.message, ...resetsAt, resetSource: wait.resetSource ?? 'backoff', why } };
}

/**
 * Whether the agent said COMPLETE and tasks.json agrees: valid, no story removed, every story
 * passing. Only such a claim is worth running the quality gates for.
 */
export function isVerifiedComplete(facts: Pick<IterationFacts, 'run' | 'tasks' | 'storiesBefore'>, policy: ReviewPolicy): boolean {
  if (!facts.run.signals.complete || !facts.tasks.ok) return false;
  return removedStories(facts.storiesBefore, facts.tasks.tasks).length === 0 && openStories(facts.tasks.tasks, policy).length === 0;
}

/** Ids present before and missing now. */
function removedStories(before: readonly string[], tasks: TaskList): string[] {
  const now = new Set(tasks.stories.map((story) => story.id));
  return before.filter((id) => !now.has(id));
}

/** 5 minutes, doubling with each consecutive limit, at most an hour. */
function backoff(consecutive: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, consecutive - 1));
}
