import { Socket } from 'node:net';
import type { AgentFailure } from '../domain/agent-failure.js';
import type { AccountLimit, LoopReporter } from '../loop/ports.js';
import type { Wait } from '../loop/port-data.js';
import { RESET_MARGIN_MS } from '../loop/limit-ruling.js';
import { BoundedLines } from '../text/bounded-lines.js';
import {
  MAX_MESSAGE_BYTES,
  messageLine,
  parseMessage,
  SupervisorMessage,
  type LoopMessage,
} from './channel-messages.js';

/**
 * The variable that names the loop's end of its channel to the supervisor (a file descriptor). The
 * loop reads it once at start and deletes it, so neither the agent nor a gate inherits it; the
 * descriptor itself is not passed on to any process the loop starts (Node opens nothing inheritable).
 */
export const CHANNEL_VARIABLE = 'RALPH_PARALLEL_CHANNEL';

/** A loop's side of its channel: what it tells the supervisor, and the account's limit as heard back. */
export interface LoopChannel extends AccountLimit {
  send(message: LoopMessage): void;
  /** The loop's events the supervisor hears: each loop's line and the account's limit. */
  readonly events: ChannelEvents;
  close(): void;
}

/**
 * Opens the channel a supervisor handed this loop, or undefined for a loop of its own. When the
 * supervisor goes away (the socket closes), the loop stops as on SIGTERM: no loop outlives it.
 */
export function openLoopChannel(env: NodeJS.ProcessEnv, onLost: () => void): LoopChannel | undefined {
  const named = env[CHANNEL_VARIABLE];
  if (named === undefined) return undefined;
  delete env[CHANNEL_VARIABLE];
  if (!/^[3-9]$/.test(named)) return undefined;
  let socket: Socket;
  try {
    socket = new Socket({ fd: Number(named), readable: true, writable: true });
  } catch {
    return undefined;
  }
  let hold: Wait | undefined;
  let closing = false;
  const lines = new BoundedLines(MAX_MESSAGE_BYTES, (line, cut) => {
    const message = cut ? undefined : parseMessage(SupervisorMessage, line);
    if (message && message.until > (hold?.until ?? 0))
      hold = { until: message.until, message: message.message, why: 'usage_limit' };
  });
  socket.on('data', (chunk: Buffer) => lines.push(chunk));
  socket.on('error', () => undefined);
  socket.on('close', () => {
    if (!closing) onLost();
  });
  // The channel must not keep the loop's process alive once the loop is done.
  socket.unref();
  const send = (message: LoopMessage) => {
    const line = messageLine(message);
    if (line !== undefined && socket.writable) socket.write(line);
  };
  return {
    send,
    held: (now) => (hold && hold.until > now ? hold : undefined),
    events: eventsFor(send),
    close() {
      closing = true;
      socket.end();
    },
  };
}

/** The loop's events the channel tells the supervisor of. */
export type ChannelEvents = Pick<LoopReporter, 'iterationStarted' | 'iterationFinished' | 'usageLimitWait'>;

/** What each event means for the loop's line and the account, told to the supervisor. */
function eventsFor(send: (message: LoopMessage) => void): ChannelEvents {
  return {
    iterationStarted(event) {
      const { iteration, mode, stories, story } = event;
      send({
        t: 'started',
        iteration,
        mode,
        stories,
        ...(story ? { story: { id: cut(story.id, 100), title: cut(story.title) } } : {}),
      });
    },
    iterationFinished(event) {
      const { row, committed, failure } = event;
      send({
        t: 'finished',
        iteration: row.iteration,
        committed,
        outcome: row.outcome,
        costUsd: row.stats.costUsd ?? 0,
        stories: { complete: row.storiesComplete, total: row.storiesTotal },
      });
      const limit = announcedLimit(failure);
      if (limit) send(limit);
    },
    usageLimitWait(wait) {
      const message = cut(wait.message);
      if (wait.why === 'usage_limit') send({ t: 'usage_limit', until: wait.until, message });
      send({ t: 'waiting', until: wait.until, message });
      return () => undefined;
    },
  };
}

/** A usage limit with an announced reset is the account's until then, even for a loop about to stop with it. */
function announcedLimit(failure: AgentFailure | undefined): LoopMessage | undefined {
  if (failure?.kind !== 'usage_limit' || !failure.reset) return undefined;
  return { t: 'usage_limit', until: failure.reset.at + RESET_MARGIN_MS, message: cut(failure.message) };
}

/** Words kept well inside a message's bound. */
function cut(text: string, most = 200): string {
  return text.length > most ? `${text.slice(0, most - 1)}…` : text;
}
