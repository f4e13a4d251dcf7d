import { appendFile, open, stat } from 'node:fs/promises';
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
  // Appended with the agent kinds: which one ran the iteration (--agent, or --fallback-agent).
  'agent',
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
    row.agent ?? '',
  ];
  const needsHeader = await isMissingOrEmpty(path);
  // A file an older ralph began keeps its columns: its rows stay as wide as its header.
  if (needsHeader) widths.set(path, SUMMARY_COLUMNS.length);
  const width = needsHeader ? SUMMARY_COLUMNS.length : await headerWidth(path);
  const records = needsHeader ? [[...SUMMARY_COLUMNS], values] : [values.slice(0, width)];
  await appendFile(path, stringify(records));
}

const widths = new Map<string, number>();

/** How many columns the file's header has, read once per file: the header is the first line, and short. */
async function headerWidth(path: string): Promise<number> {
  const known = widths.get(path);
  if (known !== undefined) return known;
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const header = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0] ?? '';
    const width = Math.max(1, header.split(',').length);
    widths.set(path, width);
    return width;
  } finally {
    await handle.close();
  }
}

async function isMissingOrEmpty(path: string): Promise<boolean> {
  const stats = await unlessMissing(() => stat(path));
  return stats === undefined || stats.size === 0;
}
