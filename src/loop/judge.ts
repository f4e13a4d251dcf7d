import { openStories, type ReviewPolicy, type Story } from '../domain/tasks.js';
import type { FeedbackItem } from './feedback.js';
import type { Counters, IterationFacts, JudgeSettings } from './judge-inputs.js';
import { usageLimitRuling } from './limit-ruling.js';
import { failedForNetwork, networkRuling, reachedApi } from './network-ruling.js';
import { outcomeOf, wasStoppedByRalph } from './outcome.js';
import type { Outcome, UnfinishedStory, Wait } from './port-data.js';
import { describeRewrite } from './progress.js';
import type { Termination } from './termination.js';
import { counted } from '../domain/plural.js';

/** The judge's ruling on one iteration. */
export interface Verdict {
  outcome: Outcome;
  counters: Counters;
  feedback: FeedbackItem[];
  termination?: Termination;
  /** The agent said COMPLETE, but these stories still fail. */
  rejectedComplete?: UnfinishedStory[];
  /**
   * A pause before the next iteration: a usage limit (the limited iteration does not count),
   * --max-usage, a busy server.
   */
  wait?: Wait;
}

/**
 * Rules on an iteration: updates the counters, gathers the feedback for the next prompt, and
 * decides whether the run ends. When several endings arrive together the first of this order
 * wins: interrupted, complete, blocked, decide, agent_auth, agent_setup (a network failure after a
 * working iteration is waited out instead, within --max-network-wait), usage_limit, max_cost,
 * max_runtime, agent_failures, validation_failures, quality_gate_exhausted, stuck (max_iterations
 * is the loop's).
 */
export function judgeIteration(facts: IterationFacts, previous: Counters, settings: JudgeSettings): Verdict {
  const outcome = iterationOutcome(facts);
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
  /** The run is complete (isVerifiedComplete), and the gates, if they ran on it, passed. */
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
  if (!facts.tasks.ok) {
    problems.push(`ralph/tasks.json is not valid: ${facts.tasks.error}`);
    feedback.push({ kind: 'tasks_invalid', error: facts.tasks.error });
  }
  if (facts.ruleBroken !== undefined) {
    problems.push(`ralph/tasks.json: ${facts.ruleBroken}`);
    feedback.push({ kind: 'rule_broken', rule: facts.ruleBroken });
  }
  if (facts.rewrite) {
    problems.push(describeRewrite(facts.rewrite));
    feedback.push({ kind: 'history_rewritten', rewrite: facts.rewrite });
  }
  if (run.signals.invalid.length > 0) {
    problems.push(`promise tags that are no signal: ${run.signals.invalid.join(', ')}`);
    feedback.push({ kind: 'invalid_tags', tags: run.signals.invalid });
  }
  const claim = run.signals.complete ? judgeCompleteClaim(facts, settings) : undefined;
  let complete = isVerifiedComplete(facts, settings);
  const rejectedComplete = claim?.holds === false ? claim.remaining : undefined;
  if (claim?.holds === false) {
    problems.push(claim.problem);
    feedback.push(claim.feedback);
  }
  if (run.truncated) {
    problems.push('the output stream ended without a result (cut off)');
    feedback.push({ kind: 'truncated' });
  }
  if (run.stoppedBy?.cause === 'repetition')
    feedback.push({ kind: 'repetition', repetition: run.stoppedBy.repetition });
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
    rejectedComplete,
    claimChecked,
    gateEvent,
  };
}

/** A COMPLETE claim holds, or the stories still open and the rule it broke say why not. */
type CompleteClaim =
  { holds: true } | { holds: false; remaining: UnfinishedStory[]; problem: string; feedback: FeedbackItem };

