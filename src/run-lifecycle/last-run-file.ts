import { errnoCode, RalphError } from '../errors.js';
import { replaceOwnFile } from '../files/own-file.js';
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
