import type { ChosenList } from '../lists/chosen-list.js';
import type { Outlet } from '../outlets/outlet.js';
import type { Notifier } from '../outlets/notifier.js';
import { withNotices } from '../outlets/mid-run-notices.js';
import { join } from 'node:path';
import { gateEnvironment } from './agent-environment.js';
import type { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pc from 'picocolors';
import type { Containment } from '../process/containment.js';
import { createAgentRunner } from '../agent/spawn-agent.js';
import type { ActiveLock } from '../files/active-lock.js';
import { createLoopFiles } from '../files/loop-files.js';
import { iterationFileName } from '../files/paths.js';
import type { RunPaths } from '../files/record-paths.js';
import { createGit } from '../git/repository.js';
import type { LoopPorts } from '../loop/ports.js';
import { createReporter } from '../ui/reporter.js';
import type { Screen } from '../ui/screen.js';
import { requireAgent } from './agent-check.js';
import {
  agentInvocation,
  chosenAgent,
  gatePlace,
  openSandbox,
  type AgentInvocation,
  type Enclosure,
  type Sandbox,
} from './agent-invocation.js';
import { ranBy, withFallbackAgent } from './fallback-agent.js';
import type { AgentKind } from '../agent/dialects.js';
import { deferredAgent } from './deferred-agent.js';
import type { RunEnd } from './finish-run.js';
import type { installInterrupts } from './interrupts.js';
import type { PreparedRun } from './prepare-run.js';
import type { GatePlace } from '../gates/types.js';
import type { BoxChoice } from '../box/open-box.js';
import { sweptAgent } from './box-sweep.js';
import type { IterationRow } from '../loop/port-data.js';
import type { AgentFailure } from '../domain/agent-failure.js';
import type { ReviewPolicy, TaskList } from '../domain/tasks.js';
import type { LoopChannel } from '../parallel/loop-channel.js';
import { monotonicMs } from '../process/monotonic-clock.js';

/** The run command's choices the wiring reads. */
export interface RunChoices {
  cwd: string;
  /** --no-gates: skip the quality gates for this run. */
  noGates?: boolean;
  /** --reset-resumes: clear the resume counter (a human fixed the cause). */
  resetResumes?: boolean;
  /** A loop in its list's worktree (--worktree): the repository's top and the list, as notifications name them. */
  worktreeOf?: { root: string; list: ChosenList };
}

type LoopFiles = ReturnType<typeof createLoopFiles>;

/** Where a run shows itself: the terminal (or CI log) and whether GitHub Actions is listening. */
export interface Terminal {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  out: Screen;
  tty: boolean;
  github: boolean;
}

/** One run under its lock: what the loop needs from the command around it. */
export interface LoopRun {
  options: RunChoices;
  terminal: Terminal;
  paths: RunPaths;
  lock: ActiveLock;
  lockWarning: string | undefined;
  containment: Containment;
  interrupts: ReturnType<typeof installInterrupts>;
  rows: IterationRow[];
  /** When the run started: by the wall clock, for its timestamps; by the monotonic clock, for its duration. */
  startedAt: number;
  startedMonotonicMs: number;
  /** Known once the start checks pass (until then a refusal records 1 and 0). */
  firstIteration: number;
  maxIterations: number;
  /** The first line of the agent's `--version`, once the start checks read it. */
  agentVersion?: string;
  /** The OS box every agent and gate runs in, once the start checks pass (none, and why not). */
  box?: BoxChoice;
  /** The task list's stories as the start found them (a refused start records them too). */
  storiesAtStart?: { complete: number; total: number };
  /** Where the ending goes besides the screen and last-run.json (src/outlets/); set once settings resolve. */
  outlets: Outlet[];
  /** The channel to the supervisor, when this loop is one of a parallel run (src/parallel/). */
  channel?: LoopChannel;
  /** Sends the run's notifications (--notify), mid-run and at the ending; set once settings resolve. */
  notifier?: Notifier;
}

/** A run whose start checks passed, on its task branch, with its resume counted. */
export interface ReadyRun extends PreparedRun {
  tasks: TaskList;
  branch: string | undefined;
  /** Approvals an earlier run saw made outside a review iteration. */
  unconfirmed: readonly string[];
  loopRan: NonNullable<RunEnd['loopRan']>;
  policy: ReviewPolicy;
}

/** The loop wired to the real world, and what the run's record reads of it afterwards. */
export interface WiredRun {
  ports: LoopPorts;
  /** How many iterations the loop started. */
  started: () => number;
  /** How the last iteration's agent failed, when it did (to spread into the record). */
  lastFailure: () => { lastFailure?: AgentFailure };
  /** Closes what an iteration a fault cut short left open on the terminal (see TerminalReporter.abandon). */
  abandonIteration: () => void;
}

/** The loop's ports over the real world: the agent, git, the clock, ralph's files, the terminal, the gates. */
export async function wirePorts(ready: ReadyRun, run: LoopRun): Promise<WiredRun> {
  const { paths, interrupts, terminal } = run;
  const recorded = recordingReporter(ready, run);
  const { started, lastFailure } = recorded;
  const reporter = run.notifier
    ? withNotices(recorded.reporter, run.notifier, ready.resolved.settings.maxStuck)
    : recorded.reporter;
  const files = createLoopFiles(paths, ready.ready.promptPath, run.lock, ready.loopRan.taskList);
  // One sandbox for the run's agents and gates, checked once, and not before one of them needs it:
  // a run with nothing left to do and no gates needs no docker.
  let opened: Promise<Sandbox | undefined> | undefined;
  const box = run.box?.box;
  const sandbox = () => (opened ??= openSandbox(ready.resolved, paths.root, run.options.cwd));
  const enclosure = async (): Promise<Enclosure> => ({ root: paths.root, sandbox: await sandbox(), box });
  const warn = (line: string) => reporter.warning(line);
  const swept = (agent: LoopPorts['agent']) => (box ? sweptAgent(agent, box, warn) : agent);
  const ports: LoopPorts = {
    agent: swept(await agentFor(ready, run, { reporter, files, enclosure })),
    git: createGit(paths.root),
    clock: {
      now: Date.now,
      monotonic: monotonicMs,
      sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined),
    },
    files,
    interrupts,
    report: reporter,
    ...(run.channel ? { account: run.channel } : {}),
  };
  // The gate runner is loaded only by the runs that use it: start-up stays short.
  if (ready.resolved.gates.length > 0 && !run.options.noGates) {
    const { createQualityGates } = await import('./quality-gates.js');
    ports.gates = createQualityGates({
      specs: ready.resolved.gates,
      root: paths.root,
      logsDir: paths.logs,
      env: gateEnvironment(terminal.env),
      interrupts,
      out: terminal.out,
      containment: run.containment,
      ...placeOf(gatePlace(await enclosure())),
    });
  }
  return { ports, started, lastFailure, abandonIteration: () => reporter.abandon() };
}

