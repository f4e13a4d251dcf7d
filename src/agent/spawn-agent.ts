import type { Writable } from 'node:stream';
import type { AgentRunner } from '../loop/ports.js';
import type { AgentRequest, AgentRun, RepetitionReport } from '../loop/port-data.js';
import type { InterruptSignal } from '../loop/termination.js';
import type { AgentCommand } from './agent-command.js';
import type { AgentDialect } from './dialect.js';
import type { Containment } from '../process/containment.js';
import { diagnoseFailure } from './diagnose-failure.js';
import { IterationLogs } from './iteration-logs.js';
import type { AgentOutput, OutputTargets } from './output/agent-output.js';
import { createStreamJsonOutput } from './output/stream-json-output.js';
import { createTextOutput } from './output/text-output.js';
import { describeEnded } from '../process/marked-processes.js';
import { signalGroup, terminateGroup } from '../process/process-group.js';
import { RepetitionDetector } from './repetition.js';
import { startAgent, type AgentChild } from './start-agent.js';
import { drainOutput } from './drain-output.js';
import { retryOnlyLimit, StallWatch } from './stall-watch.js';
import { Stopper } from './stopper.js';
import { ToolOutcomes } from './tool-outcomes.js';
import { startTimers } from './iteration-timers.js';
import { RalphError } from '../errors.js';
import type { UsageWindow } from '../domain/usage.js';
import type { FatalAgentFailure } from '../domain/agent-failure.js';

/** How ralph's interrupt handling reaches a running agent. */
export interface AgentInterrupts {
  /** Fires on the first SIGINT/SIGTERM: stop the agent gracefully. */
  graceful: AbortSignal;
  /** Fires on the second: kill at once. */
  force: AbortSignal;
  received(): InterruptSignal | undefined;
}

export interface SpawnAgentOptions {
  command: (prompt: string) => AgentCommand;
  /** How the agent's stream is read and its failures recognised. */
  dialect: Pick<AgentDialect, 'name' | 'reader' | 'classifyFailure' | 'hints'>;
  cwd: string;
  env: NodeJS.ProcessEnv;
  output: 'stream-json' | 'text';
  /** The readable log and (stream-json) the raw log of an iteration. */
  /** The iteration's logs, and the repository root they must stay inside. */
  logPaths: (iteration: number) => { root: string; log: string; jsonl: string };
  terminal?: { stdout: Writable; stderr: Writable };
  color: boolean;
  verbose: boolean;
  iterationTimeoutMs: number;
  idleTimeoutMs: number;
  maxRepeats: number;
  interrupts: AgentInterrupts;
  warn: (message: string) => void;
  /** The agent made a tool call (stream-json): for the live status line. */
  onToolCall?: () => void;
  /** The agent reported its usage windows' utilization (stream-json): for the status line and `ralph status`. */
  onUsage?: (windows: UsageWindow[]) => void;
  /**
   * Extra clean-up when ralph stops the agent itself (a sandbox must stop the agent inside it
   * too); resolves to what went wrong, if it did. `force` (a second Ctrl-C) gives up waiting.
   */
  onForcedStop?: (force: AbortSignal) => Promise<string | undefined>;
  /** Marks each agent's processes and ends those that leave its group. */
  containment: Containment;
  /** The agent started in this process group (undefined: it ended), for `.ralph-active`. Never rejects. */
  onGroup?: (pgid: number | undefined) => Promise<void>;
}

/** Runs each iteration's agent in its own process group, streaming its output to the terminal and the logs. */
export function createAgentRunner(options: SpawnAgentOptions): AgentRunner {
  return { run: (request) => runAgent(request, options) };
}