function judgeCompleteClaim(facts: IterationFacts, settings: JudgeSettings): CompleteClaim {
  if (isVerifiedComplete(facts, settings)) return { holds: true };
  const policy = { review: settings.review, unconfirmed: facts.unconfirmed };
  const remaining: UnfinishedStory[] = facts.tasks.ok
    ? openStories(facts.tasks.tasks, policy).map((story) => ({
        id: story.id,
        title: story.title,
        why: whyOpen(story, policy),
      }))
    : [];
  const broke = facts.rewrite ? 'history_rewritten' : facts.ruleBroken !== undefined ? 'rule_broken' : undefined;
  const why =
    remaining.length > 0
      ? `stories still open: ${remaining.map((story) => story.id).join(', ')}`
      : broke === 'history_rewritten'
        ? 'commits left the branch'
        : broke === 'rule_broken'
          ? 'the iteration broke a rule of the task list'
          : 'tasks.json is not valid';
  return {
    holds: false,
    remaining,
    problem: `COMPLETE claimed while ${why}`,
    feedback: { kind: 'complete_rejected', remaining, ...(broke ? { broke } : {}) },
  };
}

/** The counters after this iteration. */
function nextCounters(
  facts: IterationFacts,
  previous: Counters,
  outcome: Outcome,
  { problems, claimChecked, gateEvent }: Findings,
): Counters {
  const limited = outcome === 'usage_limit';
  // Neither a usage limit, a human's interrupt, nor a login or network failure (the account's or the
  // machine's fault, not the agent's) says the agent is stuck.
  const noStrike = limited || ['interrupted', 'agent_auth', 'agent_setup'].includes(outcome);
  return {
    // A commit is progress however the iteration ended.
    stuck: facts.committed ? 0 : noStrike ? previous.stuck : previous.stuck + 1,
    agentFailures:
      outcome === 'agent_error' ? previous.agentFailures + 1 : outcome === 'ok' ? 0 : previous.agentFailures,
    validationFailures: validationFailures(facts, previous.validationFailures, outcome, problems),
    usageLimits: limited ? previous.usageLimits + 1 : 0,
    gateFailures: claimChecked ? (gateEvent !== undefined ? previous.gateFailures + 1 : 0) : previous.gateFailures,
    costUsd: previous.costUsd + (facts.run.stats.costUsd ?? 0),
    worked: previous.worked || reachedApi(facts.run),
    // An outage is the network failures in a row after the API answered once; anything else ends it.
    networkFailures: previous.worked && failedForNetwork(facts.run) ? previous.networkFailures + 1 : 0,
    networkWaitedMs: previous.worked && failedForNetwork(facts.run) ? previous.networkWaitedMs : 0,
  };
}

/**
 * The CSV outcome: how the agent's run ended — but history_rewritten when the agent ended on its
 * own and commits left the branch (ralph stopping it, or the account failing, says more).
 */
function iterationOutcome({ run, rewrite }: IterationFacts): Outcome {
  const outcome = outcomeOf(run);
  return rewrite && (outcome === 'ok' || outcome === 'truncated' || outcome === 'agent_error')
    ? 'history_rewritten'
    : outcome;
}

/**
 * Consecutive iterations that broke a rule. An iteration ralph stopped, or a usage-limited one, is
 * not judged on its rules — except rewritten history: the commits are gone however it ended.
 */
function validationFailures(
  facts: IterationFacts,
  previous: number,
  outcome: Outcome,
  problems: readonly string[],
): number {
  if (facts.rewrite && outcome !== 'interrupted') return previous + 1;
  if (wasStoppedByRalph(outcome) || outcome === 'usage_limit') return previous;
  return problems.length > 0 ? previous + 1 : 0;
}

