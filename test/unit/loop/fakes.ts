import type { AgentFailure } from '../../../src/domain/agent-failure.js';
import type { PromiseSignals } from '../../../src/domain/promise-signals.js';
import type { UsageWindow } from '../../../src/domain/usage.js';
import type { PaceSample } from '../../../src/domain/pace.js';
import type { TaskList } from '../../../src/domain/tasks.js';
import type { LoopPorts, Git, LoopReporter } from '../../../src/loop/ports.js';
import type {
  ActiveState,
  AgentRun,
  DecideState,
  GateTrigger,
  GateVerdict,
  IterationRow,
  StopCause,
} from '../../../src/loop/port-data.js';
import type { InterruptSignal } from '../../../src/loop/termination.js';
import type { JudgeSettings } from '../../../src/loop/judge-inputs.js';
import type { LoopSettings } from '../../../src/loop/loop-state.js';

/** What one scripted agent call does to the world. */
export interface FakeCall {
  /** Switch to this branch (created at HEAD when new), before any other git step; null detaches HEAD. */
  checkout?: string | null;
  /** `git reset --hard HEAD~n`: HEAD goes back n commits. */
  resetHard?: number;
  /** `git reset --hard <hash>`: HEAD goes to this commit (say, back to where it was). */
  resetTo?: string;
  /** Rebase (or amend): the last n commits are replaced by new ones with the same parents' shape. */
  rewrite?: number;
  /** Commit: HEAD moves to a new hash (after the steps above). */
  commit?: boolean;
  /** Mark these stories passing (by id). */
  pass?: string[];
  /** Make tasks.json unreadable. */
  corruptTasks?: boolean;
  signals?: Partial<PromiseSignals>;
  exitCode?: number | null;
  /** ralph is interrupted while this call runs. */
  interrupt?: InterruptSignal;
  /** ralph is interrupted just after this call ended on its own (while the iteration is observed). */
  interruptAfter?: InterruptSignal;
  /** ralph stopped the agent for this reason. */
  stoppedBy?: StopCause;
  failure?: AgentFailure;
  truncated?: boolean;
  costUsd?: number;
  /** The usage windows the agent reported. */
  usage?: UsageWindow[];
  /** Remove these stories from tasks.json. */
  remove?: string[];
  /** How long the call takes on the fake clock (default one minute). */
  takesMs?: number;
  /** The wall clock steps by this much during the call (NTP, a human); monotonic time does not. */
  clockStepMs?: number;
  /** Set review fields (and passes) of stories, as a review or fix iteration would. */
  review?: Record<
    string,
    { reviewStatus: 'pending' | 'changes_requested' | 'approved'; passes?: boolean; reviewFeedback?: string }
  >;
}

export function taskList(...stories: [id: string, passes: boolean][]): TaskList {
  return { stories: stories.map(([id, passes], index) => ({ id, title: `Story ${id}`, passes, priority: index + 1 })) };
}

