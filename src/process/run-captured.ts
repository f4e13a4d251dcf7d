// eslint-disable-next-line no-restricted-imports -- on the way to a run's first agent, where loading execa costs ~100 ms
import { spawn, type ChildProcess } from 'node:child_process';
import { signalGroup } from './process-group.js';

export interface CaptureOptions {
  cwd?: string;
  /** The program's whole environment, not added to process.env; process.env itself when absent. */
  env?: NodeJS.ProcessEnv;
  /** What the program reads on its standard input; stdin is closed ('ignore') when absent. */
  input?: string;
  /**
   * Left to finish when ralph itself exits (git, which would otherwise leave its index.lock); a
   * query is ended with ralph.
   */
  finishOnExit?: boolean;
  /** How many bytes of stdout, and of stderr, are kept; more stops the program ('overflow'). */
  maxBytes: number;
  /** Required: a program whose grandchild holds its pipes would otherwise be waited for forever. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Why runCaptured ended the program itself. */
export type StopReason = 'timeout' | 'abort' | 'overflow';

/** What the program did. Its exit code is an answer too: a non-zero one is no failure here. */
export interface Captured {
  /** Undefined when it never started, or was ended by a signal. */
  exitCode: number | undefined;
  signal: NodeJS.Signals | undefined;
  /** What it printed, raw (the final newline kept), decoded as UTF-8; at most maxBytes of it. */
  stdout: string;
  stderr: string;
  /** Set when runCaptured ended it: what was printed until then is kept. */
  stopped: StopReason | undefined;
  /** Why it could not start (ENOENT, EACCES, E2BIG): a value, never a rejection. */
  error: NodeJS.ErrnoException | undefined;
}

/**
 * Runs a program and keeps what it prints, bounded: a short query (git, `<agent> --version`), not
 * a program to stream. Node's own spawn rather than execa: this sits on the path from `ralph run`
 * to its first agent, where execa's ~125 modules cost ~100 ms of start-up.
 *
 * The program runs in a process group of its own, owned here: the group is killed as soon as the
 * program exits, is stopped, or overflows, so whatever it started in the group (a launcher's real
 * binary, a hook's daemon) goes with it. Output beyond `maxBytes` stops the program rather than
 * being dropped while it runs on: a caller learns it from `stopped`, and nothing keeps a program
 * running whose output nobody reads. When stopped (timeout, abort, overflow) the group gets
 * SIGKILL — these are queries, with nothing to save — and the pipes are closed, so a process that
 * left the group and holds them cannot hold this up. Never rejects.
 */
export function runCaptured(file: string, args: readonly string[], options: CaptureOptions): Promise<Captured> {
  const none = { exitCode: undefined, signal: undefined, stdout: '', stderr: '', stopped: undefined, error: undefined };
  if (options.signal?.aborted) return Promise.resolve({ ...none, stopped: 'abort' });
  try {
    const child = spawn(file, args, {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    return capture(child, options);
  } catch (error) {
    // Arguments spawn refuses before any process exists (a NUL byte in an argument).
    return Promise.resolve({ ...none, error: error as NodeJS.ErrnoException });
  }
}

function capture(child: ChildProcess, options: CaptureOptions): Promise<Captured> {
  const [stdout, stderr] = [new Bounded(options.maxBytes), new Bounded(options.maxBytes)];
  let stopped: StopReason | undefined;
  let error: NodeJS.ErrnoException | undefined;
  const end = (why?: StopReason) => {
    stopped ??= why;
    kill(child);
    if (why) for (const stream of [child.stdout, child.stderr]) stream?.destroy();
  };
  const timer = setTimeout(() => end('timeout'), options.timeoutMs);
  const onAbort = () => end('abort');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk, () => end('overflow')));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk, () => end('overflow')));
  feed(child, options.input);
  child.once('exit', () => end());
  if (!options.finishOnExit) watchParentExit(child);
  return new Promise((resolve) => {
    const settle = (exitCode: number | undefined, signal: NodeJS.Signals | undefined) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      forget(child);
      resolve({ exitCode, signal, stdout: stdout.text(), stderr: stderr.text(), stopped, error });
    };
    child.on('error', (failure) => {
      error ??= failure;
      // No pid: it never started (ENOENT, EACCES), and its 'close' would carry no exit code.
      if (child.pid === undefined) settle(undefined, undefined);
    });
    child.once('close', (code, signal) => {
      if (child.pid !== undefined) settle(code ?? undefined, signal ?? undefined);
    });
  });
}

/** At most `limit` bytes of one stream, decoded once at the end. */
class Bounded {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer, overflow: () => void): void {
    const room = this.limit - this.size;
    if (room > 0) this.chunks.push(chunk.length <= room ? chunk : chunk.subarray(0, room));
    this.size += Math.min(chunk.length, room);
    if (chunk.length > room) overflow();
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

function feed(child: ChildProcess, input: string | undefined): void {
  if (input === undefined || !child.stdin) return;
  // A program that exits without reading all of it (EPIPE) has still answered.
  child.stdin.on('error', () => {});
  child.stdin.end(input);
}

function kill(child: ChildProcess): void {
  if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
}

/** The queries' groups, killed when ralph exits (as execa's `cleanup` did). */
const live = new Set<ChildProcess>();

function watchParentExit(child: ChildProcess): void {
  if (live.size === 0) process.once('exit', killLive);
  live.add(child);
}

function forget(child: ChildProcess): void {
  if (live.delete(child) && live.size === 0) process.removeListener('exit', killLive);
}

function killLive(): void {
  for (const child of live) kill(child);
}
