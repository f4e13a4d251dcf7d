import { accessSync, constants } from 'node:fs';
import type { Containment, RunMarker } from '../process/containment.js';
import { describeEnded } from '../process/marked-processes.js';
import { terminateGroup } from '../process/process-group.js';
import { startInGroup } from '../process/start-in-group.js';
import { appendOwnFile, createOwnFile } from '../files/own-file.js';
import type { GatePlace } from './types.js';

export interface GateProcessOptions {
  command: string;
  timeoutMs: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Created here (never overwritten); receives stdout and stderr as they are written. */
  logPath: string;
  signal?: AbortSignal;
  /** Skips the grace period of a stop in progress (a second Ctrl-C). */
  force?: AbortSignal;
  /** Marks the gate's processes (scope `scope`) and ends those that leave its group. */
  containment?: { run: Containment; scope: string; warn: (message: string) => void };
  /** Where the command runs, when not as `$SHELL -c` on this machine (--sandbox). */
  place?: GatePlace;
}

/** How a gate's process ended; exactly one cause is recorded when ralph stopped it. */
export interface GateProcessResult {
  /** Null when a signal ended it, or it never started. */
  exitCode: number | null;
  durationMs: number;
  stoppedBy?: 'timeout' | 'interrupt';
  /** Set when the program (the shell, the place's client) could not be started at all. */
  startError?: string;
}

/**
 * Runs one gate command — `$SHELL -c command`, or as its place launches it — in its own process
 * group, its output going straight to the log file, and ends the group on timeout, on interrupt
 * and after it exits.
 */
export async function runGateProcess(options: GateProcessOptions): Promise<GateProcessResult> {
  const startedAt = Date.now();
  const marker = options.containment?.run.mark(options.containment.scope);
  const { child, exited } = await spawnGate(options, marker);
  let stoppedBy: GateProcessResult['stoppedBy'];
  let stopping: Promise<void> | undefined;
  const pgid = child?.pid;
  const contained = marker ? options.containment?.run.started(marker) : undefined;
  const stop = (cause?: GateProcessResult['stoppedBy']) => {
    stoppedBy ??= cause;
    stopping ??= Promise.all([
      pgid === undefined ? undefined : terminateGroup(pgid, { force: options.force }),
      // Ending the place's client ends nothing inside it: the place stops what ralph cut short there.
      cause && options.place?.stop ? stopPlace(options.place.stop, options) : undefined,
    ]).then(() => undefined);
    return stopping;
  };
  const timer = setTimeout(() => void stop('timeout'), options.timeoutMs);
  const onAbort = () => void stop('interrupt');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  const { exitCode, startError } = await exited;
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  // Also after a normal exit: servers and watchers the command left behind must not outlive it.
  await stop();
  if (marker) await endStrays(marker, options, contained);
  return {
    exitCode,
    durationMs: Date.now() - startedAt,
    ...(stoppedBy ? { stoppedBy } : {}),
    ...(startError ? { startError } : {}),
  };
}

/** Stops the gate's place; what went wrong goes to the screen and to the gate's log, never unsaid. */
async function stopPlace(stop: NonNullable<GatePlace['stop']>, options: GateProcessOptions): Promise<void> {
  const problem = await stop(options.force);
  if (problem === undefined) return;
  options.containment?.warn(problem);
  await appendOwnFile(options.cwd, options.logPath, `[ralph] ${problem}\n`).catch(() => undefined);
}

/** The program that runs a gate's command: `$SHELL -c command` on this machine, or as its place launches it. */
export function gateProgram(
  command: string,
  env: NodeJS.ProcessEnv,
  place?: GatePlace,
): { file: string; args: string[] } {
  const onHost = { file: env.SHELL || process.env.SHELL || '/bin/sh', args: ['-c', command] };
  return place ? place.launch(command, onHost) : onHost;
}

/** How a gate's process ended, or why it never started. */
type GateExit = { exitCode: number | null; startError?: string };

/**
 * Starts the command — `$SHELL -c command`, or as its place launches it — in its own process
 * group writing to the log; `exited` says how it ended or why it never started.
 */
async function spawnGate(options: GateProcessOptions, marker: RunMarker | undefined) {
  const program = gateProgram(options.command, options.env, options.place);
  const notStarted = (error: unknown): GateExit => ({
    exitCode: null,
    startError: `could not start ${program.file}: ${(error as Error).message.split('\n')[0]}`,
  });
  const log = await createOwnFile(options.cwd, options.logPath);
  try {
    const { child, ended } = startProgram(program, options, marker, log.fd);
    // No pid: it never started (E2BIG, a missing shell, a NUL byte in the command), and `ended` says why.
    if (child?.pid === undefined)
      return { child: undefined, exited: ended.then((exit) => notStarted(exit.error ?? new Error('no process'))) };
    // Listen before anything awaits: a command that ends at once must not be missed.
    const exited = new Promise<GateExit>((resolve) => {
      child.once('exit', (code) => resolve({ exitCode: code }));
      child.once('error', (error) => resolve(notStarted(error)));
    });
    return { child, exited };
  } finally {
    await log.close();
  }
}

/**
 * The gate's program in its own process group, so a timeout reaches the command and everything it
 * started. A lone descriptor number is handed to the child as it is: the command writes to the log
 * file itself, so stdout and stderr keep the order they were written in and nothing passes through ralph.
 */
function startProgram(
  program: { file: string; args: string[] },
  options: GateProcessOptions,
  marker: RunMarker | undefined,
  logFd: number,
) {
  // In the gate's cgroup, when the run has one, from the program's first instruction.
  // A program that is not there is started as it is: the kernel's error then names it.
  const { file, args } = marker && isExecutable(program.file) ? marker.wrap(program.file, program.args) : program;
  return startInGroup(file, args, {
    cwd: options.cwd,
    env: marker ? marker.env(options.env) : options.env,
    stdio: ['ignore', logFd, logFd],
  });
}

/**
 * Ends the processes that left the gate's group (setsid, double fork, daemon()), found by their
 * marker, and says so in the log.
 */
async function endStrays(
  marker: RunMarker,
  options: GateProcessOptions,
  contained: (() => void) | undefined,
): Promise<void> {
  if (!options.containment) return;
  const strays = await options.containment.run.endStrays(marker, options.force ? { force: options.force } : {});
  contained?.();
  if (strays.length === 0) return;
  const line = describeEnded(strays, "that left the gate's group");
  options.containment.warn(line);
  await appendOwnFile(options.cwd, options.logPath, `[ralph] ${line}\n`).catch(() => undefined);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return path.includes('/');
  } catch {
    return false;
  }
}
