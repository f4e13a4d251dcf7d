import type { AgentFailure, Exhaustion } from '../domain/agent-failure.js';
import type { ExhaustedCause } from '../domain/usage.js';
import type { AgentDialect } from './dialect.js';
import type { OutputSummary } from './output/agent-output.js';
import { neutralise } from '../text/neutralise.js';
import { detectServerBusy, detectUsageLimit, isLimitStatus } from './usage-limit.js';

/**
 * How an agent that failed on its own failed: a set-up refusal, a login problem, a usage
 * limit, a busy server, or a plain error. Only for a failed iteration (non-zero exit or an error
 * result), and only from the agent's own error output — so a tool result that mentions "usage
 * limit" or a prompt quoting "Not logged in" can never stop the run. Wall-clock reset times
 * without a zone are read in `localZone` (this machine's when absent). The agent's dialect reads
 * the rest: each client says it is not logged in, or cannot start, in its own words, and has its
 * own fixes.
 */
export function diagnoseFailure(
  summary: OutputSummary,
  exitCode: number | null,
  now: number,
  dialect: Pick<AgentDialect, 'classifyFailure' | 'hints'>,
  localZone?: string,
): AgentFailure | undefined {
  // A machine-readable mode with not one JSON line fails, whatever the exit: nothing could be read.
  const failed = exitCode !== 0 || summary.result?.isError === true || summary.notJson !== undefined;
  if (!failed) return undefined;
  const text = summary.errorText.join('\n');
  const classified = dialect.classifyFailure(text);
  if (classified) return classified;
  const errorLines = () => {
    const box = boxFailure(summary.errorText);
    if (box) return [box];
    if (summary.notJson !== undefined) return [notJsonLine(summary.notJson)];
    const lines = summary.errorText.slice(-10);
    return lines.length > 0 ? lines : [`exit code ${exitCode ?? 'none (killed by a signal)'}`];
  };
  // A rejected rate_limit_event is the client's own verdict: a usage limit, whatever the text says.
  const event = summary.rateLimitRejected;
  const busy = event ? undefined : detectServerBusy(text, now);
  const status = summary.result?.apiErrorStatus;
  if (busy || (!event && status === 529)) {
    return {
      kind: 'error',
      lines: errorLines(),
      busy: busy ?? { kind: 'overloaded', message: `the API is overloaded (HTTP ${status})` },
    };
  }
  const limit = detectUsageLimit(text, now, localZone);
  if (!limit && !event && !isLimitStatus(status)) return { kind: 'error', lines: errorLines() };
  const reset = event?.reset ?? limit?.reset;
  const message =
    limit?.message ?? (summary.result?.text || event?.message || `the agent hit a rate limit (HTTP ${status ?? 429})`);
  return {
    kind: 'usage_limit',
    message,
    ...(reset ? { reset } : {}),
    ...exhaustion(limit?.exhausted, dialect.hints),
  };
}

/** A limit no wait lifts, with the client's fix where the fix is the client's. */
function exhaustion(cause: ExhaustedCause | undefined, hints: AgentDialect['hints']): Exhaustion {
  if (cause === 'out_of_credits') return { exhausted: cause, hint: hints.credits };
  return cause === undefined ? {} : { exhausted: cause };
}

/**
 * The box's own refusal to start (bubblewrap says `bwrap: …` before the client runs, as when a path
 * it binds went away mid-run): named as the box's, never taken for the client's failure.
 */
function boxFailure(errorText: readonly string[]): string | undefined {
  const said = errorText.find((line) => line.startsWith('bwrap: '));
  return said && `the box (bubblewrap) could not start the agent: ${neutralise(said.slice('bwrap: '.length))}`;
}

/** A stream with no JSON, quoted by its first bytes (made harmless for a terminal, then as a JSON string). */
function notJsonLine(first: string): string {
  return (
    `the agent printed no JSON in its machine-readable mode, so nothing it said could be read; it began ` +
    `${JSON.stringify(neutralise(first))} — it was probably started in the wrong mode: check agent.args and ` +
    `--agent-bin, or pass --output text`
  );
}
