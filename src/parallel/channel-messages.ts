import type { z as Z } from 'zod/mini';
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

const count = z.int().check(z.nonnegative(), z.maximum(1e9));
const stories = z.strictObject({ complete: count, total: count });
/** Words a person reads (a story title, a usage-limit message): bounded; escaped where shown. */
const words = z.string().check(z.maxLength(MAX_WORDS));
const epochMs = z.int().check(z.nonnegative(), z.maximum(MAX_EPOCH_MS));
const shortWord = z.string().check(z.maxLength(40));

/** What a loop tells the supervisor, as its reporter sees it. */
export const LoopMessage = z.discriminatedUnion('t', [
  z.strictObject({
    t: z.literal('started'),
    iteration: count,
    mode: shortWord,
    stories,
    story: z.optional(z.strictObject({ id: z.string().check(z.maxLength(100)), title: words })),
  }),
  z.strictObject({
    t: z.literal('finished'),
    iteration: count,
    committed: z.boolean(),
    outcome: shortWord,
    costUsd: z.number().check(z.nonnegative(), z.maximum(1e9)),
    stories,
  }),
  /** The account's usage limit, met by this loop: it lifts at `until`. */
  z.strictObject({ t: z.literal('usage_limit'), until: epochMs, message: words }),
  /** This loop is pausing (a usage limit of its own, or the account's) until `until`. */
  z.strictObject({ t: z.literal('waiting'), until: epochMs, message: words }),
]);
export type LoopMessage = Z.infer<typeof LoopMessage>;

/** What the supervisor tells a loop: the account is at its usage limit until `until`. */
export const SupervisorMessage = z.strictObject({ t: z.literal('hold'), until: epochMs, message: words });
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
export function parseMessage<T>(schema: Z.ZodMiniType<T>, line: string): T | undefined {
  const parsed = schema.safeParse(lineJson(line));
  return parsed.success ? parsed.data : undefined;
}
