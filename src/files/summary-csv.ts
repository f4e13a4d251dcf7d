import { appendFile, stat } from 'node:fs/promises';
import { stringify } from 'csv-stringify/sync';
import type { IterationRow } from '../loop/port-data.js';
import { unlessMissing } from './missing-file.js';

/** The documented columns, in order; later columns may be appended, never reordered. */
export const SUMMARY_COLUMNS = [
  'iteration',
  'mode',
  'duration_seconds',
  'commit_hash',
  'stories_complete',
  'stories_total',
  'stuck_count',
  'timestamp',
  // Appended by the resilience work: why the iteration ended, and what the agent reported.
  'outcome',
  'agent_exit_code',
  'cost_usd',
  'input_tokens',
  'output_tokens',
  'num_turns',
  'tool_calls',
] as const;

/** Appends one row, writing the header first when the file is new. Never re-reads the file. */
export async function appendSummaryRow(path: string, row: IterationRow): Promise<void> {
  const values = [
    row.iteration,
    row.mode,
    row.durationSeconds,
    row.commitHash,
    row.storiesComplete,
    row.storiesTotal,
    row.stuckCount,
    row.timestamp,
    row.outcome,
    row.agentExitCode ?? '',
    row.stats.costUsd ?? '',
    row.stats.inputTokens ?? '',
    row.stats.outputTokens ?? '',
    row.stats.numTurns ?? '',
    row.stats.toolCalls,
  ];
  const needsHeader = await isMissingOrEmpty(path);
  const records = needsHeader ? [[...SUMMARY_COLUMNS], values] : [values];
  await appendFile(path, stringify(records));
}

async function isMissingOrEmpty(path: string): Promise<boolean> {
  const stats = await unlessMissing(() => stat(path));
  return stats === undefined || stats.size === 0;
}
