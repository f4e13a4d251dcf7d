import type { PromiseSignals } from '../../../src/agent/promise-tags.js';
import type { TaskList } from '../../../src/files/tasks.js';
import type {
  ActiveState,
  AgentRun,
  DecideState,
  IterationRow,
  LoopPorts,
  LoopReporter,
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
}

export function taskList(...stories: [id: string, passes: boolean][]): TaskList {
  return { stories: stories.map(([id, passes], index) => ({ id, title: `Story ${id}`, passes, priority: index + 1 })) };
}

/** Fake ports: an agent that replays calls, a git whose HEAD moves on commit, a manual clock. */
export function fakePorts(initial: TaskList, calls: FakeCall[], options: { decide?: DecideState; head?: string | null } = {}) {
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

  const report: LoopReporter = {
    iterationStarted: (event) => events.push(`start ${event.iteration}`),
    iterationFinished: (event) => events.push(`finish ${event.row.iteration}`),
    completeRejected: (event) => events.push(`rejected ${event.remaining.map((story) => story.id).join(',')}`),
    warning: (message) => events.push(`warning ${message}`),
  };

  const ports: LoopPorts = {
    agent: {
      async run({ prompt }): Promise<AgentRun> {
        prompts.push(prompt);
        const call = calls.shift();
        if (!call) throw new Error('the fake agent ran out of scripted calls');
        now += 60_000;
        if (call.commit) head = `c${++commits}`;
        for (const id of call.pass ?? []) {
          tasks = { ...tasks, stories: tasks.stories.map((story) => (story.id === id ? { ...story, passes: true } : story)) };
        }
        if (call.corruptTasks) tasksValid = false;
        if (call.interrupt) interrupt = call.interrupt;
        return {
          exitCode: call.exitCode === undefined ? 0 : call.exitCode,
          signals: { complete: false, invalid: [], ...call.signals },
          ...(call.interrupt ? { interrupted: call.interrupt } : {}),
        };
      },
    },
    git: { head: async () => head },
    clock: { now: () => now },
    files: {
      readPrompt: async () => 'Do the next story.',
      readTasks: async () => (tasksValid ? { ok: true, tasks } : { ok: false, error: 'not valid JSON (Unexpected token)' }),
      decideState: async () => options.decide ?? 'none',
      writeBlocked: async (entry) => void blocked.push(entry),
      writeDecide: async (entry) => void decided.push(entry),
      appendRow: async (row) => void rows.push(row),
      writeActive: async (state) => void active.push(state),
    },
    interrupts: { received: () => interrupt },
    report,
  };
  return { ports, prompts, rows, active, blocked, decided, events, remainingCalls: () => calls.length };
}
