import { readdir } from 'node:fs/promises';
import { readCsvEnds } from './csv-tail.js';
import { unlessMissing } from './missing-file.js';

// `iteration-007.log`, and a fallback agent's `iteration-007.codex.log`.
const ITERATION_FILE = /^iteration-(\d+)\.(?:[a-z]+\.)?(?:log|jsonl)$/;

/**
 * The number the next iteration gets: one past the highest that any log file or CSV row
 * already has, so a new run never overwrites an earlier log or repeats a row.
 */
export async function nextIterationNumber(logsDir: string, summaryCsv: string): Promise<number> {
  let highest = 0;
  for (const name of await listDir(logsDir)) {
    const match = ITERATION_FILE.exec(name);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  const lastRow = (await readCsvEnds(summaryCsv, 1))?.rows[0];
  const fromCsv = Number(lastRow?.[0]);
  if (Number.isInteger(fromCsv)) highest = Math.max(highest, fromCsv);
  return highest + 1;
}

async function listDir(dir: string): Promise<string[]> {
  return (await unlessMissing(() => readdir(dir))) ?? [];
}