/** The terminal's reporter, also keeping every finished iteration's row and failure for the run's record. */
function recordingReporter({ resolved }: ReadyRun, run: LoopRun) {
  const shown = createReporter(run.terminal.out, {
    maxStuck: resolved.settings.maxStuck,
    runStartedAt: run.startedMonotonicMs,
    elapsed: monotonicMs,
    github: run.terminal.github,
  });
  let started = 0;
  let lastFailure: AgentFailure | undefined;
  const told = run.channel ? run.channel.reporting(shown) : shown;
  const reporter: typeof shown = {
    ...told,
    iterationStarted: (event) => {
      started++;
      told.iterationStarted(event);
    },
    iterationFinished: (event) => {
      run.rows.push(event.row);
      lastFailure = event.failure;
      told.iterationFinished(event);
    },
  };
  return {
    reporter,
    started: () => started,
    lastFailure: (): { lastFailure?: AgentFailure } => (lastFailure ? { lastFailure } : {}),
  };
}

type Reporter = ReturnType<typeof recordingReporter>['reporter'];

/** The gates' place as an optional key: none on this machine. */
function placeOf(place: GatePlace | undefined): { place?: GatePlace } {
  return place ? { place } : {};
}

/** The agent runner; with nothing left to do it is found only if the gates send the loop back to work. */
async function agentFor(
  ready: ReadyRun,
  run: LoopRun,
  { reporter, files, enclosure }: { reporter: Reporter; files: LoopFiles; enclosure: () => Promise<Enclosure> },
): Promise<LoopPorts['agent']> {
  const { resolved, checks } = ready;
  const invocationFor = async (agentPath: string | undefined) =>
    agentInvocation(resolved, await enclosure(), agentPath);
  const make = (invocation: AgentInvocation) =>
    createAgentRunner(agentOptions(ready, run, reporter, files, invocation));
  const primary = ready.ready.nothingLeft
    ? deferredAgent(async () => make(await invocationFor(await requireAgent(checks))))
    : make(await invocationFor(ready.ready.agentPath));
  const fallback = resolved.settings.fallbackAgent;
  if (fallback === undefined) return ranBy(resolved.settings.agent, primary);
  const invocation = agentInvocation(resolved, await enclosure(), undefined, fallback);
  return withFallbackAgent(resolved, primary, {
    kind: fallback,
    runner: createAgentRunner(agentOptions(ready, run, reporter, files, invocation, fallback)),
    notice: (line) => reporter.warning(line),
  });
}

/** How each iteration's agent is spawned, logged, shown, limited and reported. */
function agentOptions(
  ready: ReadyRun,
  run: LoopRun,
  reporter: Reporter,
  files: LoopFiles,
  invocation: AgentInvocation,
  fallback?: AgentKind,
): Parameters<typeof createAgentRunner>[0] {
  const { settings } = ready.resolved;
  const { paths, terminal } = run;
  const { out, stdout, stderr } = terminal;
  return {
    ...invocation,
    dialect: chosenAgent(ready.resolved, fallback).dialect,
    cwd: paths.root,
    env: ready.checks.agentEnv,
    output: settings.output,
    logPaths: (iteration) => ({
      root: paths.root,
      log: join(paths.logs, iterationFileName(iteration, 'log', fallback)),
      jsonl: join(paths.logs, iterationFileName(iteration, 'jsonl', fallback)),
    }),
    // On Actions the agent's stderr joins stdout: the runner handles a batch's stderr lines before its
    // stdout lines, so only one stream keeps them inside ralph's ::stop-commands:: window.
    ...(settings.quiet
      ? {}
      : { terminal: { stdout: out.agentStream(stdout), stderr: out.agentStream(terminal.github ? stdout : stderr) } }),
    color: pc.isColorSupported,
    verbose: settings.verbose,
    iterationTimeoutMs: settings.iterationTimeout,
    idleTimeoutMs: settings.idleTimeout,
    maxRepeats: settings.maxRepeats,
    interrupts: run.interrupts,
    warn: (message) => reporter.warning(message),
    onToolCall: () => reporter.toolCall(),
    containment: run.containment,
    onGroup: (agentGroup) =>
      run.lock
        .update({ agentGroup })
        .catch((error: Error) =>
          reporter.warning(`could not record the agent in ralph/.ralph-active: ${error.message}`),
        ),
    onUsage: (windows) => {
      reporter.usage(windows);
      // Shown by `ralph status` only: a failed write must not end the iteration.
      void files.writeUsage(windows).catch(() => undefined);
    },
  };
}
