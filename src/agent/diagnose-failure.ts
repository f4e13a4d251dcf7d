import type { AgentFailure } from '../loop/ports.js';
import { classifyAgentFailure } from './agent-failure.js';
import type { OutputSummary } from './output/agent-output.js';
import { detectUsageLimit, isLimitStatus } from './usage-limit.js';

/**
 * How an agent that failed on its own failed: a set-up refusal, a login problem, a usage
 * limit, or a plain error. Only for a failed iteration (non-zero exit or an error result), and
 * only from the agent's own error output — so a tool result that mentions "usage limit" or a
 * prompt quoting "Not logged in" can never stop the run.
 */
export function diagnoseFailure(summary: OutputSummary, exitCode: number | null, now: number): AgentFailure | undefined {
  const failed = exitCode !== 0 || summary.result?.isError === true;
  if (!failed) return undefined;
  const text = summary.errorText.join('\n');
  const classified = classifyAgentFailure(text);
  if (classified) return classified;
  const limit = detectUsageLimit(text, now);
  const status = summary.result?.apiErrorStatus;
  if (limit || summary.rateLimitRejected || isLimitStatus(status)) {
    const resetsAt = limit?.resetsAt ?? summary.rateLimitRejected?.resetsAt;
    const message = limit?.message ?? (summary.result?.text || `the agent hit a rate limit (HTTP ${status ?? 429})`);
    return { kind: 'usage_limit', message, ...(resetsAt === undefined ? {} : { resetsAt }) };
  }
  const lines = summary.errorText.slice(-10);
  return { kind: 'error', lines: lines.length > 0 ? lines : [`exit code ${exitCode ?? 'none (killed by a signal)'}`] };
}
