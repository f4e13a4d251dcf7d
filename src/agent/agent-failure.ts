import { truncate } from './output/summary-text.js';

/**
 * A failure no further iteration can fix: the agent is not logged in (`auth`), or the client
 * refuses to start in this environment (`setup`).
 */
export interface AgentFailure {
  kind: 'auth' | 'setup';
  /** The line that said so, trimmed. */
  message: string;
}

const MAX_MESSAGE = 300;

// Claude Code refuses --dangerously-skip-permissions as root, before it does anything else.
const SETUP_PHRASES: readonly RegExp[] = [/--dangerously-skip-permissions cannot be used with root\/sudo privileges/i];

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
 * Recognises a login or set-up failure in text the caller knows is the agent's own error output.
 * A set-up refusal wins over an auth message anywhere in the text: it happens before any login check.
 */
export function classifyAgentFailure(text: string): AgentFailure | undefined {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const setup = lines.find((line) => SETUP_PHRASES.some((phrase) => phrase.test(line)));
  if (setup !== undefined) return { kind: 'setup', message: truncate(setup, MAX_MESSAGE) };
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
