// The loop's ports: everything with a side effect reaches the loop through these interfaces, so
// the loop itself stays pure and a test drives it with scripted fakes. The data they carry is in port-data.ts.
import type { AgentFailure } from '../domain/agent-failure.js';
import type { PaceSample } from '../domain/pace.js';
import type { TasksParse } from '../domain/tasks.js';
import type { Mode } from './mode.js';
import type { InterruptSignal } from './termination.js';
import type {
  ActiveState,
  AgentRequest,
  AgentRun,
  BlockResolution,
  DecideExchange,
  DecideState,
  GateTrigger,
  GateVerdict,
  IterationRow,
  StopCause,
  Wait,
  UnfinishedStory,
} from './port-data.js';

/** The loop's view of the world: everything with a side effect arrives through these ports. */
export interface LoopPorts {
  agent: AgentRunner;
  git: Git;
  clock: Clock;
  files: LoopFiles;
  interrupts: Interrupts;
  report: LoopReporter;
  /** The project's quality gates; absent when none are configured or --no-gates. */
  gates?: QualityGates;
  /** The account's usage limit as other loops met it (a parallel run); absent for a loop of its own. */
  account?: AccountLimit;
}

/** A usage limit is the account's: one loop of a parallel run meets it, the others hear of it here. */
export interface AccountLimit {
  /** The pause the account is in at `now` (epoch ms), or undefined when it is in none. */
  held(now: number): Wait | undefined;
}

/** Runs the project's own checks (build, lint, tests…) against a claim of completion. */
export interface QualityGates {
  /** No gate runs past `deadline` (epoch ms, the end of --max-runtime): one still running then is stopped. */
  check(request: { iteration: number; trigger: GateTrigger; deadline: number }): Promise<GateVerdict>;
}

/** Runs one agent process for one iteration and reports how it ended. */
export interface AgentRunner {
  run(request: AgentRequest): Promise<AgentRun>;
}

/** What the loop asks git: where HEAD is, and whether it moved forward. */
export interface Git {
  /** The commit HEAD points at (null while unborn). */
  head(): Promise<string | null>;
  /** The branch HEAD is on, short (`main`); null when HEAD is detached. */
  branch(): Promise<string | null>;
  /** Whether `ancestor` is `descendant` or one of its ancestors (`git merge-base --is-ancestor`). */
  isAncestor(ancestor: string, descendant: string): Promise<boolean>;
  /** How many commits reachable from `from` are not reachable from `to` (null: unborn), i.e. left the branch. */
  countLeft(from: string, to: string | null): Promise<number>;
  /** The newest HEAD reflog entry that points at `hash` (`HEAD@{2}`), while the reflog still has it. */
  reflogEntry(hash: string): Promise<string | undefined>;
}

/**
 * Two clocks; tests move them by hand. The wall clock dates things (the CSV's timestamps, a usage
 * limit's reset) and may step (NTP, a human); the monotonic one measures durations and the
 * --max-runtime budget, which a step must not change.
 */
export interface Clock {
  /** Milliseconds since the epoch, as the wall clock says now. */
  now(): number;
  /** Milliseconds from an arbitrary origin, never going back and never stepping (process.hrtime). */
  monotonic(): number;
  /** Waits (a usage-limit wait); resolves early when the signal fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The loop's own files under ralph/. */
export interface LoopFiles {
  readPrompt(): Promise<string>;
  readTasks(): Promise<TasksParse>;
  decideState(): Promise<DecideState>;
  /** The question and the answer of decide.txt, read when decideState() says it is answered. */
  readDecideExchange(): Promise<DecideExchange | undefined>;
  /** The BLOCKED a human resolved since the last prompt (`ralph answer`), taken: the next call finds none. */
  takeBlockResolution(): Promise<BlockResolution | undefined>;
  writeBlocked(entry: { iteration: number; at: number; reason: string }): Promise<void>;
  writeDecide(entry: { iteration: number; at: number; question: string }): Promise<void>;
  /** Adds the iteration to the task list's pace, in ralph's records (the forecast's measure, kept across runs). */
  recordPace(sample: PaceSample): Promise<void>;
  /** The guide for one mode (templates/modes/NAME.md), and the review-policy note. */
  readModeGuide(name: Mode | 'finish' | 'review-policy'): Promise<string>;
  /** Copies tasks.json aside as the iteration starts, for the Stop hook to compare against. */
  snapshotTasks(): Promise<void>;
  /** Counts one more review that sent this story back; returns the count so far (kept across runs). */
  recordReviewRejection(storyId: string): Promise<number>;
  /** Saves a feedback section too large for the prompt; returns its path for the prompt to name. */
  writeFeedback(iteration: number, text: string): Promise<string>;
  writeActive(state: ActiveState): Promise<void>;
  /**
   * Remembers (in the run state) the stories whose approval no review iteration made, so a later
   * run still doubts them.
   */
  saveUnconfirmedApprovals(ids: readonly string[]): Promise<void>;
  /**
   * Remembers (in the run state) the stories approved as an iteration starts, and that a run is under
   * way: should ralph be killed, the next run doubts every approval made since.
   */
  recordSeenApprovals(ids: readonly string[]): Promise<void>;
  /**
   * Records (in ralph's record of the list's file) the stories of a list that kept the rules — a
   * story missing at a later start was removed without a person's word — and, with the review cycle,
   * the approvals that count: those a review ralph saw made, or that counted already.
   */
  recordList(seen: { stories: readonly string[]; approved?: readonly string[] }): Promise<void>;
  /**
   * Records where the iteration moved the branch's HEAD, in ralph's records out of the agent's reach:
   * `ralph integrate` leaves out a branch holding commits beyond the last head its loop saw.
   */
  recordHead(move: { branch: string | null; from: string | null; to: string }): Promise<void>;
}

/** Whether ralph has been asked to stop, and by which signal. */
export interface Interrupts {
  received(): InterruptSignal | undefined;
  /** Fires on the first interrupt (ends a usage-limit wait early). */
  graceful: AbortSignal;
}

/** Events the loop emits; the terminal (or a test) decides how they look. */
export interface LoopReporter {
  iterationStarted(event: {
    iteration: number;
    index: number;
    maxIterations: number;
    mode: Mode;
    stories: { complete: number; total: number };
    story?: { id: string; title: string };
  }): void;
  /**
   * The iteration's row, once the iteration is judged. A listener that keeps a durable record of it
   * (summary.csv) returns its write, which the loop waits for before it goes on.
   */
  iterationFinished(event: {
    row: IterationRow;
    committed: boolean;
    failure?: AgentFailure;
    stoppedBy?: StopCause;
  }): void | Promise<void>;
  completeRejected(event: { remaining: UnfinishedStory[] }): void;
  /** A pause before the next iteration (a usage limit, --max-usage, a busy server). Returns what ends the display. */
  usageLimitWait(event: Wait): () => void;
  warning(message: string): void;
}
