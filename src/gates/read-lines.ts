import { BoundedLines } from '../text/bounded-lines.js';
import { openOwnFileForReading } from '../files/own-file.js';

/** Longest line kept whole; a parser needs the start of a line, and a 50 MB line must not be held. */
const MAX_LINE_LENGTH = 4096;

export interface LineRange {
  /** First byte to read (default 0). */
  start?: number;
  /** Byte after the last one to read (default: the end of the file). */
  end?: number;
  /** Drop the text before the first line break: the range starts inside a line. */
  skipPartialFirstLine?: boolean;
  maxLength?: number;
}

/**
 * The lines of a file (or a byte range of it), read as a stream and handed out a chunk's worth
 * at a time. Unlike node:readline, a line longer than `maxLength` bytes is cut there and the rest
 * skipped up to its line break (src/text/bounded-lines.ts), so memory stays bounded whatever the
 * output looks like.
 */
export async function* readLineBatches(path: string, range: LineRange = {}): AsyncGenerator<string[]> {
  let skipping = range.skipPartialFirstLine === true;
  let batch: string[] = [];
  const lines = new BoundedLines(range.maxLength ?? MAX_LINE_LENGTH, (line) => {
    if (skipping) skipping = false;
    else batch.push(line);
  });
  // The gate's own processes could have put a FIFO in place of its log: a regular file only.
  const handle = await openOwnFileForReading(path);
  if (handle === undefined) return;
  const stream = handle.createReadStream({
    start: range.start ?? 0,
    ...(range.end === undefined ? {} : { end: range.end - 1 }),
    highWaterMark: 64 * 1024,
  });
  const taken = () => {
    const lines = batch;
    batch = [];
    return lines;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    lines.push(chunk);
    if (batch.length > 0) yield taken();
  }
  lines.end();
  if (batch.length > 0) yield taken();
}