/** Fake ports: an agent that replays calls, a git whose HEAD moves on commit, a manual clock. */
export function fakePorts(
  initial: TaskList,
  calls: FakeCall[],
  options: { decide?: DecideState; head?: string | null; gates?: GateVerdict[] } = {},
) {
  let tasks = structuredClone(initial);
  let tasksValid = true;
  const repo = fakeGit(options.head === undefined ? 'c0' : options.head);
  let now = 1_750_000_000_000;
  let monotonic = 5_000;
  const seenApprovals: string[][] = [];
  const headsRecorded: { branch: string | null; from: string | null; to: string }[] = [];
  let interrupt: InterruptSignal | undefined;
  const prompts: string[] = [];
  const rows: IterationRow[] = [];
  const paceSamples: PaceSample[] = [];
  const active: ActiveState[] = [];
  const blocked: { iteration: number; reason: string }[] = [];
  const decided: { iteration: number; question: string }[] = [];
  const events: string[] = [];
  const sleeps: number[] = [];
  const feedbackFiles: { iteration: number; text: string }[] = [];
  const graceful = new AbortController();
  const gateChecks: { iteration: number; trigger: GateTrigger }[] = [];
  const gateDeadlines: number[] = [];
  const gateVerdicts = [...(options.gates ?? [])];
  const reviewRejections: Record<string, number> = {};
  const unconfirmedSaved: string[][] = [];
  let snapshots = 0;

  const report: LoopReporter = {
    iterationStarted: (event) => events.push(`start ${event.iteration}`),
    iterationFinished: (event) => {
      // The row as summary.csv's listener would write it.
      rows.push(event.row);
      events.push(`finish ${event.row.iteration}`);
    },
    completeRejected: (event) => events.push(`rejected ${event.remaining.map((story) => story.id).join(',')}`),
    warning: (message) => events.push(`warning ${message}`),
    usageLimitWait: (event) => {
      events.push(`wait until ${event.until}`);
      events.push(`wait why ${event.why}`);
      return () => events.push('wait ended');
    },
  };

  const ports: LoopPorts = {
    agent: {
      async run({ prompt }): Promise<AgentRun> {
        prompts.push(prompt);
        const call = calls.shift();
        if (!call) throw new Error('the fake agent ran out of scripted calls');
        now += (call.takesMs ?? 60_000) + (call.clockStepMs ?? 0);
        monotonic += call.takesMs ?? 60_000;
        repo.apply(call);
        for (const [id, fields] of Object.entries(call.review ?? {})) {
          tasks = {
            ...tasks,
            stories: tasks.stories.map((story) => (story.id === id ? { ...story, ...fields } : story)),
          };
        }
        if (call.remove)
          tasks = { ...tasks, stories: tasks.stories.filter((story) => !call.remove?.includes(story.id)) };
        for (const id of call.pass ?? []) {
          tasks = {
            ...tasks,
            stories: tasks.stories.map((story) => (story.id === id ? { ...story, passes: true } : story)),
          };
        }
        if (call.corruptTasks) tasksValid = false;
        if (call.interrupt) interrupt = call.interrupt;
        if (call.interruptAfter) interrupt = call.interruptAfter;
        const stoppedBy = call.interrupt ? ({ cause: 'interrupt', signal: call.interrupt } as const) : call.stoppedBy;
        return {
          exitCode: call.exitCode === undefined ? 0 : call.exitCode,
          signals: { complete: false, invalid: [], ...call.signals },
          ...(stoppedBy ? { stoppedBy } : {}),
          ...(call.failure ? { failure: call.failure } : {}),
          truncated: call.truncated ?? false,
          ...(call.usage ? { usage: call.usage } : {}),
          stats: { toolCalls: 0, invalidLines: 0, ...(call.costUsd === undefined ? {} : { costUsd: call.costUsd }) },
        };
      },
    },
    git: repo.git,
    clock: {
      now: () => now,
      monotonic: () => monotonic,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
        monotonic += ms;
      },
    },
    files: {
      readPrompt: async () => 'Do the next story.',
      readTasks: async () =>
        tasksValid ? { ok: true, tasks } : { ok: false, error: 'not valid JSON (Unexpected token)' },
      decideState: async () => options.decide ?? 'none',
      takeBlockResolution: async () => undefined,
      readDecideExchange: async () =>
        options.decide === 'answered' ? { question: 'Which database?', answer: 'Postgres.' } : undefined,
      writeBlocked: async (entry) => void blocked.push(entry),
      writeDecide: async (entry) => void decided.push(entry),
      recordPace: async (sample) => void paceSamples.push(sample),
      writeActive: async (state) => void active.push(state),
      saveUnconfirmedApprovals: async (ids) => void unconfirmedSaved.push([...ids]),
      recordSeenApprovals: async (ids) => void seenApprovals.push([...ids]),
      recordList: async () => undefined,
      recordHead: async (move) => void headsRecorded.push(move),
      readModeGuide: async (name) => `## mode ${name}: {{id}}\n`,
      snapshotTasks: async () => void snapshots++,
      recordReviewRejection: async (id) => (reviewRejections[id] = (reviewRejections[id] ?? 0) + 1),
      writeFeedback: async (iteration, text) => {
        feedbackFiles.push({ iteration, text });
        return `ralph/logs/feedback-${iteration}.md`;
      },
    },
    interrupts: { received: () => interrupt, graceful: graceful.signal },
    report,
    ...(options.gates
      ? {
          gates: {
            check: async ({ iteration, trigger, deadline }) => {
              gateChecks.push({ iteration, trigger });
              gateDeadlines.push(deadline);
              // The last scripted verdict repeats.
              return (gateVerdicts.length > 1 ? gateVerdicts.shift() : gateVerdicts[0]) ?? { passed: true };
            },
          },
        }
      : {}),
  };
  return {
    ports,
    prompts,
    rows,
    paceSamples,
    active,
    blocked,
    decided,
    events,
    sleeps,
    feedbackFiles,
    gateChecks,
    gateDeadlines,
    reviewRejections,
    snapshots: () => snapshots,
    unconfirmedSaved,
    seenApprovals,
    headsRecorded,
    head: () => repo.git.head(),
    /** A commit on the branch by someone other than the agent (another loop's, through .git). */
    commitOutside: () => repo.apply({ commit: true }),
    now: () => now,
    remainingCalls: () => calls.length,
  };
}

