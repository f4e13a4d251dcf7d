import { StringDecoder } from 'node:string_decoder';
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
 * at a time. Unlike node:readline, a line longer than `maxLength` is cut there and the rest
 * skipped up to its line break, so memory stays bounded whatever the output looks like.
 */
export async function* readLineBatches(path: string, range: LineRange = {}): AsyncGenerator<string[]> {
  const maxLength = range.maxLength ?? MAX_LINE_LENGTH;
  const decoder = new StringDecoder('utf8');
  let line = '';
  let skipping = range.skipPartialFirstLine === true;
  // The gate's own processes could have put a FIFO in place of its log: a regular file only.
  const handle = await openOwnFileForReading(path);
  if (handle === undefined) return;
  const stream = handle.createReadStream({
    start: range.start ?? 0,
    ...(range.end === undefined ? {} : { end: range.end - 1 }),
    highWaterMark: 64 * 1024,
  });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const text = decoder.write(chunk);
    const batch: string[] = [];
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      const stop = end === -1 ? text.length : end;
      // Past the limit, the rest of the line is skipped rather than collected.
      if (!skipping && line.length < maxLength)
        line += text.slice(start, Math.min(stop, start + maxLength - line.length));
      if (end === -1) break;
      if (!skipping) batch.push(line);
      skipping = false;
      line = '';
      start = end + 1;
    }
    if (batch.length > 0) yield batch;
  }
  if (!skipping) line += decoder.end().slice(0, Math.max(0, maxLength - line.length));
  if (line !== '') yield [line];
}
