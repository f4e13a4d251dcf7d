import type { FileHandle } from 'node:fs/promises';
import { openOwnFileForReading } from './own-file.js';
import { parseIterationNumber } from '../domain/numbers.js';

/** A CSV file's header and its last records, each split into fields. */
export interface CsvEnds {
  header: string[];
  /** Records whose first field is an iteration number (1 to 9 digits), the last `count` of them. */
  rows: string[][];
  /** The first fields of records among the last read that are no iteration number (`1e20`, `-3`): left out. */
  ignored: string[];
}

/**
 * The header and the last `count` records of a CSV file, read from its two ends so a file
 * that grows with every iteration is never read whole. Undefined when the file does not exist.
 * Records are lines: ralph's CSV fields never hold a newline. The first field is the iteration:
 * a record without a sane one is left out (and named in `ignored`).
 */
export async function readCsvEnds(path: string, count: number, maxBytes = 64 * 1024): Promise<CsvEnds | undefined> {
  // A regular file only, opened without blocking: a FIFO there is refused, never waited on.
  const handle = await openOwnFileForReading(path);
  if (handle === undefined) return undefined;
  try {
    const { size } = await handle.stat();
    const head = await readRange(handle, 0, Math.min(size, maxBytes));
    const headerLine = head.split('\n')[0] ?? '';
    const start = Math.max(0, size - maxBytes);
    const tail = (await readRange(handle, start, size - start)).split('\n');
    // The first line of the tail is the header (whole file read) or a partial record: drop it.
    const lines = tail.slice(1).filter((line) => line.trim() !== '');
    // Only the first field of each is read to judge it; only the rows returned are split whole.
    const firsts = lines.map((line) => splitCsvLine(line, 1)[0] ?? '');
    // A row the agent appended with iteration `1e20` must not number (1e20 + 1 = 1e20) every later run.
    const sane = lines.filter((_, index) => parseIterationNumber(firsts[index]!) !== undefined);
    const ignored = firsts
      .filter((first) => parseIterationNumber(first) === undefined)
      .map((first) => first.slice(0, 40));
    return { header: splitCsvLine(headerLine), rows: sane.slice(-count).map((line) => splitCsvLine(line)), ignored };
  } finally {
    await handle.close();
  }
}

async function readRange(handle: FileHandle, position: number, length: number): Promise<string> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead).toString('utf8');
}

/**
 * `a,"b ""c""",d` → `['a', 'b "c"', 'd']`: one CSV record's fields (RFC 4180 quoting); with a
 * `limit`, only its first `limit` fields.
 */
export function splitCsvLine(line: string, limit = Infinity): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  const text = line.replace(/\r$/, '');
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      if (fields.length === limit) return fields;
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}
