import type { FatalAgentFailure } from '../domain/agent-failure.js';
import { truncate } from './output/summary-text.js';

const MAX_MESSAGE = 300;

// Claude Code refuses --dangerously-skip-permissions as root, before it does anything else.
const SETUP_PHRASES: readonly RegExp[] = [/--dangerously-skip-permissions cannot be used with root\/sudo privileges/i];

// The client's own words when it cannot reach the API (2.1.197, observed: `API Error: Unable to
// connect to API (FailedToOpenSocket)` after ~3 minutes of retries; ConnectionRefused is Bun's name).
const NETWORK_PHRASES: readonly RegExp[] = [/\bUnable to connect to API\b/i, /\bFailedToOpenSocket\b/];
// Node's and TLS's codes for the same: a project's own failing tests print them too, so they count
// only on a line about connecting, a request, the API or a proxy.
const NETWORK_CODES =
  /\b(?:ECONNREFUSED|ConnectionRefused|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN)\b|\bself[- ]signed certificate\b/i;
const NETWORK_CONTEXT = /\b(?:API|connect(?:ion)?|request|fetch|socket|proxy)\b/i;

const isNetworkLine = (line: string) =>
  NETWORK_PHRASES.some((phrase) => phrase.test(line)) || (NETWORK_CODES.test(line) && NETWORK_CONTEXT.test(line));

const AUTH_PHRASES: readonly RegExp[] = [
  /\binvalid api key\b/i,
  /\bnot logged in\b/i,
  /\bplease run \/login\b/i,
  /\boauth token (?:has )?(?:expired|been revoked)\b/i,
  /\bAPI Error:\s*401\b/i,
  // The stream-json `error` field, and the API's own error type for a 401.
  /\bauthentication_(?:failed|error)\b/,
];

/**
 * Recognises a login, set-up or network failure in text the caller knows is the agent's own error
 * output. A set-up refusal wins over the others anywhere in the text: it happens before anything
 * else; an unreachable API wins over auth, which it keeps the client from checking.
 */
export function classifyAgentFailure(text: string): FatalAgentFailure | undefined {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const setup = lines.find((line) => SETUP_PHRASES.some((phrase) => phrase.test(line)));
  if (setup !== undefined) return { kind: 'setup', message: truncate(setup, MAX_MESSAGE) };
  const network = lines.find(isNetworkLine);
  if (network !== undefined) return { kind: 'setup', message: truncate(network, MAX_MESSAGE), cause: 'network' };
  const auth = lines.find((line) => AUTH_PHRASES.some((phrase) => phrase.test(line)));
  if (auth !== undefined) return { kind: 'auth', message: truncate(auth, MAX_MESSAGE) };
  return undefined;
}
