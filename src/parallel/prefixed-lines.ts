import { Writable } from 'node:stream';
import { drained } from '../text/drained.js';
import { oneLine } from '../text/neutralise.js';
import { BoundedLines } from '../text/bounded-lines.js';

/** A line of a loop's output longer than this is cut there, marked `…`: memory stays bounded. */
export const MAX_LINE_BYTES = 16 * 1024;

/**
 * A loop's output, forwarded line by line to `target` with its list's name in front
 * (`api-auth │ …`). Each line goes out in one write, whole: lines of two loops interleave, never
 * their characters. The text is neutralised again (no control reaches the terminal or the CI log)
 * and the prefix keeps any line off column 0, so none is a workflow command the Actions runner
 * would obey. The next chunk is taken only once a full target drained: a loop that prints faster
 * than the terminal or the disk takes it is held back (its pipe fills) instead of piling its output
 * up in the supervisor's memory. Finished once every line was handed to the target.
 */
export function prefixedLines(prefix: string, target: NodeJS.WritableStream): Writable {
  let full = false;
  const lines = new BoundedLines(MAX_LINE_BYTES, (line, cut) => {
    const text = oneLine(line);
    if (!target.write(`${prefix}${text}${cut ? ' …' : ''}\n`)) full = true;
  });
  const after = (callback: () => void) => {
    if (!full) return callback();
    full = false;
    void drained(target).then(callback);
  };
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk);
      after(() => callback());
    },
    final(callback) {
      lines.end();
      after(() => callback());
    },
  });
}
