import type { StreamEvent } from './output/stream-events.js';

/**
 * Turns one client's machine-readable lines into ralph's events. Each agent kind speaks its own
 * stream; what the loop hears is the same for all. A reader may hold text back until its turn ends
 * (a client that streams the assistant's words in deltas), so a promise tag split across deltas is
 * still read whole.
 */
export interface EventReader {
  /** One parsed JSON line: the events it stands for (none, one, or several). */
  read(json: unknown): StreamEvent[];
  /** The stream ended: whatever the reader still held. */
  end(): StreamEvent[];
  /**
   * A line of the client's stderr, for a client that reports its retries there and not in its
   * stream (Gemini CLI): what the retry said, when the line is one that only a dead network gives.
   */
  stderrRetry?(line: string): string | undefined;
}