/** The verdict with the run's ending, if this iteration brings one (the first in the documented order). */
function decideEnding(facts: IterationFacts, settings: JudgeSettings, verdict: Verdict, findings: Findings): Verdict {
  const { run } = facts;
  const { counters } = verdict;
  const end = (termination: Termination): Verdict => ({ ...verdict, termination });

  if (run.stoppedBy?.cause === 'interrupt') return end({ reason: 'interrupted', signal: run.stoppedBy.signal });
  if (findings.complete) return end({ reason: 'complete' });
  if (run.signals.blocked !== undefined) return end({ reason: 'blocked', message: run.signals.blocked });
  if (facts.reviewCap) {
    const { id, count, feedback } = facts.reviewCap;
    const last = feedback ? ` Its last review feedback: ${feedback}` : '';
    return end({
      reason: 'blocked',
      message: `Story ${id} was sent back by review ${counted(count, 'time')} (--max-reviews ${settings.maxReviews}): a human should look at it.${last}`,
    });
  }
  if (run.signals.decide !== undefined) return end({ reason: 'decide', question: run.signals.decide });
  if (run.failure?.kind === 'auth')
    return end({ reason: 'agent_auth', message: run.failure.message, hint: run.failure.hint });
  const network = networkRuling(facts, settings, counters);
  if (network && 'termination' in network) return end(network.termination);
  if (run.failure?.kind === 'setup' && !network)
    return end({
      reason: 'agent_setup',
      message: run.failure.message,
      ...(run.failure.cause ? { cause: run.failure.cause } : {}),
      hint: run.failure.hint,
    });
  const pause = network ?? usageLimitRuling(facts, settings, counters);
  if (pause && 'termination' in pause) return end(pause.termination);
  if (settings.maxCostUsd !== undefined && counters.costUsd >= settings.maxCostUsd) {
    return end({ reason: 'max_cost', costUsd: counters.costUsd, limitUsd: settings.maxCostUsd });
  }
  if (verdict.outcome === 'max_runtime' || facts.now >= facts.deadline)
    return end({ reason: 'max_runtime', limitMs: settings.maxRuntimeMs });
  if (counters.agentFailures >= settings.maxAgentFailures) {
    const busy = run.failure?.kind === 'error' ? run.failure.busy?.kind : undefined;
    return end({
      reason: 'agent_failures',
      count: counters.agentFailures,
      lastError: run.failure?.kind === 'error' ? run.failure.lines : [],
      ...(busy ? { busy } : {}),
    });
  }
  if (counters.validationFailures >= settings.maxValidationFailures) {
    return end({
      reason: 'validation_failures',
      count: counters.validationFailures,
      last: findings.problems.join('; '),
    });
  }
  if (findings.claimChecked && findings.gateEvent !== undefined && counters.gateFailures >= settings.maxGateFailures) {
    return end({ reason: 'quality_gate_exhausted', count: counters.gateFailures, event: findings.gateEvent });
  }
  if (counters.stuck >= settings.maxStuck) return end({ reason: 'stuck', stuckCount: counters.stuck });
  // No ending: the run goes on, after the pause the usage or the network ruling asked for.
  return pause ? paused(verdict, pause.wait, network !== undefined, facts.now) : verdict;
}

/** The verdict with its pause; a network pause adds to the outage's waiting (--max-network-wait). */
function paused(verdict: Verdict, wait: Wait, network: boolean, now: number): Verdict {
  const { counters } = verdict;
  const waited = network ? { networkWaitedMs: counters.networkWaitedMs + Math.max(0, wait.until - now) } : {};
  return { ...verdict, counters: { ...counters, ...waited }, wait };
}

/**
 * Whether the run is complete by the repository: no commit left the branch, and tasks.json is
 * valid, changed by the rules, with every story passing (and, with reviews, approved by a review
 * ralph saw). The agent said COMPLETE, or said no other signal: an iteration that leaves the list
 * done ends the run without paying for another agent only to say so. Only such an iteration is
 * worth running the quality gates for.
 */
export function isVerifiedComplete(
  facts: Pick<IterationFacts, 'run' | 'tasks' | 'ruleBroken' | 'rewrite' | 'unconfirmed'>,
  { review }: ReviewPolicy,
): boolean {
  const { signals } = facts.run;
  const claims = signals.complete || (signals.blocked === undefined && signals.decide === undefined);
  if (!claims || !facts.tasks.ok || facts.ruleBroken !== undefined || facts.rewrite) return false;
  return openStories(facts.tasks.tasks, { review, unconfirmed: facts.unconfirmed }).length === 0;
}

/** Why an open story keeps a COMPLETE from standing. */
function whyOpen(story: Story, { unconfirmed }: ReviewPolicy): UnfinishedStory['why'] {
  if (!story.passes) return 'failing';
  return story.reviewStatus === 'approved' && unconfirmed?.has(story.id) ? 'unconfirmed' : 'unreviewed';
}
