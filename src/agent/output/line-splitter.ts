/** Lines longer than this are not parsed (they stay in the raw .jsonl log): memory stays bounded. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * Cuts a byte stream into lines without decoding more than one line at a time. A line over
 * the limit is reported as oversized and skipped, never buffered whole.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private oversized = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onOversized: (bytes: number) => void,
  ) {}

  /** Feeds the next chunk. */
  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      if (newline === -1) break;
      if (this.pendingBytes === 0 && newline - start <= MAX_LINE_BYTES) {
        // The common case: the whole line is in this chunk; decode it in place.
        this.onLine(chunk.toString('utf8', start, newline));
      } else {
        this.take(chunk.subarray(start, newline));
        this.endLine();
      }
      start = newline + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  /** Ends the stream: a last line without a newline still counts. */
  end(): void {
    if (this.pendingBytes > 0 || this.oversized) this.endLine();
  }

  private take(piece: Buffer): void {
    if (this.oversized) {
      this.pendingBytes += piece.length;
      return;
    }
    this.pendingBytes += piece.length;
    if (this.pendingBytes > MAX_LINE_BYTES) {
      this.oversized = true;
      this.pending = [];
      return;
    }
    // Copy: the chunk's memory may be reused by the stream once we return.
    this.pending.push(Buffer.from(piece));
  }

  private endLine(): void {
    if (this.oversized) this.onOversized(this.pendingBytes);
    else this.onLine(Buffer.concat(this.pending, this.pendingBytes).toString('utf8'));
    this.pending = [];
    this.pendingBytes = 0;
    this.oversized = false;
  }
}
