import type { Writable } from 'node:stream';
import type { TaskList } from '../lists/task-lists.js';
import type { LoopMessage, SupervisorMessage } from './channel-messages.js';
import { startLoop, type ChildLoop, type LoopCommand } from './child-loop.js';
import { applyMessage, newView, type LoopView } from './loop-view.js';
import { MergeWatch, type MatrixCell, type MergePorts } from './merge-watch.js';
import { exitCodeFor, type InterruptSignal, type SupervisorStop } from '../loop/termination.js';
import { mostUrgent } from './most-urgent.js';
import { schedule, type ListOutcome, type LoopEnd } from './scheduler.js';

export interface SupervisorOptions {
  lists: readonly TaskList[];
  jobs: number;
  /** The branch the loops started from, for the merge check against it. */
  base: { name: string; branch: string };
  /** `--max-total-cost`: the loops' summed cost that stops them all. */
  maxTotalCost?: number;
  onConflict: 'report' | 'stop-later';
}

/** The world the supervisor works in; each piece is swapped in tests. */
export interface SupervisorPorts {
  /** The command line of one list's loop, from `from` (a base holding its dependencies' work) when given. */
  loopCommand(list: TaskList, from: string | undefined): LoopCommand;
  /** Where a list with dependsOn starts: a branch holding their work. */
  baseFor(list: TaskList): Promise<string | undefined>;
  /** The merge check's git: resolving the branches, merging two commits. */
  merge: MergePorts;
  /** A loop's own record (its worktree's last-run.json) once it ended, if it wrote one this run. */
  readRecord(list: TaskList, startedAt: number): Promise<{ reason: string; record: unknown } | undefined>;
  /** Where a loop's output goes, a line at a time. */
  output(list: TaskList, stream: 'stdout' | 'stderr'): Writable;
  /** The loops' lines changed (a message, an ending, a conflict). */
  changed(views: readonly LoopView[]): void;
  /** A line of the supervisor's own, about one loop. */
  say(list: string, text: string): void;
  now(): number;
}

/** One loop's part of the parallel record. */
export interface LoopRecord {
  list: string;
  branch: string;
  outcome: ListOutcome;
  stoppedBy?: SupervisorStop;
  costUsd: number;
  record?: unknown;
}

export interface ParallelResult {
  exitCode: number;
  loops: LoopRecord[];
  matrix: MatrixCell[];
  skippedMergeCheck?: string;
}

/**
 * Runs every list's loop as its own child process and watches them: it holds no loop's state but
 * what it shows, so a crash of one loop touches no other. Resolves once every loop ended.
 */
export class Supervisor {
  private readonly views: Map<string, LoopView>;
  private readonly live = new Map<string, ChildLoop>();
  private readonly started = new Set<string>();
  private readonly stoppedBy = new Map<string, SupervisorStop>();
  private readonly watch: MergeWatch;
  private skippedMergeCheck: string | undefined;
  private hold: SupervisorMessage | undefined;
  private stopping: string | undefined;
  private interruptedBy: InterruptSignal | undefined;
  private pendingChecks: Promise<unknown>[] = [];

  constructor(
    private readonly options: SupervisorOptions,
    private readonly ports: SupervisorPorts,
  ) {
    this.views = new Map(options.lists.map((list) => [list.name, newView(list.name)]));
    this.watch = new MergeWatch(options.base, ports.merge);
  }

  async run(): Promise<ParallelResult> {
    this.show();
    const outcomes = await schedule(this.options.lists, this.options.jobs, {
      run: (list) => this.runLoop(list),
      stopping: () => this.stopping,
    });
    // Every loop ended: the checks of their last commits run now, without pacing.
    this.watch.hurry();
    await Promise.all(this.pendingChecks);
    return this.result(outcomes);
  }

  /** Ctrl-C (or SIGTERM, SIGHUP): passed on to every loop, which ends its own agent; no new loop starts. */
  interrupt(signal: InterruptSignal): void {
    this.stopping ??= `the run was interrupted (${signal})`;
    this.interruptedBy ??= signal;
    for (const loop of this.live.values()) loop.signal(signal);
  }

  private async runLoop(list: TaskList): Promise<LoopEnd> {
    const startedAt = this.ports.now();
    const view = this.views.get(list.name)!;
    let from: string | undefined;
    try {
      from = list.dependsOn.length > 0 ? await this.ports.baseFor(list) : undefined;
    } catch (error) {
      // Ctrl-C ended the gates or git of its base: the list was interrupted, not set up wrong.
      const signal = this.interruptedBy;
      const end: LoopEnd = signal
        ? { exitCode: exitCodeFor({ reason: 'interrupted', signal }), reason: 'interrupted' }
        : // No base holding its dependencies' work: the list must not start from one without it.
          noBase((error as Error).message.split('\n')[0] ?? '');
      Object.assign(view, { state: 'ended', ending: signal ? end.reason : 'set-up' });
      this.ports.say(list.name, signal ? 'interrupted while its base was made' : end.reason);
      this.show();
      return end;
    }
    view.state = 'running';
    this.started.add(list.name);
    const loop = startLoop(
      this.ports.loopCommand(list, from),
      (stream) => this.ports.output(list, stream),
      (message) => this.heard(list, message),
    );
    this.live.set(list.name, loop);
    if (this.hold) loop.tell(this.hold);
    if (this.stopping) loop.signal('SIGTERM');
    this.show();
    const exitCode = await loop.ended;
    this.live.delete(list.name);
    const own = await this.ports.readRecord(list, startedAt);
    const stop = this.stoppedBy.get(list.name);
    const end: LoopEnd = stop
      ? { exitCode: exitCodeFor({ reason: stop }), reason: stop }
      : { exitCode, reason: own?.reason ?? `exit ${exitCode}` };
    Object.assign(view, { state: 'ended', ending: end.reason });
    this.records.set(list.name, own?.record);
    this.ports.say(list.name, `ended ${end.reason} (exit ${end.exitCode})`);
    this.show();
    return end;
  }

