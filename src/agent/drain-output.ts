import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long output may keep flowing after the agent's process group is gone. */
const DRAIN_LIMIT_MS = 2000;

/** Waits for the output to be fully written; gives up on sources still open after the limit. */
export async function drainOutput(sources: NodeJS.ReadableStream[], sinks: Writable[]): Promise<void> {
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
