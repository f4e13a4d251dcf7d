import type { PromiseSignals } from '../../../src/agent/promise-tags.js';
import type { UsageWindow } from '../../../src/agent/usage-windows.js';
import type { TaskList } from '../../../src/files/tasks.js';
import type {
  ActiveState,
  AgentFailure,
  AgentRun,
  DecideState,
  GateTrigger,
  GateVerdict,
  IterationRow,
  LoopPorts,
  LoopReporter,
  StopCause,
} from '../../../src/loop/ports.js';
import type { InterruptSignal } from '../../../src/loop/termination.js';

/** What one scripted agent call does to the world. */
export interface FakeCall {
  /** Commit: HEAD moves to a new hash. */
  commit?: boolean;
  /** Mark these stories passing (by id). */
  pass?: string[];
  /** Make tasks.json unreadable. */
  corruptTasks?: boolean;
  signals?: Partial<PromiseSignals>;
  exitCode?: number | null;
  /** ralph is interrupted while this call runs. */
  interrupt?: InterruptSignal;
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
  /** Set review fields (and passes) of stories, as a review or fix iteration would. */
  review?: Record<string, { reviewStatus: 'pending' | 'changes_requested' | 'approved'; passes?: boolean; reviewFeedback?: string }>;
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
  let head: string | null = options.head === undefined ? 'c0' : options.head;
  let commits = 0;
  let now = 1_750_000_000_000;
  let interrupt: InterruptSignal | undefined;
  const prompts: string[] = [];
  const rows: IterationRow[] = [];
  const active: ActiveState[] = [];
  const blocked: { iteration: number; reason: string }[] = [];
  const decided: { iteration: number; question: string }[] = [];
  const events: string[] = [];
  const sleeps: number[] = [];
  const feedbackFiles: { iteration: number; text: string }[] = [];
  const graceful = new AbortController();
  const gateChecks: { iteration: number; trigger: GateTrigger }[] = [];
  const gateVerdicts = [...(options.gates ?? [])];
  const reviewRejections: Record<string, number> = {};
  let snapshots = 0;

  const report: LoopReporter = {
    iterationStarted: (event) => events.push(`start ${event.iteration}`),
    iterationFinished: (event) => events.push(`finish ${event.row.iteration}`),
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
        now += call.takesMs ?? 60_000;
        if (call.commit) head = `c${++commits}`;
        for (const [id, fields] of Object.entries(call.review ?? {})) {
          tasks = { ...tasks, stories: tasks.stories.map((story) => (story.id === id ? { ...story, ...fields } : story)) };
        }
        if (call.remove) tasks = { ...tasks, stories: tasks.stories.filter((story) => !call.remove?.includes(story.id)) };
        for (const id of call.pass ?? []) {
          tasks = { ...tasks, stories: tasks.stories.map((story) => (story.id === id ? { ...story, passes: true } : story)) };
        }
        if (call.corruptTasks) tasksValid = false;
        if (call.interrupt) interrupt = call.interrupt;
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
    git: { head: async () => head },
    clock: {
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    },
    files: {
      readPrompt: async () => 'Do the next story.',
      readTasks: async () => (tasksValid ? { ok: true, tasks } : { ok: false, error: 'not valid JSON (Unexpected token)' }),
      decideState: async () => options.decide ?? 'none',
      writeBlocked: async (entry) => void blocked.push(entry),
      writeDecide: async (entry) => void decided.push(entry),
      appendRow: async (row) => void rows.push(row),
      writeActive: async (state) => void active.push(state),
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
            check: async (request) => {
              gateChecks.push(request);
              // The last scripted verdict repeats.
              return (gateVerdicts.length > 1 ? gateVerdicts.shift() : gateVerdicts[0]) ?? { passed: true };
            },
          },
        }
      : {}),
  };
  return {
    ports, prompts, rows, active, blocked, decided, events, sleeps, feedbackFiles, gateChecks, reviewRejections,
    snapshots: () => snapshots,
    now: () => now,
    remainingCalls: () => calls.length,
  };
}
