import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Writable } from 'node:stream';
import { execa } from 'execa';
import type { AgentRequest, AgentRun, AgentRunner } from '../loop/ports.js';
import type { InterruptSignal } from '../loop/termination.js';
import type { AgentCommand } from './agent-command.js';
import { terminateGroup } from './process-group.js';
import { createTextOutput } from './text-output.js';

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
  cwd: string;
  env: NodeJS.ProcessEnv;
  logPath: (iteration: number) => string;
  terminal?: { stdout: Writable; stderr: Writable };
  interrupts: AgentInterrupts;
  warn: (message: string) => void;
  /** Extra clean-up when ralph stops the agent itself (a sandbox must stop the agent inside it too). */
  onForcedStop?: () => Promise<void>;
}

/** How long output may keep flowing after the agent's process group is gone. */
const DRAIN_LIMIT_MS = 2000;

/** Runs each iteration's agent in its own process group, streaming its output to the terminal and the log. */
export function createAgentRunner(options: SpawnAgentOptions): AgentRunner {
  return { run: (request) => runAgent(request, options) };
}

async function runAgent({ iteration, prompt }: AgentRequest, options: SpawnAgentOptions): Promise<AgentRun> {
  const { interrupts, warn } = options;
  const log = createWriteStream(options.logPath(iteration), { flags: 'wx' });
  await once(log, 'open');
  let reported = false;
  const onError = (error: Error) => {
    if (!reported) warn(`output of iteration ${iteration} could not be written: ${error.message}`);
    reported = true;
  };
  log.on('error', onError);
  const output = createTextOutput({ log, terminal: options.terminal, onError });

  const command = options.command(prompt);
  const child = execa(command.file, command.args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    // Its own process group, so one signal reaches the agent and everything it started.
    detached: true,
    cleanup: false,
    ...(command.input === undefined ? { stdin: 'ignore' as const } : { input: command.input }),
    buffer: false,
    reject: false,
  });
  child.stdout.pipe(output.stdout);
  child.stderr.pipe(output.stderr);
  // The exit event, not the execa promise: a grandchild holding the pipes open must not keep us waiting.
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(127));
  });
  void child.catch(() => undefined);

  const pgid = child.pid;
  const stopGroup = () => (pgid === undefined ? Promise.resolve() : terminateGroup(pgid, { force: interrupts.force }));
  const onInterrupt = () => void stopGroup();
  interrupts.graceful.addEventListener('abort', onInterrupt, { once: true });
  if (interrupts.graceful.aborted) onInterrupt();

  const exitCode = await exited;
  interrupts.graceful.removeEventListener('abort', onInterrupt);
  if (interrupts.graceful.aborted) await options.onForcedStop?.();
  // Also after a normal exit: dev servers and watchers the agent left behind die with the iteration.
  await stopGroup();
  await drain([child.stdout, child.stderr], [output.stdout, output.stderr]);
  log.end();
  await finished(log).catch(() => undefined);

  const interrupted = interrupts.received();
  return { exitCode, signals: output.signals(), ...(interrupted ? { interrupted } : {}) };
}

/** Waits for the output to be fully written; gives up on sources still open after the limit. */
async function drain(sources: NodeJS.ReadableStream[], sinks: Writable[]): Promise<void> {
  const all = Promise.all(sinks.map((sink) => finished(sink).catch(() => undefined)));
  const timer = new AbortController();
  const timedOut = await Promise.race([
    all.then(() => false),
    sleep(DRAIN_LIMIT_MS, true, { signal: timer.signal }).catch(() => false),
  ]);
  timer.abort();
  if (!timedOut) return;
  // Something that escaped the group still holds the pipe: stop reading and close our side.
  for (const source of sources) (source as unknown as { destroy(): void }).destroy();
  for (const sink of sinks) sink.end();
  await all;
}
