import type { Reason } from '../loop/termination.js';
import type { AgentFailure } from '../domain/agent-failure.js';
import type { RunReport } from '../loop/run-report.js';

/** Endings whose own detail already is the agent's failure. */
const NAME_THE_FAILURE: ReadonlySet<Reason> = new Set<Reason>([
  'agent_failures',
  'agent_auth',
  'agent_setup',
  'usage_limit',
]);

/** One line saying how an agent failed. */
function describeFailure(failure: AgentFailure): string {
  return failure.kind === 'error' ? (failure.lines.at(-1) ?? 'no error output') : failure.message;
}

/**
 * The report, its detail also naming the last iteration's failure when the ending does not
 * (`--max-iterations 1` with a failing agent: MAX ITERATIONS, and why the agent failed).
 */
export function withLastFailure(report: RunReport, failure: AgentFailure | undefined): RunReport {
  if (failure === undefined || NAME_THE_FAILURE.has(report.reason)) return report;
  const line = `the last iteration's agent failed: ${describeFailure(failure)}`;
  return { ...report, detail: report.detail ? `${report.detail}\n${line}` : line };
}
