import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoCode } from '../errors.js';
import type { RunReport } from '../loop/run-report.js';

/**
 * Writes ralph/logs/last-run.json, for scripts and CI that should not parse text: whole or not at
 * all (a full disk must not leave half a record). Resolves to why it could not, if it could not.
 */
export async function writeLastRun(path: string, report: RunReport): Promise<string | undefined> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(temporary, JSON.stringify(report, null, 2) + '\n');
    await rename(temporary, path);
    return undefined;
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    return `${path} could not be written: ${errnoCode(error) ?? (error as Error).message}`;
  }
}
