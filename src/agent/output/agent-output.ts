import type { Writable } from 'node:stream';
import type { PromiseSignals } from '../../domain/promise-signals.js';
import type { UsageLimit, UsageWindow } from '../../domain/usage.js';
import type { ResultEvent } from './stream-events.js';

/** Where the agent's two output streams go during one iteration, and what was read from them. */
export interface AgentOutput {
  stdout: Writable;
  stderr: Writable;
  /** What the output said; call once both streams have finished. */
  summary(): OutputSummary;
}

export interface OutputSummary {
  signals: PromiseSignals;
  /** stream-json only: the final result event, when it came. */
  result?: ResultEvent;
  /** Whether this kind of output ends with a result event (stream-json). */
  expectsResult: boolean;
  toolCalls: number;
  /** Lines that should have been JSON and were not. */
  invalidLines: number;
  /** JSON lines of a type the client's reader does not know (stream-json). */
  unknownLines?: number;
  /**
   * The start of the first line, when not one line was JSON although the mode is machine-readable
   * (stream-json): the client was probably started in the wrong mode.
   */
  notJson?: string;
  /**
   * The agent's own error output, where auth, set-up and limit messages are looked for:
   * stderr's last lines, synthetic error messages, a failed result's text, and stdout's last
   * plain lines (all of stdout in text mode; the non-JSON lines in stream-json). Never tool
   * results, never ordinary assistant prose.
   */
  errorText: string[];
  /** A `rate_limit_event` with status `rejected` came (its reset time, when given). */
  rateLimitRejected?: UsageLimit;
  /** The latest utilization per usage window the agent reported (stream-json). */
  usage?: UsageWindow[];
}

/** Where one iteration's output is written. */
export interface OutputTargets {
  /** The readable transcript, ralph/logs/iteration-NNN.log. */
  log: Writable;
  /** The raw stream-json lines, ralph/logs/iteration-NNN.jsonl (stream-json only). */
  jsonl?: Writable;
  /** The terminal's stdout and stderr; absent when quiet. */
  terminal?: { stdout: Writable; stderr: Writable };
  /** Whether the terminal wants colour. */
  color: boolean;
  verbose: boolean;
  onError: (error: Error) => void;
}
