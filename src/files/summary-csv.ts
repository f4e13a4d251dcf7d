import type { stringify as Stringify } from 'csv-stringify/sync';
import type { IterationRow } from '../loop/port-data.js';
import { appendOwnFile, openOwnFileForReading } from './own-file.js';

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
  // Appended with the forecast: the story ralph chose for the iteration's prompt (empty: none was open).
  'story',
] as const;

/** Appends one row, writing the header first when the file is new (or empty). Never re-reads the file. */
export async function appendSummaryRow(root: string, path: string, row: IterationRow, width?: number): Promise<void> {
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
    row.story === undefined ? '' : storyCell(row.story),
  ];
  // A file an older ralph began keeps its columns: its rows stay as wide as its header.
  const columns = width ?? (await summaryHeaderWidth(path));
  const stringify = await csvStringify();
  await appendOwnFile(root, path, (empty) =>
    stringify(empty ? [[...SUMMARY_COLUMNS], values] : [values.slice(0, columns)]),
  );
}

/**
 * A story id as the `story` column holds it: on one line (every record is one line, csv-tail.ts),
 * at most 200 characters. The report compares the task list's ids through this too.
 */
export function storyCell(id: string): string {
  return id.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 200);
}

let stringifyLoaded: Promise<typeof Stringify> | undefined;

/** csv-stringify, loaded when the first row is written: the run's start does not wait for it. */
function csvStringify(): Promise<typeof Stringify> {
  stringifyLoaded ??= import('csv-stringify/sync').then((module) => module.stringify);
  return stringifyLoaded;
}

/** How many columns the file's header has (all of them for a new file): the header is its first line. */
export async function summaryHeaderWidth(path: string): Promise<number> {
  const handle = await openOwnFileForReading(path);
  if (handle === undefined) return SUMMARY_COLUMNS.length;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    if (bytesRead === 0) return SUMMARY_COLUMNS.length;
    const header = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0] ?? '';
    return Math.max(1, header.split(',').length);
  } finally {
    await handle.close();
  }
}
