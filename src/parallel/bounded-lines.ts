import { StringDecoder } from 'node:string_decoder';

/**
 * Splits a byte stream into whole lines, holding at most `maxBytes` of an unfinished one: of a
 * longer line the first `maxBytes` are handed on (`cut` says so) and the rest up to its newline is
 * dropped, so memory stays bounded whatever a child (or the agent behind it) prints, and what is
 * handed on as a whole line always is one: the tail of a cut line never passes for a line.
 */
export class BoundedLines {
  private readonly decoder = new StringDecoder('utf8');
  private held = '';
  private heldBytes = 0;
  /** The line under way was cut: what remains of it, up to its newline, is dropped. */
  private cutting = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string, cut: boolean) => void,
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
    if (text === '' || this.cutting) return;
    const size = Buffer.byteLength(text);
    if (this.heldBytes + size <= this.maxBytes) {
      this.held += text;
      this.heldBytes += size;
      return;
    }
    for (const char of text) {
      const bytes = Buffer.byteLength(char);
      if (this.heldBytes + bytes > this.maxBytes) {
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
    if (this.cutting) this.cutting = false;
    else this.flush(false);
  }

  private flush(cut: boolean): void {
    const line = this.held.endsWith('\r') ? this.held.slice(0, -1) : this.held;
    this.held = '';
    this.heldBytes = 0;
    this.onLine(line, cut);
  }
}
