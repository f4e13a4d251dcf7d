import { amp } from './amp/dialect.js';
import type { AgentDialect } from './dialect.js';

/**
 * What the bash ralph.sh of snarktank/ralph ran, for `ralph init --from`: `--tool amp` (its default)
 * piped prompt.md to Amp, `--tool claude` piped CLAUDE.md to Claude Code. These are facts about that
 * script and the two clients it knew, so they live here with the clients, not in the import.
 */

/** The prompt files ralph.sh read, the one it used by default first. */
export const RALPH_SH_PROMPTS = ['prompt.md', 'CLAUDE.md'] as const;

// ralph.sh's Amp prompt links each story's thread: `$AMP_CURRENT_THREAD_ID`, ampcode.com/threads/….
const AMP_THREADS = /\bamp\b|AMP_CURRENT_THREAD_ID|ampcode/i;

/** What an old prompt asks of ralph.sh's client that the client ralph will run does not offer. */
export function promptLeansOnItsClient(text: string, runs: AgentDialect): string | undefined {
  if (runs === amp || !AMP_THREADS.test(text)) return undefined;
  return `it mentions Amp threads: ralph runs ${runs.name}, which has none`;
}
