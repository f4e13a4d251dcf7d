import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

/** How long output may keep flowing after the agent's process group is gone. */
const DRAIN_LIMIT_MS = 2000;

/** Waits for the output to be fully written; gives up on sources still open after the limit. */
export async function drainOutput(sources: NodeJS.ReadableStream[], sinks: Writable[]): Promise<void> {
  const all = Promise.all(sinks.map((sink) => finished(sink).catch(() => undefined)));
  // A plain timer, cleared: an aborted timers/promises sleep builds an AbortError, stack and all,
  // once an iteration.
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    all.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), DRAIN_LIMIT_MS))),
  ]);
  clearTimeout(timer);
  if (!timedOut) return;
  // Something that escaped the group still holds the pipe: stop reading and close our side.
  for (const source of sources) (source as unknown as { destroy(): void }).destroy();
  for (const sink of sinks) sink.end();
  await all;
}
