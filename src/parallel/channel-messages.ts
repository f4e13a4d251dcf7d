import type { z as Z } from 'zod';
import { loadZod } from '../files/lazy-zod.js';
import { MAX_EPOCH_MS } from '../domain/numbers.js';

/**
 * The supervisor and each loop talk over one socket per loop (the child's fd 3), one JSON object a
 * line. Which loop a line belongs to is the socket it came on, never anything the line says: a
 * loop can only ever speak for itself. Every line is checked here and bounded in size; one that
 * fails is dropped, never guessed at.
 */

const { z } = loadZod();

/** A line longer than this is no message: dropped whole. */
export const MAX_MESSAGE_BYTES = 4096;

/** The longest text a message carries (a title, a reason). */
const MAX_WORDS = 500;

const count = z.number().int().nonnegative().max(1e9);
const stories = z.object({ complete: count, total: count }).strict();
/** Words a person reads (a story title, a usage-limit message): bounded; escaped where shown. */
const words = z.string().max(MAX_WORDS);
const epochMs = z.number().int().nonnegative().max(MAX_EPOCH_MS);

/** What a loop tells the supervisor, as its reporter sees it. */
export const LoopMessage = z.discriminatedUnion('t', [
  z
    .object({
      t: z.literal('started'),
      iteration: count,
      mode: z.string().max(40),
      stories,
      story: z
        .object({ id: z.string().max(100), title: words })
        .strict()
        .optional(),
    })
    .strict(),
  z
    .object({
      t: z.literal('finished'),
      iteration: count,
      committed: z.boolean(),
      outcome: z.string().max(40),
      costUsd: z.number().nonnegative().max(1e9),
      stories,
    })
    .strict(),
  /** The account's usage limit, met by this loop: it lifts at `until`. */
  z.object({ t: z.literal('usage_limit'), until: epochMs, message: words }).strict(),
  /** This loop is pausing (a usage limit of its own, or the account's) until `until`. */
  z.object({ t: z.literal('waiting'), until: epochMs, message: words }).strict(),
]);
export type LoopMessage = Z.infer<typeof LoopMessage>;

/** What the supervisor tells a loop: the account is at its usage limit until `until`. */
export const SupervisorMessage = z.object({ t: z.literal('hold'), until: epochMs, message: words }).strict();
export type SupervisorMessage = Z.infer<typeof SupervisorMessage>;

/** One message as its line, or undefined when it would pass the bound (never a line past it). */
export function messageLine(message: object): string | undefined {
  const line = JSON.stringify(message);
  return Buffer.byteLength(line) <= MAX_MESSAGE_BYTES - 1 ? `${line}\n` : undefined;
}

/** One line as JSON, or undefined when it is oversized or no JSON. */
function lineJson(line: string): unknown {
  if (Buffer.byteLength(line) > MAX_MESSAGE_BYTES) return undefined;
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** One line as a message of the schema, or undefined when it is not one. */
export function parseMessage<T>(schema: Z.ZodType<T>, line: string): T | undefined {
  const parsed = schema.safeParse(lineJson(line));
  return parsed.success ? parsed.data : undefined;
}
