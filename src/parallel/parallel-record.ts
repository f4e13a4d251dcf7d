import { join } from 'node:path';
import { readLastRun } from '../files/last-run.js';
import { replaceOwnFile } from '../files/replace-own-file.js';
import type { RecordPaths } from '../files/record-paths.js';
import type { ParallelResult } from './supervisor.js';

/** The parallel run's record, beside each loop's own: ralph/logs/parallel-last-run.json of the main checkout. */
export const PARALLEL_RECORD = 'parallel-last-run.json';

/** A loop's last-run.json larger than this is not ralph's (it writes a few KiB): not read. */
const MAX_RECORD_BYTES = 1024 * 1024;

export async function writeParallelRecord(
  root: string,
  logsDir: string,
  run: { startedAt: number; endedAt: number; jobs: number },
  result: ParallelResult,
): Promise<void> {
  const record = {
    startedAt: new Date(run.startedAt).toISOString(),
    endedAt: new Date(run.endedAt).toISOString(),
    exitCode: result.exitCode,
    jobs: run.jobs,
    loops: result.loops,
    matrix: result.matrix,
    ...(result.skippedMergeCheck === undefined ? {} : { mergeCheckSkipped: result.skippedMergeCheck }),
  };
  await replaceOwnFile(root, join(logsDir, PARALLEL_RECORD), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * A loop's own record (in its worktree's records, never the copy in its ralph/logs/), if it wrote one
 * during this run: one from before `since` is an earlier run's (a loop refused before its lock writes
 * none). Its reason is only believed as a word.
 */
export async function readLoopRecord(
  records: RecordPaths,
  since: number,
): Promise<{ reason: string; record: unknown } | undefined> {
  const record = await readLastRun(records, MAX_RECORD_BYTES);
  if (record === undefined) return undefined;
  const { reason, startedAt } = record;
  if (typeof reason !== 'string' || !/^[a-z_]{1,40}$/.test(reason) || typeof startedAt !== 'string') return undefined;
  // A second of slack: the loop's clock reading and ours are not the same instant.
  if (!(Date.parse(startedAt) >= since - 1000)) return undefined;
  return { reason, record };
}
