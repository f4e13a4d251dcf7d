import { readdir } from 'node:fs/promises';
import { RalphError } from '../errors.js';
import { readCsvEnds } from './csv-tail.js';
import { unlessMissing } from './missing-file.js';

// `iteration-007.log`, and a fallback agent's `iteration-007.<kind>.log`.
const ITERATION_FILE = /^iteration-(\d+)\.(?:[a-z]+\.)?(?:log|jsonl)$/;

/**
 * The largest iteration number taken as one: nine digits. A bigger one (a file name the agent
 * made, `iteration-99999999999999999999.log`) would lose its last digits in a double, and one past
 * it would be itself again: every later run would find its log taken.
 */
export const MAX_ITERATION = 999_999_999;

/**
 * The number the next iteration gets: one past the highest that any log file or CSV row
 * already has, so a new run never overwrites an earlier log or repeats a row. A number that is
 * not a plain integer of at most nine digits is ignored, with a warning naming where it was.
 */
export async function nextIterationNumber(
  logsDir: string,
  summaryCsv: string,
  warn: (message: string) => void = () => undefined,
): Promise<number> {
  let highest = 0;
  for (const name of await listDir(logsDir)) {
    const digits = ITERATION_FILE.exec(name)?.[1];
    if (digits === undefined) continue;
    const number = iterationNumber(digits);
    if (number === undefined)
      warn(`ignored ralph/logs/${name}: is not an iteration number (a whole number up to ${MAX_ITERATION})`);
    else highest = Math.max(highest, number);
  }
  // The last sane row counts; the rows after it that are no iteration number are named and left out.
  const csv = await readCsvEnds(summaryCsv, 1);
  const ignored = csv?.ignored ?? [];
  const last = ignored.at(-1);
  if (last !== undefined)
    warn(
      `ignored ${ignored.length === 1 ? 'the last row' : `${ignored.length} rows`} of ralph/logs/summary.csv: its iteration "${cut(last)}" is not an iteration number (a whole number up to ${MAX_ITERATION})`,
    );
  const number = iterationNumber(csv?.rows[0]?.[0] ?? '');
  if (number !== undefined) highest = Math.max(highest, number);
  if (highest >= MAX_ITERATION)
    throw new RalphError(
      'io',
      `ralph/logs already holds iteration ${MAX_ITERATION}, the last number ralph counts to`,
      'move the old logs away (`ralph archive`), then run again',
    );
  return highest + 1;
}

/** A plain decimal integer from 0 to MAX_ITERATION (leading zeros allowed), else undefined. */
export function iterationNumber(text: string): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const significant = text.replace(/^0+(?=\d)/, '');
  return significant.length <= 9 ? Number(significant) : undefined;
}

/** A field as a warning shows it: short, and with nothing but printable ASCII. */
function cut(text: string): string {
  const printable = text.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 24 ? `${printable.slice(0, 24)}…` : printable;
}

async function listDir(dir: string): Promise<string[]> {
  return (await unlessMissing(() => readdir(dir))) ?? [];
}