async function runAgent({ iteration, prompt, deadline }: AgentRequest, options: SpawnAgentOptions): Promise<AgentRun> {
  // First: the kernel gets ready to move the agent into its cgroup while the logs are opened.
  const marker = options.containment.mark(`agent-${iteration}`);
  const paths = options.logPaths(iteration);
  const logs = await IterationLogs.open(
    { root: paths.root, log: paths.log, ...(options.output === 'stream-json' ? { jsonl: paths.jsonl } : {}) },
    (error) => options.warn(`output of iteration ${iteration} could not be written: ${error.message}`),
  );
  let pgid: number | undefined;
  let stopping: Promise<void> = Promise.resolve();
  const stopper = new Stopper(() => {
    if (pgid !== undefined) stopping = terminateGroup(pgid, { force: options.interrupts.force });
  });
  // A client that will never work (only retrying, waiting at a login prompt) is ended as what it is.
  let verdict: FatalAgentFailure | undefined;
  const stall = new StallWatch(
    options.dialect,
    (failure) => {
      verdict = failure;
      if (pgid !== undefined && !stopper.cause) stopping = terminateGroup(pgid, { force: options.interrupts.force });
    },
    retryOnlyLimit(process.env),
  );
  const output = createOutput(options, outputTargets(options, logs), stopper, stall);
  const started = await startAgent(options.command(prompt), marker.env(options.env), options.cwd, marker.wrap);
  if ('cause' in started) return notStarted(started.cause, output, logs);
  const { child } = started;
  const group = (pgid = child.pid);
  const contained = options.containment.started(marker);
  const { exited, unwatch } = watchAgent(child, output, stopper, deadline, options);
  await options.onGroup?.(group);

  const exitCode = await exited;
  unwatch();
  stall.stop();
  await stopping;
  // An agent left running in its sandbox would write on while ralph judges: never unsaid.
  const stopProblem = stopper.cause ? await options.onForcedStop?.(options.interrupts.force) : undefined;
  if (stopProblem) {
    options.warn(stopProblem);
    logs.log.write(`[ralph] ${stopProblem}\n`);
  }
  const strays = await endWhatIsLeft(group, marker, options);
  contained();
  await options.onGroup?.(undefined);
  await drainOutput([child.stdout, child.stderr], [output.stdout, output.stderr]);
  if (strays.length > 0) {
    const line = describeEnded(strays, "that left the agent's group");
    options.warn(line);
    logs.log.write(`[ralph] ${line}\n`);
  }
  await logs.close();
  if (logs.fault) throw logs.fault;
  // An agent ralph could not stop may still be writing the repository: nothing is judged or started
  // after it. An interrupt ends the run anyway, as what it is.
  if (stopProblem && stopper.cause?.cause !== 'interrupt')
    throw new RalphError('setup', stopProblem, 'make sure it stopped, then run again');
  return agentRunOf(output.summary(), exitCode, stopper.cause, verdict ?? options.dialect);
}

/** Where the agent's output goes: the logs, the terminal unless quiet. */
function outputTargets(options: SpawnAgentOptions, logs: IterationLogs): OutputTargets {
  return {
    log: logs.log,
    ...(logs.jsonl ? { jsonl: logs.jsonl } : {}),
    ...(options.terminal ? { terminal: options.terminal } : {}),
    color: options.color,
    verbose: options.verbose,
    onError: logs.onError,
  };
}

/**
 * Watches a started agent: its output into the readers, its timers, ralph's interrupts, and ralph's
 * own exit. `exited` resolves with its exit code; `unwatch` undoes the rest.
 */
function watchAgent(
  child: AgentChild,
  output: AgentOutput,
  stopper: Stopper,
  deadline: number | undefined,
  options: SpawnAgentOptions,
) {
  const { interrupts } = options;
  const group = child.pid;
  // Whatever way ralph itself ends (an uncaught error, process.exit), the agent's group goes with it.
  const killOnExit = () => signalGroup(group, 'SIGKILL');
  process.once('exit', killOnExit);
  child.stdout.pipe(output.stdout);
  child.stderr.pipe(output.stderr);
  // The exit event, not the pipes' end: a grandchild holding the pipes open must not keep us waiting.
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(127));
  });
  const clearTimers = startTimers(options, stopper, deadline, [child.stdout, child.stderr]);
  const onInterrupt = () => stopper.stop({ cause: 'interrupt', signal: interrupts.received() ?? 'SIGINT' });
  interrupts.graceful.addEventListener('abort', onInterrupt, { once: true });
  if (interrupts.graceful.aborted) onInterrupt();
  const unwatch = () => {
    process.off('exit', killOnExit);
    clearTimers();
    interrupts.graceful.removeEventListener('abort', onInterrupt);
  };
  return { exited, unwatch };
}

