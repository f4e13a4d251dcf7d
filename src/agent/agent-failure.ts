import { truncate } from './output/summary-text.js';

/**
 * A failure no further iteration can fix: the agent is not logged in (`auth`), or the client
 * cannot work in this environment (`setup`): it refuses to start, or (`cause: 'network'`) it
 * cannot reach the API at all.
 */
export interface AgentFailure {
  kind: 'auth' | 'setup';
  /** The line that said so, trimmed. */
  message: string;
  cause?: 'network';
}

const MAX_MESSAGE = 300;

// Claude Code refuses --dangerously-skip-permissions as root, before it does anything else.
const SETUP_PHRASES: readonly RegExp[] = [/--dangerously-skip-permissions cannot be used with root\/sudo privileges/i];

// The client's own words when it cannot reach the API (2.1.197, observed: `API Error: Unable to
// connect to API (FailedToOpenSocket)` after ~3 minutes of retries; ConnectionRefused is Bun's name).
const NETWORK_PHRASES: readonly RegExp[] = [/\bUnable to connect to API\b/i, /\bFailedToOpenSocket\b/];
// Node's and TLS's codes for the same: a project's own failing tests print them too, so they count
// only on a line about connecting, a request, the API or a proxy.
const NETWORK_CODES = /\b(?:ECONNREFUSED|ConnectionRefused|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN)\b|\bself[- ]signed certificate\b/i;
const NETWORK_CONTEXT = /\b(?:API|connect(?:ion)?|request|fetch|socket|proxy)\b/i;

const isNetworkLine = (line: string) => NETWORK_PHRASES.some((phrase) => phrase.test(line)) || (NETWORK_CODES.test(line) && NETWORK_CONTEXT.test(line));

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
export function classifyAgentFailure(text: string): AgentFailure | undefined {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const setup = lines.find((line) => SETUP_PHRASES.some((phrase) => phrase.test(line)));
  if (setup !== undefined) return { kind: 'setup', message: truncate(setup, MAX_MESSAGE) };
  const network = lines.find(isNetworkLine);
  if (network !== undefined) return { kind: 'setup', message: truncate(network, MAX_MESSAGE), cause: 'network' };
  const auth = lines.find((line) => AUTH_PHRASES.some((phrase) => phrase.test(line)));
  if (auth !== undefined) return { kind: 'auth', message: truncate(auth, MAX_MESSAGE) };
  return undefined;
}

/** What to tell the user when the client refuses to run as root: both ways out. */
export function setupFixHint(): string {
  return (
    'Claude Code refuses --dangerously-skip-permissions as root. Run ralph as a normal (non-root) user, ' +
    'or, inside a container or CI runner you trust, set IS_SANDBOX=1 in the environment to lift the refusal.'
  );
}

/** What to tell the user when the agent cannot reach the API: the network, a proxy, a CA, and how to check. */
export function networkFixHint(): string {
  return (
    'the agent cannot reach the Anthropic API, and every further call would wait minutes for the same. Check the network ' +
    '(behind a proxy set HTTPS_PROXY; behind a TLS-inspecting proxy set NODE_EXTRA_CA_CERTS to its CA file), test reachability ' +
    'with `curl -sI https://api.anthropic.com`, then run again'
  );
}
