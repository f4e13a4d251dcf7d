import type { IterationRow } from '../loop/port-data.js';
import type { AgentShare, RunReport } from '../loop/run-report.js';

/**
 * The report with each agent kind's iterations and cost, when more than one kind ran: a run with a
 * `--fallback-agent` says what each one did. A run of one kind reads as it always has.
 */
export function withAgentShares(report: RunReport, rows: readonly IterationRow[]): RunReport {
  const shares = new Map<string, AgentShare>();
  for (const row of rows) {
    if (row.agent === undefined) continue;
    const share = shares.get(row.agent) ?? { iterations: 0 };
    share.iterations++;
    if (row.stats.costUsd !== undefined)
      share.costUsd = Math.round(((share.costUsd ?? 0) + row.stats.costUsd) * 1e6) / 1e6;
    shares.set(row.agent, share);
  }
  return shares.size > 1 ? { ...report, agents: Object.fromEntries(shares) } : report;
}