/** Ends what the agent left running: its group, then what escaped the group (returned, to be told). */
async function endWhatIsLeft(
  group: number,
  marker: Parameters<Containment['endStrays']>[0],
  options: SpawnAgentOptions,
) {
  // Also after a normal exit: dev servers and watchers the agent left behind die with the iteration.
  await terminateGroup(group, { force: options.interrupts.force });
  // And those that left the group (setsid, double fork, daemon()) are found by their marker.
  return await options.containment.endStrays(marker, { force: options.interrupts.force });
}

/** What the loop learns of one agent: its exit, signals, failure or stop, usage and stats. */
function agentRunOf(
  summary: ReturnType<AgentOutput['summary']>,
  exitCode: number | null,
  stoppedBy: Stopper['cause'],
  /** The stall watch's verdict, or the dialect that reads a failure from the output. */
  verdict: FatalAgentFailure | SpawnAgentOptions['dialect'],
): AgentRun {
  const failure = stoppedBy
    ? undefined
    : 'kind' in verdict
      ? verdict
      : diagnoseFailure(summary, exitCode, Date.now(), verdict);
  const { result } = summary;
  return {
    exitCode,
    signals: summary.signals,
    ...(stoppedBy ? { stoppedBy } : {}),
    ...(failure ? { failure } : {}),
    truncated: summary.expectsResult && !result && !stoppedBy && !failure,
    ...(summary.usage ? { usage: summary.usage } : {}),
    stats: {
      ...(result?.costUsd === undefined ? {} : { costUsd: result.costUsd }),
      ...(result?.inputTokens === undefined ? {} : { inputTokens: result.inputTokens }),
      ...(result?.outputTokens === undefined ? {} : { outputTokens: result.outputTokens }),
      ...(result?.numTurns === undefined ? {} : { numTurns: result.numTurns }),
      toolCalls: summary.toolCalls,
      invalidLines: summary.invalidLines,
    },
  };
}

/** The output reader for the mode; in stream-json it watches tool calls for repetition. */
function createOutput(
  options: SpawnAgentOptions,
  targets: OutputTargets,
  stopper: Stopper,
  stall: StallWatch,
): AgentOutput {
  if (options.output === 'text') return createTextOutput(targets);
  const detector = new RepetitionDetector({ maxRepeats: options.maxRepeats });
  const outcomes = new ToolOutcomes();
  return createStreamJsonOutput(targets, options.dialect.reader(), {
    onToolUse: (use) => {
      options.onToolCall?.();
      const { signature, repetition } = detector.record(use);
      outcomes.called(use.id, signature);
      if (!repetition) return;
      const lastOutcome = outcomes.lastOutcome(signature);
      const report: RepetitionReport = {
        tool: repetition.tool,
        count: repetition.count,
        kind: repetition.kind,
        inputPreview: repetition.inputPreview,
        ...(lastOutcome ? { lastOutcome } : {}),
      };
      stopper.stop({ cause: 'repetition', repetition: report });
    },
    onToolResult: (result) => outcomes.returned(result),
    onRetry: (note) => stall.retry(note),
    onProgress: () => stall.progress(),
    onPlainLine: (line) => stall.plainLine(line),
    ...(options.onUsage ? { onUsage: options.onUsage } : {}),
  });
}

/** The iteration of an agent that never started: no process, so no exit event will ever come. */
async function notStarted(cause: string, output: AgentOutput, logs: IterationLogs): Promise<AgentRun> {
  output.stdout.end();
  output.stderr.end();
  await drainOutput([], [output.stdout, output.stderr]);
  logs.log.write(`[ralph] ${cause}\n`);
  await logs.close();
  const stats = { toolCalls: 0, invalidLines: 0 };
  return {
    exitCode: null,
    signals: output.summary().signals,
    failure: { kind: 'error', lines: [cause] },
    truncated: false,
    stats,
  };
}