/**
 * A repository in memory: commits with parents, branches, HEAD (on a branch or detached) and
 * HEAD's reflog, enough to reset, rebase and switch branches as an agent might.
 */
export function fakeGit(initialHead: string | null) {
  const parents = new Map<string, string | null>();
  const branches = new Map<string, string | null>([['main', initialHead]]);
  let branch: string | null = 'main';
  let detached: string | null = null;
  let next = 0;
  const reflog: string[] = [];
  if (initialHead !== null) {
    parents.set(initialHead, null);
    reflog.unshift(initialHead);
  }
  const head = () => (branch === null ? detached : (branches.get(branch) ?? null));
  const move = (hash: string | null) => {
    if (branch === null) detached = hash;
    else branches.set(branch, hash);
    if (hash !== null) reflog.unshift(hash);
  };
  const newCommit = (parent: string | null) => {
    const hash = `c${++next}`;
    parents.set(hash, parent);
    return hash;
  };
  const ancestors = (hash: string | null) => {
    const seen: string[] = [];
    for (let at = hash; at !== null && at !== undefined; at = parents.get(at) ?? null) seen.push(at);
    return seen;
  };
  const git: Git = {
    head: async () => head(),
    branch: async () => branch,
    isAncestor: async (ancestor, descendant) => ancestors(descendant).includes(ancestor),
    countLeft: async (from, to) => {
      const kept = new Set(ancestors(to));
      return ancestors(from).filter((hash) => !kept.has(hash)).length;
    },
    reflogEntry: async (hash) => {
      const index = reflog.indexOf(hash);
      return index >= 0 ? `HEAD@{${index}}` : undefined;
    },
  };
  return {
    git,
    apply(call: Pick<FakeCall, 'checkout' | 'resetHard' | 'resetTo' | 'rewrite' | 'commit'>) {
      if (call.checkout !== undefined) {
        const at = head();
        if (call.checkout === null) detached = at;
        else if (!branches.has(call.checkout)) branches.set(call.checkout, at);
        branch = call.checkout;
        const now = head();
        if (now !== null) reflog.unshift(now);
      }
      if (call.resetHard) move(ancestors(head())[call.resetHard] ?? null);
      if (call.resetTo !== undefined) move(call.resetTo);
      if (call.rewrite) {
        const chain = ancestors(head());
        let base = chain[call.rewrite] ?? null;
        for (let i = 0; i < call.rewrite; i++) base = newCommit(base);
        move(base);
      }
      if (call.commit) move(newCommit(head()));
    },
  };
}

/** The judge's settings with the documented defaults (review off), changed where a test says. */
export function judgeSettings(overrides: Partial<JudgeSettings> = {}): JudgeSettings {
  return {
    maxStuck: 3,
    maxAgentFailures: 3,
    maxValidationFailures: 3,
    maxRuntimeMs: 4 * 3600_000,
    onUsageLimit: 'wait',
    maxGateFailures: 3,
    review: false,
    maxReviews: 3,
    maxNetworkWaitMs: 30 * 60_000,
    ...overrides,
  };
}

/** The loop's settings with the documented defaults (review off), changed where a test says. */
export function loopSettings(overrides: Partial<LoopSettings> = {}): LoopSettings {
  return {
    ...judgeSettings(),
    maxIterations: 10,
    firstIteration: 1,
    maxFeedbackBytes: 8192,
    gatesWhen: 'complete',
    ...overrides,
  };
}
