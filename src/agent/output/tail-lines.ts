const NEWLINE = 0x0a;

/**
 * Keeps the last few non-blank lines of a byte stream, each cut to a sane length: bounded
 * whatever passes. Only a chunk's last lines can survive, so a chunk is read from its end and
 * only the lines kept are decoded.
 */
export class TailLines {
  private lines: string[] = [];
  /** The start of the unfinished last line, at most `maxBytes` of it. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private partialCut = false;
  private readonly maxBytes: number;

  constructor(
    private readonly keep = 20,
    private readonly maxLineLength = 500,
  ) {
    // Enough bytes for `maxLineLength` characters of any UTF-8.
    this.maxBytes = maxLineLength * 4;
  }

  push(chunk: Buffer): void {
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline === -1) return this.extend(chunk);
    const found: string[] = [];
    for (let end = lastNewline; found.length < this.keep;) {
      // lastIndexOf reads a negative offset as counting from the end, hence the guard.
      const start = end === 0 ? 0 : chunk.lastIndexOf(NEWLINE, end - 1) + 1;
      if (start === 0) {
        // The chunk's first line ends the one carried over.
        this.extend(chunk.subarray(0, end));
        keepPrinted(found, this.partialLine());
        break;
      }
      keepPrinted(
        found,
        this.shorten(chunk.toString('utf8', start, Math.min(end, start + this.maxBytes)), end - start > this.maxBytes),
      );
      end = start - 1;
    }
    this.lines = [...this.lines, ...found].slice(-this.keep);
    this.partial = [];
    this.partialBytes = 0;
    this.partialCut = false;
    this.extend(chunk.subarray(lastNewline + 1));
  }

  /** The kept lines, the unfinished last one included. */
  result(): string[] {
    return [...this.lines, this.partialLine()].filter(isPrinted).slice(-this.keep);
  }

  private extend(piece: Buffer): void {
    const room = this.maxBytes - this.partialBytes;
    if (piece.length > room) this.partialCut = true;
    if (room <= 0 || piece.length === 0) return;
    // A copy: the stream may reuse the chunk's memory once we return.
    const kept = Buffer.from(piece.subarray(0, room));
    this.partial.push(kept);
    this.partialBytes += kept.length;
  }

  private partialLine(): string {
    return this.shorten(Buffer.concat(this.partial, this.partialBytes).toString('utf8'), this.partialCut);
  }

  /**
   * The line cut to `maxLineLength` characters, marked with an ellipsis when anything was cut; a
   * blank line stays blank.
   */
  private shorten(line: string, wasCut: boolean): string {
    if (!isPrinted(line)) return '';
    return line.length > this.maxLineLength || wasCut ? `${line.slice(0, this.maxLineLength)}…` : line;
  }
}

function isPrinted(line: string): boolean {
  return line.trim() !== '';
}

/** Puts a line in front of those found after it, unless it is blank. */
function keepPrinted(found: string[], line: string): void {
  if (isPrinted(line)) found.unshift(line);
}
