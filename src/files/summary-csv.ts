import { stringify } from 'csv-stringify/sync';
import type { IterationRow } from '../loop/port-data.js';
import { appendOwnFile } from './own-file.js';

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

/** Appends one row, writing the header first when the file is new (or empty). Never re-reads the file. */
export async function appendSummaryRow(root: string, path: string, row: IterationRow): Promise<void> {
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
  await appendOwnFile(root, path, (empty) => stringify(empty ? [[...SUMMARY_COLUMNS], values] : [values]));
}
