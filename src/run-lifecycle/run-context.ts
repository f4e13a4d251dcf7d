import type { Writable } from 'node:stream';
import type { BoxChoice } from '../box/open-box.js';
import type { ReviewPolicy, TaskList } from '../domain/tasks.js';
import type { ActiveLock } from '../files/active-lock.js';
import type { RunPaths } from '../files/record-paths.js';
import type { ChosenList } from '../lists/chosen-list.js';
import type { IterationRow } from '../loop/port-data.js';
import type { RunListener } from '../outlets/run-listener.js';
import type { LoopChannel } from '../parallel/loop-channel.js';
import type { Containment } from '../process/containment.js';
import type { Screen } from '../ui/screen.js';
import type { RunEnd } from './finish-run.js';
import type { installInterrupts } from './interrupts.js';
import type { PreparedRun } from './prepare-run.js';

/** The run command's choices the run reads. */
export interface RunChoices {
  cwd: string;
  /** --no-gates: skip the quality gates for this run. */
  noGates?: boolean;
  /** --reset-resumes: clear the resume counter (a human fixed the cause). */
  resetResumes?: boolean;
  /** --accept-removed: the stories missing from the list since ralph last saw it were removed on purpose. */
  acceptRemoved?: boolean;
  /** --accept-approvals: the list's approvals ralph has no record of are the person's word. */
  acceptApprovals?: boolean;
  /** A loop in its list's worktree (--worktree): the repository's top and the list, as notifications name them. */
  worktreeOf?: { root: string; list: ChosenList };
}

/** Where a run shows itself: the terminal (or CI log) and whether GitHub Actions is listening. */
export interface Terminal {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  out: Screen;
  tty: boolean;
  github: boolean;
}

/** What the start learns as it goes; a refused start and a crash record it as it stood. */
export interface StartFacts {
  /** Known once the start checks pass (until then a refusal records 1 and 0). */
  readonly firstIteration: number;
  readonly maxIterations: number;
  /** The first line of the agent's `--version`, once the start checks read it. */
  readonly agentVersion?: string;
  /** The OS box every agent and gate runs in, once opened (none, and why not). */
  readonly box?: BoxChoice;
  /** The task list's stories as the start found them (a refused start records them too). */
  readonly storiesAtStart?: { complete: number; total: number };
  /** What listens to the run (run-listeners.ts): the table's rows for its settings, once they resolve. */
  readonly listeners: readonly RunListener[];
}

/**
 * The facts of a start as they stand: each step adds what it learned, as a new value. The one
 * thing of a run that changes after it opened; the ending reads it once, and so does a crash.
 */
export class StartSoFar {
  #facts: StartFacts;

  constructor(initial: StartFacts) {
    this.#facts = initial;
  }

  get facts(): StartFacts {
    return this.#facts;
  }

  learn(more: Partial<StartFacts>): void {
    this.#facts = { ...this.#facts, ...more };
  }
}

/** One run under its lock: what it is given when it opens, built once and never written into. */
export interface RunContext {
  readonly options: RunChoices;
  readonly terminal: Terminal;
  readonly paths: RunPaths;
  readonly lock: ActiveLock;
  readonly lockWarning: string | undefined;
  readonly containment: Containment;
  readonly interrupts: ReturnType<typeof installInterrupts>;
  /** The rows of the iterations finished, as the run's record hears them. */
  readonly rows: IterationRow[];
  /** When the run started: by the wall clock, for its timestamps; by the monotonic clock, for its duration. */
  readonly startedAt: number;
  readonly startedMonotonicMs: number;
  /** The channel to the supervisor, when this loop is one of a parallel run (src/parallel/). */
  readonly channel?: LoopChannel;
  readonly start: StartSoFar;
}

/** A run whose start checks passed, on its task branch, with its resume counted. */
export interface ReadyRun extends PreparedRun {
  readonly tasks: TaskList;
  readonly branch: string | undefined;
  /** Approvals an earlier run saw made outside a review iteration. */
  readonly unconfirmed: readonly string[];
  readonly loopRan: NonNullable<RunEnd['loopRan']>;
  readonly policy: ReviewPolicy;
  readonly firstIteration: number;
  readonly listeners: readonly RunListener[];
}
