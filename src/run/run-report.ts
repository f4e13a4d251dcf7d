import { writeFile } from 'node:fs/promises';
import type { ResetSource } from '../agent/usage-limit.js';
import type { LoopResult } from '../loop/run-loop.js';
import { detailOf, exitCodeFor, type Reason } from '../loop/termination.js';
import { formatDuration, reasonLabel } from '../ui/format.js';

/** The facts of a finished run: the summary block and last-run.json say the same things. */
export interface RunReport {
  reason: Reason;
  exitCode: number;
  /** The blocked reason, the decide question, or what stopped the run. */
  detail?: string;
  iterations: number;
  maxIterations: number;
  firstIteration: number | null;
  lastIteration: number | null;
  startedAt: string;
  endedAt: string;
  durationSeconds: number;
  avgIterationSeconds: number;
  stories: { complete: number; total: number };
  stuckIterations: number;
  /** The agents' summed total_cost_usd (stream-json). */
  costUsd: number;
  /** Repetition detections per tool. */
  repetitions: Record<string, number>;
  /** When a usage limit resets (usage_limit endings). */
  resetsAt?: string;
  /** Which evidence the reset came from (usage_limit endings): event, epoch, dated, retry_after, clock or backoff. */
  resetSource?: ResetSource;
}

/** Builds the report of a run from the loop's result and the wall clock. */
export function buildRunReport(
  result: LoopResult,
  run: { startedAt: number; endedAt: number; firstIteration: number; maxIterations: number },
): RunReport {
  const durationMs = run.endedAt - run.startedAt;
  const detail = detailOf(result.termination);
  return {
    reason: result.termination.reason,
    exitCode: exitCodeFor(result.termination),
    ...(detail === undefined ? {} : { detail }),
    iterations: result.iterations,
    maxIterations: run.maxIterations,
    firstIteration: result.iterations > 0 ? run.firstIteration : null,
    lastIteration: result.iterations > 0 ? run.firstIteration + result.iterations - 1 : null,
    startedAt: new Date(run.startedAt).toISOString(),
    endedAt: new Date(run.endedAt).toISOString(),
    durationSeconds: Math.round(durationMs / 1000),
    avgIterationSeconds: result.iterations > 0 ? Math.round(durationMs / 1000 / result.iterations) : 0,
    stories: result.stories,
    stuckIterations: result.stuckIterations,
    costUsd: Math.round(result.costUsd * 1e6) / 1e6,
    repetitions: result.repetitions,
    ...(result.termination.reason === 'usage_limit' && result.termination.resetsAt !== undefined
      ? { resetsAt: new Date(result.termination.resetsAt).toISOString() }
      : {}),
    ...(result.termination.reason === 'usage_limit' ? { resetSource: result.termination.resetSource } : {}),
  };
}

/** The facts of the summary block, label and value: the terminal and the GitHub job summary show the same. */
export function summaryFacts(report: RunReport): [label: string, value: string][] {
  return [
    ['Exit', `${reasonLabel(report.reason)} (code ${report.exitCode})`],
    ['Iterations', `${report.iterations} / ${report.maxIterations}`],
    ['Duration', formatDuration(report.durationSeconds * 1000)],
    ['Stories', `${report.stories.complete}/${report.stories.total} complete`],
    ['Avg/iter', formatDuration(report.avgIterationSeconds * 1000)],
    ['Stuck iters', String(report.stuckIterations)],
    ...(report.costUsd > 0 ? ([['Cost', `$${report.costUsd.toFixed(2)}`]] as [string, string][]) : []),
  ];
}

/** The summary block printed at the end of every run. */
export function renderSummary(report: RunReport, csvPath = 'ralph/logs/summary.csv'): string {
  const [exit, ...rest] = summaryFacts(report).map(([label, value]): [string, string] => [`${label}:`, value]);
  const rows: [string, string][] = [
    exit!,
    ...(report.detail ? ([['Reason:', report.detail.split('\n')[0] ?? '']] as [string, string][]) : []),
    ...rest,
    ['Log:', csvPath],
  ];
  const title = 'Ralph Loop Summary';
  const more = report.detail?.includes('\n') ? report.detail.split('\n').slice(1).map((line) => `             ${line}`) : [];
  const lines = rows.map(([key, value]) => `${key.padEnd(13)}${value}`);
  lines.splice(report.detail ? 2 : 1, 0, ...more);
  return [title, '─'.repeat(title.length), ...lines].join('\n');
}

/** Writes ralph/logs/last-run.json, for scripts and CI that should not parse text. */
export async function writeLastRun(path: string, report: RunReport): Promise<void> {
  await writeFile(path, JSON.stringify(report, null, 2) + '\n');
}
