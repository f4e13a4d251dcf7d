import { answerDecide, resolveBlocked } from '../files/signal-files.js';
import type { AgentShare, RunReport } from '../loop/run-report.js';
import { formatDuration, reasonLabel } from './format.js';

/**
 * The facts of the summary block, label and value: the terminal and the GitHub job summary show the
 * same, but for `next`, what a human does after a BLOCKED or DECIDE where the terminal's way is not
 * theirs (a workflow's answer input).
 */
export function summaryFacts(report: RunReport, next = NEXT_STEP[report.reason]): [label: string, value: string][] {
  return [
    ['Exit', `${reasonLabel(report.reason)} (code ${report.exitCode})`],
    ['Iterations', `${report.iterations} / ${report.maxIterations}`],
    ['Duration', formatDuration(report.durationSeconds * 1000)],
    ['Stories', `${report.stories.complete}/${report.stories.total} complete`],
    ['Avg/iter', formatDuration(report.avgIterationSeconds * 1000)],
    ['Stuck iters', String(report.stuckIterations)],
    ...(report.costUsd > 0 ? ([['Cost', `$${report.costUsd.toFixed(2)}`]] as [string, string][]) : []),
    ...(report.agents ? ([['Agents', describeShares(report.agents)]] as [string, string][]) : []),
    ...(next ? ([['Next', next]] as [string, string][]) : []),
  ];
}

/** What a human does after an ending that waits for one. */
const NEXT_STEP: Partial<Record<RunReport['reason'], string>> = {
  blocked: resolveBlocked('ralph/blocked.txt'),
  decide: answerDecide('ralph/decide.txt'),
};

/** The next step when `ralph answer --run` would not replay the run's --agent-bin: answer, then run. */
export function nextStepWithoutReplay(reason: RunReport['reason']): string | undefined {
  if (reason === 'blocked') return resolveBlocked('ralph/blocked.txt', false);
  if (reason === 'decide') return answerDecide('ralph/decide.txt', false);
  return undefined;
}

/** The summary block printed at the end of every run; `next` in place of the usual next step. */
export function renderSummary(
  report: RunReport,
  csvPath = 'ralph/logs/summary.csv',
  next = NEXT_STEP[report.reason],
): string {
  const [exit, ...rest] = summaryFacts(report, next).map(([label, value]): [string, string] => [`${label}:`, value]);
  const rows: [string, string][] = [
    exit!,
    ...(report.detail ? ([['Reason:', report.detail.split('\n')[0] ?? '']] as [string, string][]) : []),
    ...rest,
    ['Log:', csvPath],
  ];
  const title = 'Ralph Loop Summary';
  const more = report.detail?.includes('\n')
    ? report.detail
        .split('\n')
        .slice(1)
        .map((line) => `             ${line}`)
    : [];
  const lines = rows.map(([key, value]) => `${key.padEnd(13)}${value}`);
  lines.splice(report.detail ? 2 : 1, 0, ...more);
  return [title, '─'.repeat(title.length), ...lines].join('\n');
}

/** `<kind> 3 iterations $0.42 · <fallback kind> 2 iterations`: what each agent kind did, when more than one ran. */
function describeShares(agents: Record<string, AgentShare>): string {
  return Object.entries(agents)
    .map(([kind, share]) => {
      const cost = share.costUsd === undefined ? '' : ` $${share.costUsd.toFixed(2)}`;
      return `${kind} ${share.iterations} iteration${share.iterations === 1 ? '' : 's'}${cost}`;
    })
    .join(' · ');
}
