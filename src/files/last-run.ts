import { mkdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoCode, RalphError } from '../errors.js';
import type { RunReport } from '../loop/run-report.js';
import { parseJson } from './json-text.js';
import type { LastRunFile } from './last-run-schema.js';
import { readOwnFileNoLink } from './own-file.js';
import { replaceOwnFile, replaceWholeSync } from './replace-own-file.js';
import type { RecordPaths } from './record-paths.js';

/**
 * last-run.json's one owner: how a run ended, written twice. ralph's own record lives in the
 * records (record-paths.ts), where the agent's box cannot write, and every command that decides
 * reads it there: `ralph answer --run`, a parallel run's supervisor, status, lists, the report. The
 * published copy in ralph/logs/ is for scripts and CI (the docs promise it there); ralph never reads
 * it back, since the agent can rewrite it.
 */
export interface LastRunPaths {
  root: string;
  /** The published copy, ralph/logs/last-run.json. */
  lastRun: string;
  records: RecordPaths;
}

/**
 * Writes the record, then the published copy, each whole or not at all (a full disk must not leave
 * half a record), the copy even when the record failed. Resolves to why either could not, if one could not.
 */
export async function writeLastRun(paths: LastRunPaths, report: RunReport): Promise<string | undefined> {
  const text = `${JSON.stringify(report, null, 2)}\n`;
  const failures: string[] = [];
  for (const [root, path] of [
    [paths.records.base, paths.records.lastRun],
    [paths.root, paths.lastRun],
  ] as const) {
    await replaceOwnFile(root, path, text).catch((error: unknown) => failures.push(unwritten(error, path)));
  }
  return failures.length > 0 ? failures.join('; ') : undefined;
}

/** Why a write failed: an OS error (a full disk) by its code, a refusal (a link in its place) in its own words. */
function unwritten(error: unknown, path: string): string {
  const code = errnoCode(error instanceof RalphError ? error.cause : error);
  if (code !== undefined) return `${path} could not be written: ${code}`;
  if (error instanceof RalphError) return `${error.message}${error.hint ? ` — ${error.hint}` : ''}`;
  return `${path} could not be written: ${(error as Error).message}`;
}

/**
 * Writes both synchronously, for a crash's last word (crash-record.ts), where nothing may wait for the
 * event loop; throws what failed. Never through a link: the temporary file is new (O_EXCL|O_NOFOLLOW).
 */
export function writeLastRunNow(paths: LastRunPaths, report: RunReport): void {
  const text = `${JSON.stringify(report, null, 2)}\n`;
  for (const path of [paths.records.lastRun, paths.lastRun]) {
    mkdirSync(dirname(path), { recursive: true });
    replaceWholeSync(path, text);
  }
}

/** The record's text as ralph wrote it, or undefined when no run has recorded one here. */
export async function readLastRunText(records: RecordPaths): Promise<string | undefined> {
  return await readOwnFileNoLink(records.lastRun);
}

/**
 * The record as a JSON object; undefined without one, with one that does not read as an object, or
 * with one larger than `maxBytes` (a loop's record as its supervisor reads it: ralph writes a few KiB).
 */
export async function readLastRun(
  records: RecordPaths,
  maxBytes?: number,
): Promise<Record<string, unknown> | undefined> {
  if (maxBytes !== undefined) {
    const size = await stat(records.lastRun).then(
      (stats) => stats.size,
      () => undefined,
    );
    if (size === undefined || size > maxBytes) return undefined;
  }
  const text = await readLastRunText(records).catch(() => undefined);
  const parsed = text === undefined ? undefined : parseJson(text);
  return parsed?.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value)
    ? (parsed.value as Record<string, unknown>)
    : undefined;
}

/**
 * The record as `ralph status` and `ralph lists` show it, checked against its schema (zod loaded
 * only when there is a record to check); undefined without a record.
 */
export async function readCheckedLastRun(
  records: RecordPaths,
): Promise<{ ok: true; run: LastRunFile } | { ok: false; error: string } | undefined> {
  const text = await readLastRunText(records);
  if (text === undefined) return undefined;
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, error: `not valid JSON (${parsed.error})` };
  const { lastRunSchema } = await import('./last-run-schema.js');
  const result = lastRunSchema.safeParse(parsed.value);
  if (result.success) return { ok: true, run: result.data };
  return { ok: false, error: result.error.issues[0]?.message ?? 'not a run report' };
}

/**
 * The flags the record holds for `ralph answer --run`, as they are (the replay checks them), with
 * the iteration limit of the run they were given to: undefined without a record, or one without them.
 */
export async function recordedReplay(
  records: RecordPaths,
): Promise<Pick<RunReport, 'runArgs' | 'replayMaxIterations'> | undefined> {
  const record = await readLastRun(records);
  const args = record?.runArgs;
  if (!Array.isArray(args) || !args.every((word) => typeof word === 'string')) return undefined;
  const limit = record?.replayMaxIterations;
  return { runArgs: args, ...(typeof limit === 'number' ? { replayMaxIterations: limit } : {}) };
}
