import { combinedEvents } from '../outlets/combined-listeners.js';
import type { RunEvents, RunListener } from '../outlets/run-listener.js';
import { join } from 'node:path';
import { gateEnvironment } from './agent-environment.js';
import { setTimeout as sleep } from 'node:timers/promises';
import pc from 'picocolors';
import { createAgentRunner } from '../agent/spawn-agent.js';
import { createLoopFiles } from '../files/loop-files.js';
import { iterationFileName } from '../files/paths.js';
import { createGit } from '../git/repository.js';
import type { LoopPorts } from '../loop/ports.js';
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
import type { ReadyRun, RunContext } from './run-context.js';
import type { GatePlace } from '../gates/types.js';
import { sweptAgent } from './box-sweep.js';
import type { AgentFailure } from '../domain/agent-failure.js';
import { monotonicMs } from '../process/monotonic-clock.js';

type LoopFiles = ReturnType<typeof createLoopFiles>;

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
export async function wirePorts(ready: ReadyRun, run: RunContext): Promise<WiredRun> {
  const { paths, interrupts, terminal } = run;
  const { memory, started, lastFailure } = runMemory(run);
  // Every listener in the table's order, then the run's own memory: an iteration whose row could not
  // be written to summary.csv ends the run unremembered, as it is unrecorded.
  const reporter = combinedEvents([...ready.listeners, memory]);
  const box = run.start.facts.box?.box;
  const files = createLoopFiles(paths, ready.ready.promptPath, run.lock, ready.loopRan.taskList);
  // One sandbox for the run's agents and gates, checked once, and not before one of them needs it:
  // a run with nothing left to do and no gates needs no docker.
  let opened: Promise<Sandbox | undefined> | undefined;
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

/** Every finished iteration's row and failure, and the iterations started, kept for the run's record. */
function runMemory(run: RunContext) {
  let started = 0;
  let lastFailure: AgentFailure | undefined;
  const memory: RunListener = {
    name: 'record',
    events: {
      iterationStarted: () => void started++,
      iterationFinished: (event) => {
        run.rows.push(event.row);
        lastFailure = event.failure;
      },
    },
  };
  return {
    memory,
    started: () => started,
    lastFailure: (): { lastFailure?: AgentFailure } => (lastFailure ? { lastFailure } : {}),
  };
}

type Reporter = RunEvents;

/** The gates' place as an optional key: none on this machine. */
function placeOf(place: GatePlace | undefined): { place?: GatePlace } {
  return place ? { place } : {};
}

/** The agent runner; with nothing left to do it is found only if the gates send the loop back to work. */
async function agentFor(
  ready: ReadyRun,
  run: RunContext,
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
  run: RunContext,
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
