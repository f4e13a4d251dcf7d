import { networkLine, recogniseFailure, type FailureWords, type RecognisedFailure } from '../failure-words.js';

/** Claude Code's words for the failures no further iteration fixes (2.1.197, observed: test/fixtures/claude/). */
const CLAUDE_WORDS: FailureWords = {
  // It refuses --dangerously-skip-permissions as root, before it does anything else.
  setup: [/--dangerously-skip-permissions cannot be used with root\/sudo privileges/i],
  // `API Error: Unable to connect to API (FailedToOpenSocket)` after ~3 minutes of retries;
  // ConnectionRefused is Bun's name.
  network: networkLine([/\bUnable to connect to API\b/i, /\bFailedToOpenSocket\b/]),
  auth: [
    /\binvalid api key\b/i,
    /\bnot logged in\b/i,
    /\bplease run \/login\b/i,
    /\boauth token (?:has )?(?:expired|been revoked)\b/i,
    /\bAPI Error:\s*401\b/i,
    // The stream-json `error` field, and the API's own error type for a 401.
    /\bauthentication_(?:failed|error)\b/,
  ],
};

/** Recognises Claude Code's login, set-up or network failure in its own error output. */
export function classifyAgentFailure(text: string): RecognisedFailure | undefined {
  return recogniseFailure(text, CLAUDE_WORDS);
}
