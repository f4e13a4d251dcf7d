declare const madeForGates: unique symbol;

/**
 * The environment a gate runs with, as the one function for it makes it (gateEnvironment, in
 * src/run-lifecycle/agent-environment.ts): a gate runs the agent's code, so the runner's files and
 * tokens are never in it. A plain environment is refused by the compiler, so no gate path (a run's,
 * an integration's, a parallel base's) can hand a gate ralph's own.
 */
export type GateEnvironment = NodeJS.ProcessEnv & { readonly [madeForGates]: true };

/** One quality gate as configured: a shell command that must exit 0 before a COMPLETE claim stands. */
export interface GateSpec {
  name: string;
  command: string;
  /** The gate this one depends on: when that one fails or is skipped, this one is skipped. */
  after?: string;
  timeoutMs: number;
}

/**
 * Where the gates' commands run when not plainly on this machine: inside the box or the sandbox the
 * agent runs in, since a gate runs the code the agent wrote.
 */
export interface GatePlace {
  /** The place in words, for the lines that name it ("the sandbox ralph-app-1a2b3c4d"). */
  label: string;
  /** The program and arguments that run `command` there, from the repository root; `onHost` runs it here. */
  launch: (command: string, onHost: { file: string; args: string[] }) => { file: string; args: string[] };
  /**
   * Ends what a gate ralph stopped left running there, where stopping the program above does not
   * reach it (a sandbox; a box ends with its program). Resolves to what went wrong, if it could not;
   * `force` (a second Ctrl-C) gives up waiting.
   */
  stop?: (force?: AbortSignal) => Promise<string | undefined>;
  /** After each gate there: what the place put right that the gate's code had changed, as warning lines. */
  settle?: () => Promise<string[]>;
}

/** How one gate ended. */
export type GateOutcome =
  /** The command exited 0. */
  | { name: string; status: 'passed'; exitCode: 0; durationMs: number; logPath: string }
  /** The command exited non-zero, was killed by a signal (exitCode null), timed out or could not start. */
  | {
      name: string;
      status: 'failed';
      exitCode: number | null;
      timedOut: boolean;
      /** Set when ralph itself was interrupted while the gate ran. */
      interrupted?: boolean;
      durationMs: number;
      logPath: string;
      details: string[];
    }
  /** Not run: its dependency failed or was skipped, or ralph was interrupted first. */
  | { name: string; status: 'skipped'; reason: string };

/**
 * A gate's line in the blocking event: its outcome without the details, with the command and a
 * repo-relative log path.
 */
export type GateStatus =
  | { name: string; command: string; status: 'passed'; exitCode: 0; durationMs: number; logPath: string }
  | {
      name: string;
      command: string;
      status: 'failed';
      exitCode: number | null;
      timedOut: boolean;
      durationMs: number;
      logPath: string;
    }
  | { name: string; command: string; status: 'skipped'; reason: string };

/** Why a COMPLETE claim was rejected, for the next prompt and for tools (`gates-NNN.json`). */
export interface BlockingEvent {
  /** What the gates were checking, e.g. `COMPLETE claimed in iteration 7` or `start-of-run check`. */
  originalRequest: string;
  iteration: number;
  /** The names of the gates that failed, in list order. */
  blockedBy: string[];
  /** `build, tests failed`. */
  summary: string;
  /** Specific failures read from the gates' output; at most MAX_DETAILS overall. */
  details: string[];
  /** Next steps for the agent, specific to the kinds of the failed gates; the last ones name the full logs. */
  suggestions: string[];
  gates: GateStatus[];
}

/** What a run of the gates found. */
export interface GateReport {
  /** Every gate passed (an empty list passes). */
  passed: boolean;
  outcomes: GateOutcome[];
  /** Present when a gate failed (not when ralph was interrupted). */
  event?: BlockingEvent;
  /** Where the event was written as JSON. */
  eventPath?: string;
  /** ralph was interrupted: the running gate was stopped and the rest skipped; no event is written. */
  interrupted?: boolean;
}

/** The kinds of gate that get their own suggestions; anything else is `custom`. */
export type GateKind = 'build' | 'lint' | 'tests' | 'typecheck' | 'custom';

/** Most details a blocking event carries, and most any one extractor keeps. */
export const MAX_DETAILS = 20;
