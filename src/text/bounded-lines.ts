import { StringDecoder } from 'node:string_decoder';

/**
 * ralph's one line splitter: a byte stream (a child's output, the agent's events, a gate's log)
 * into whole lines, holding at most `maxBytes` of an unfinished one: of a longer line the first
 * `maxBytes` are handed on (`cut` says so) and the rest up to its newline is dropped, so memory
 * stays bounded whatever a child (or the agent behind it) prints, and what is handed on as a whole
 * line always is one: the tail of a cut line never passes for a line. A trailing carriage return
 * is no part of the line. `onCutLineEnd` hears, at a cut line's end, how many bytes it had.
 */
export class BoundedLines {
  private readonly decoder = new StringDecoder('utf8');
  private held = '';
  private heldBytes = 0;
  /** The line under way was cut: what remains of it, up to its newline, is dropped. */
  private cutting = false;
  /** The bytes of the cut line under way, counted past the bound. */
  private cutLineBytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string, cut: boolean) => void,
    private readonly onCutLineEnd?: (bytes: number) => void,
  ) {}

  push(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      this.add(text.slice(start, end));
      this.endLine();
      start = end + 1;
    }
    this.add(text.slice(start));
  }

  /** The stream ended: an unfinished last line is still a line. */
  end(): void {
    this.add(this.decoder.end());
    if (this.held !== '' || this.cutting) this.endLine();
  }

  private add(text: string): void {
    if (text === '') return;
    const size = Buffer.byteLength(text);
    if (this.cutting) {
      this.cutLineBytes += size;
      return;
    }
    if (this.heldBytes + size <= this.maxBytes) {
      this.held += text;
      this.heldBytes += size;
      return;
    }
    const before = this.heldBytes;
    for (const char of text) {
      const bytes = Buffer.byteLength(char);
      if (this.heldBytes + bytes > this.maxBytes) {
        this.cutLineBytes = before + size;
        this.flush(true);
        this.cutting = true;
        return;
      }
      this.held += char;
      this.heldBytes += bytes;
    }
  }

  /** A newline (or the end): the line is handed on, unless it was cut and handed on already. */
  private endLine(): void {
    if (!this.cutting) return this.flush(false);
    this.cutting = false;
    this.onCutLineEnd?.(this.cutLineBytes);
    this.cutLineBytes = 0;
  }

  private flush(cut: boolean): void {
    const line = this.held.endsWith('\r') ? this.held.slice(0, -1) : this.held;
    this.held = '';
    this.heldBytes = 0;
    this.onLine(line, cut);
  }
}
