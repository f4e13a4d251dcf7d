import { appendFile, open } from 'node:fs/promises';
// eslint-disable-next-line no-restricted-imports -- a gate's output goes straight to its log file descriptor, which execa cannot pass
import { spawn, type ChildProcess } from 'node:child_process';
import type { Containment } from '../agent/containment.js';
import { describeEnded } from '../agent/marked-processes.js';
import { terminateGroup } from '../agent/process-group.js';

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
}

/** How a gate's process ended; exactly one cause is recorded when ralph stopped it. */
export interface GateProcessResult {
  /** Null when a signal ended it, or it never started. */
  exitCode: number | null;
  durationMs: number;
  stoppedBy?: 'timeout' | 'interrupt';
  /** Set when the shell could not be started at all. */
  startError?: string;
}

/**
 * Runs one gate command as `$SHELL -c command` in its own process group, its output going
 * straight to the log file, and ends the group on timeout, on interrupt and after it exits.
 */
export async function runGateProcess(options: GateProcessOptions): Promise<GateProcessResult> {
  const startedAt = Date.now();
  const marker = options.containment?.run.mark(options.containment.scope);
  const { child, exited } = await spawnGate(options, marker ? marker.env(options.env) : options.env);
  let stoppedBy: GateProcessResult['stoppedBy'];
  let stopping: Promise<void> | undefined;
  const pgid = child?.pid;
  const contained = marker ? options.containment?.run.started(marker) : undefined;
  const stop = (cause?: GateProcessResult['stoppedBy']) => {
    stoppedBy ??= cause;
    stopping ??= pgid === undefined ? Promise.resolve() : terminateGroup(pgid, { force: options.force });
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

/** Starts `$SHELL -c command` in its own process group writing to the log; `exited` says how it ended or why it never started. */
async function spawnGate(options: GateProcessOptions, env: NodeJS.ProcessEnv) {
  const shell = options.env.SHELL || process.env.SHELL || '/bin/sh';
  const log = await open(options.logPath, 'wx');
  let child: ChildProcess | undefined;
  let exited: Promise<{ exitCode: number | null; startError?: string }>;
  try {
    // node's spawn rather than execa: execa cannot hand a file descriptor to the child (it copies
    // file output through streams), and only a shared descriptor keeps stdout and stderr in the order
    // they were written. The child writes to the file itself, so nothing passes through ralph.
    const started = spawn(shell, ['-c', options.command], {
      cwd: options.cwd,
      env,
      // Its own process group, so a timeout reaches the command and everything it started.
      detached: true,
      stdio: ['ignore', log.fd, log.fd],
    });
    child = started;
    // Listen before anything awaits: a command that fails to start or ends at once must not be missed.
    exited = new Promise((resolve) => {
      started.once('exit', (code) => resolve({ exitCode: code }));
      started.once('error', (error) =>
        resolve({ exitCode: null, startError: `could not start ${shell}: ${error.message}` }),
      );
    });
  } catch (error) {
    // Thrown, not emitted: a NUL byte in the command or E2BIG. No exit event will ever come.
    exited = Promise.resolve({
      exitCode: null,
      startError: `could not start ${shell}: ${(error as Error).message.split('\n')[0]}`,
    });
  } finally {
    await log.close();
  }
  return { child, exited };
}

/** Ends the processes that left the gate's group (setsid, double fork, daemon()), found by their marker, and says so in the log. */
async function endStrays(
  marker: Parameters<Containment['endStrays']>[0],
  options: GateProcessOptions,
  contained: (() => void) | undefined,
): Promise<void> {
  if (!options.containment) return;
  const strays = await options.containment.run.endStrays(marker, options.force ? { force: options.force } : {});
  contained?.();
  if (strays.length === 0) return;
  const line = describeEnded(strays, "that left the gate's group");
  options.containment.warn(line);
  await appendFile(options.logPath, `[ralph] ${line}\n`).catch(() => undefined);
}
