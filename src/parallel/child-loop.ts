import { constants } from 'node:os';
import type { Duplex, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ChildProcess } from 'node:child_process';
import { startInGroup } from '../process/start-in-group.js';
import { BoundedLines } from '../text/bounded-lines.js';
import {
  LoopMessage,
  MAX_MESSAGE_BYTES,
  messageLine,
  parseMessage,
  type SupervisorMessage,
} from './channel-messages.js';
import { CHANNEL_VARIABLE } from './loop-channel.js';

/** How to start one loop: its command line (a `ralph run --worktree …`), where, with what environment. */
export interface LoopCommand {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** One running loop, as the supervisor holds it: a child process and the channel to it. */
export interface ChildLoop {
  /** Tells the loop something (the account's usage limit); dropped once it ended. */
  tell(message: SupervisorMessage): void;
  /** Passes a signal on to the loop, which ends its own agent and strays. */
  signal(signal: NodeJS.Signals): void;
  /** Its exit code once it ended (a signal that killed it outright counts as 128 + its number). */
  ended: Promise<number>;
}

/**
 * Starts one loop as its own process group (a Ctrl-C reaches the supervisor alone, which passes
 * it on once), with its channel on fd 3. Its output goes to `output` line by line; its messages,
 * checked, to `heard`.
 */
export function startLoop(
  loop: LoopCommand,
  output: (stream: 'stdout' | 'stderr') => Writable,
  heard: (message: LoopMessage) => void,
): ChildLoop {
  const { child, ended: exit } = startInGroup(loop.command, loop.args, {
    cwd: loop.cwd,
    env: { ...loop.env, [CHANNEL_VARIABLE]: '3' },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const channel = (child?.stdio[3] ?? null) as Duplex | null;
  const messages = new BoundedLines(MAX_MESSAGE_BYTES, (line, cut) => {
    const message = cut ? undefined : parseMessage(LoopMessage, line);
    if (message) heard(message);
  });
  channel?.on('data', (chunk: Buffer) => messages.push(chunk));
  channel?.on('error', () => undefined);
  const streams = [forward(child?.stdout ?? null, output('stdout')), forward(child?.stderr ?? null, output('stderr'))];
  const ended = exit.then(async ({ exitCode, signal, error }) => {
    await Promise.all(streams);
    channel?.destroy();
    if (exitCode !== undefined) return exitCode;
    if (signal !== undefined) return 128 + (constants.signals[signal] ?? 0);
    // Never started (its executable gone): as a shell says of a command it cannot run.
    return error ? 127 : 70;
  });
  return {
    tell(message) {
      const line = messageLine(message);
      if (line !== undefined && channel?.writable) channel.write(line);
    },
    signal: (signal) => {
      if (child) sendSignal(child, signal);
    },
    ended,
  };
}

/**
 * Resolves once the stream ended and every line of it was handed on; the sink's backpressure
 * reaches the loop (its pipe fills) rather than the supervisor's memory.
 */
async function forward(stream: Readable | null, sink: Writable): Promise<void> {
  if (!stream) return;
  // A stream cut off (the loop killed mid-line) loses that line's end, never the run.
  await pipeline(stream, sink).catch(() => undefined);
}

function sendSignal(
  child: Pick<ChildProcess, 'exitCode' | 'signalCode' | 'pid' | 'kill'>,
  signal: NodeJS.Signals,
): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    child.kill(signal);
  } catch {
    // Gone between the check and the kill: nothing to stop.
  }
}
