import { neutralise } from '../ui/neutralise.js';
import { BoundedLines } from './bounded-lines.js';

/** A line of a loop's output longer than this is cut there, marked `…`: memory stays bounded. */
export const MAX_LINE_BYTES = 16 * 1024;

/**
 * A loop's output, forwarded line by line with its list's name in front (`api-auth │ …`). Each
 * line goes out in one write, whole: lines of two loops interleave, never their characters. The
 * text is neutralised again (no control reaches the terminal or the CI log) and the prefix keeps
 * any line off column 0, so none is a workflow command the Actions runner would obey.
 */
export function prefixedLines(prefix: string, write: (text: string) => void): BoundedLines {
  return new BoundedLines(MAX_LINE_BYTES, (line, cut) => {
    const text = neutralise(line, { color: false }).replace(/\n/g, ' ');
    write(`${prefix}${text}${cut ? ' …' : ''}\n`);
  });
}