  private readonly records = new Map<string, unknown>();

  /** One checked message from a loop: its line, the account's limit, the total cost, the merge check. */
  private heard(list: TaskList, message: LoopMessage): void {
    applyMessage(this.views.get(list.name)!, message);
    if (message.t === 'usage_limit') this.accountLimit(list, message);
    if (message.t === 'finished') {
      this.checkTotalCost();
      if (message.committed) this.pendingChecks.push(this.checkMerges(list));
    }
    this.show();
  }

  /** One loop met the account's usage limit: every other loop hears of it before its next call. */
  private accountLimit(list: TaskList, { until, message }: { until: number; message: string }): void {
    if (this.hold && this.hold.until >= until) return;
    this.hold = { t: 'hold', until, message: `${message} (met by ${list.name})` };
    this.ports.say(list.name, `usage limit until ${new Date(until).toISOString()}: every loop waits for it`);
    for (const [name, loop] of this.live) if (name !== list.name) loop.tell(this.hold);
  }

  private checkTotalCost(): void {
    const { maxTotalCost } = this.options;
    if (maxTotalCost === undefined || this.stopping) return;
    const total = [...this.views.values()].reduce((sum, view) => sum + view.costUsd, 0);
    if (total < maxTotalCost) return;
    this.stopping = `--max-total-cost $${maxTotalCost.toFixed(2)} reached ($${total.toFixed(2)})`;
    for (const [name, loop] of this.live) {
      this.stoppedBy.set(name, 'max_total_cost');
      this.ports.say(name, `stopping: ${this.stopping}`);
      loop.signal('SIGTERM');
    }
  }

  private async checkMerges(list: TaskList): Promise<void> {
    const others = this.options.lists.filter((other) => this.started.has(other.name) && other.name !== list.name);
    const { conflicts, skipped } = await this.watch
      .committed(list, others)
      .catch((error: unknown) => ({ conflicts: [], skipped: `the merge check failed: ${(error as Error).message}` }));
    if (skipped !== undefined && this.skippedMergeCheck === undefined) {
      this.skippedMergeCheck = skipped;
      this.ports.say(list.name, `merge check skipped: ${skipped}`);
    }
    for (const conflict of conflicts) {
      for (const [name, other] of [
        [conflict.later, conflict.other],
        [conflict.other, conflict.later],
      ] as const)
        this.views.get(name)?.conflicts.set(other, conflict.files);
      this.ports.say(conflict.later, `conflicts with ${conflict.other} in ${conflict.files.join(', ')}`);
      if (this.options.onConflict === 'stop-later') this.stopLater(conflict.later);
    }
    this.show();
  }

  /** `--on-conflict stop-later`: the loop whose commit made the conflict stops, for a human to decide. */
  private stopLater(name: string): void {
    const loop = this.live.get(name);
    if (!loop || this.stoppedBy.has(name)) return;
    this.stoppedBy.set(name, 'merge_conflict');
    this.ports.say(name, 'stopping: its last commit conflicts with another loop (--on-conflict stop-later)');
    loop.signal('SIGTERM');
  }

  private show(): void {
    this.ports.changed([...this.views.values()]);
  }

  private result(outcomes: Map<string, ListOutcome>): ParallelResult {
    const loops = this.options.lists.map((list): LoopRecord => {
      const outcome = outcomes.get(list.name) ?? { state: 'not_started', why: 'never scheduled' };
      const view = this.views.get(list.name)!;
      if (outcome.state === 'not_started') Object.assign(view, { state: 'not started', ending: outcome.why });
      const stop = this.stoppedBy.get(list.name);
      const record = this.records.get(list.name);
      return {
        list: list.name,
        branch: list.branch,
        outcome,
        costUsd: view.costUsd,
        ...(stop ? { stoppedBy: stop } : {}),
        ...(record === undefined ? {} : { record }),
      };
    });
    this.show();
    const codes = loops.flatMap(({ outcome }) => (outcome.state === 'ran' ? [outcome.exitCode] : []));
    return {
      exitCode: mostUrgent(codes),
      loops,
      matrix: this.watch.matrix(),
      ...(this.skippedMergeCheck === undefined ? {} : { skippedMergeCheck: this.skippedMergeCheck }),
    };
  }
}

/** A list with no base holding its dependencies' work: refused as a set-up fault of its own. */
function noBase(why: string): LoopEnd {
  const reason = `no base with the work it depends on: ${why}`;
  return { exitCode: exitCodeFor({ reason: 'setup', message: reason }), reason };
}
