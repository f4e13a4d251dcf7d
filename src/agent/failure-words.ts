import type { FatalAgentFailure } from '../domain/agent-failure.js';
import { truncate } from './output/summary-text.js';

const MAX_MESSAGE = 300;

/** A fatal failure recognised in a client's own words, before its dialect adds the fix. */
export type RecognisedFailure =
  { kind: 'auth'; message: string } | { kind: 'setup'; message: string; cause?: 'network' };

/** The words by which one client says it cannot start, cannot reach its API, or is not logged in. */
export interface FailureWords {
  setup: readonly RegExp[];
  network: (line: string) => boolean;
  auth: readonly RegExp[];
}

/** How to fix each fatal failure, in one client's terms. */
export interface FailureHints {
  auth: string;
  setup: string;
  network: string;
  /**
   * How to go on once the usage credits are used up, which no wait lifts: where this client's
   * account adds them, or how to do without them.
   */
  credits: string;
}

/**
 * Recognises a login, set-up or network failure in text the caller knows is the agent's own error
 * output. A set-up refusal wins over the others anywhere in the text: it happens before anything
 * else; an unreachable API wins over auth, which it keeps the client from checking.
 */
export function recogniseFailure(text: string, words: FailureWords): RecognisedFailure | undefined {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const setup = lines.find((line) => words.setup.some((phrase) => phrase.test(line)));
  if (setup !== undefined) return { kind: 'setup', message: truncate(setup, MAX_MESSAGE) };
  const network = lines.find(words.network);
  if (network !== undefined) return { kind: 'setup', message: truncate(network, MAX_MESSAGE), cause: 'network' };
  const auth = lines.find((line) => words.auth.some((phrase) => phrase.test(line)));
  if (auth !== undefined) return { kind: 'auth', message: truncate(auth, MAX_MESSAGE) };
  return undefined;
}

/** A recognised failure with its client's fix: what the loop ends on. */
export function withHint(found: RecognisedFailure | undefined, hints: FailureHints): FatalAgentFailure | undefined {
  if (found === undefined) return undefined;
  if (found.kind === 'auth') return { ...found, hint: hints.auth };
  return { ...found, hint: found.cause === 'network' ? hints.network : hints.setup };
}

// Node's and TLS's codes for an unreachable API: a project's own failing tests print them too, so
// they count only on a line about connecting, a request, the API or a proxy.
const NETWORK_CODES =
  /\b(?:ECONNREFUSED|ConnectionRefused|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN)\b|\bself[- ]signed certificate\b/i;
const NETWORK_CONTEXT = /\b(?:API|connect(?:ion)?|request|fetch|socket|proxy)\b/i;

/** A network test for a client: its own phrases anywhere, or an OS/TLS error code on a line about connecting. */
export function networkLine(phrases: readonly RegExp[]): (line: string) => boolean {
  return (line) =>
    phrases.some((phrase) => phrase.test(line)) || (NETWORK_CODES.test(line) && NETWORK_CONTEXT.test(line));
}
