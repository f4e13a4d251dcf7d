/**
 * The channel's lines, without zod: a loop of `ralph run --parallel` reads the supervisor's one
 * kind of message (a hold) by hand, so a loop, like a run of its own, starts its agent without
 * loading zod. src/parallel/channel-messages.ts holds the schemas; test/unit/parallel/channel.test.ts
 * holds the hold's check and its schema side by side.
 */

import { MAX_EPOCH_MS } from '../domain/numbers.js';
import { isObject } from '../files/json-text.js';

/** A line longer than this is no message: dropped whole. */
export const MAX_MESSAGE_BYTES = 4096;

/** What the supervisor tells a loop: the account is at its usage limit until `until`. */
export interface Hold {
  t: 'hold';
  until: number;
  message: string;
}

/** The longest text a message carries (a title, a reason): channel-messages.ts's `words` too. */
export const MAX_WORDS = 500;

/** One message as its line, cut to the bound by shortening its words (never a line past it). */
export function messageLine(message: object): string | undefined {
  const line = JSON.stringify(message);
  return Buffer.byteLength(line) <= MAX_MESSAGE_BYTES - 1 ? `${line}\n` : undefined;
}

/** One line as JSON, or undefined when it is oversized or no JSON. */
export function lineJson(line: string): unknown {
  if (Buffer.byteLength(line) > MAX_MESSAGE_BYTES) return undefined;
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** A supervisor's line as the schema `SupervisorMessage` reads it, or undefined when it is not one. */
export function parseHold(line: string): Hold | undefined {
  const json = lineJson(line);
  if (!isObject(json)) return undefined;
  const { t, until, message } = json;
  if (Object.keys(json).some((key) => key !== 't' && key !== 'until' && key !== 'message')) return undefined;
  if (t !== 'hold' || !Number.isSafeInteger(until) || (until as number) < 0 || (until as number) > MAX_EPOCH_MS)
    return undefined;
  if (typeof message !== 'string' || message.length > MAX_WORDS) return undefined;
  return { t, until: until as number, message };
}
