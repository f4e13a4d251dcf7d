import { errnoCode, RalphError } from '../errors.js';
import { parseJson } from '../files/json-text.js';
import { readOwnFileNoLink, replaceOwnFile } from '../files/own-file.js';
import type { RunReport } from '../loop/run-report.js';

/**
 * Writes ralph/logs/last-run.json, for scripts and CI that should not parse text: whole or not at
 * all (a full disk must not leave half a record). Resolves to why it could not, if it could not.
 */
export async function writeLastRun(
  paths: { root: string; lastRun: string },
  report: RunReport,
): Promise<string | undefined> {
  try {
    await replaceOwnFile(paths.root, paths.lastRun, JSON.stringify(report, null, 2) + '\n');
    return undefined;
  } catch (error) {
    // An OS error (a full disk) as before; a refusal (a link in its place) in its own words.
    const code = errnoCode(error instanceof RalphError ? error.cause : error);
    if (code !== undefined) return `${paths.lastRun} could not be written: ${code}`;
    if (error instanceof RalphError) return `${error.message}${error.hint ? ` — ${error.hint}` : ''}`;
    return `${paths.lastRun} could not be written: ${(error as Error).message}`;
  }
}

/**
 * The flags the last record holds for `ralph answer --run`, as they are (the replay checks them):
 * undefined without a record, or one without them.
 */
export async function recordedRunArgs(path: string): Promise<string[] | undefined> {
  const text = await readOwnFileNoLink(path).catch(() => undefined);
  const parsed = text === undefined ? undefined : parseJson(text);
  const args: unknown = parsed?.ok ? (parsed.value as { runArgs?: unknown } | null)?.runArgs : undefined;
  return Array.isArray(args) && args.every((word) => typeof word === 'string') ? args : undefined;
}
