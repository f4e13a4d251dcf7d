import { StringDecoder } from 'node:string_decoder';

/**
 * Splits a byte stream into whole lines, holding at most `maxBytes` of an unfinished one: a longer
 * line is handed on in pieces of that size (`cut` says so), so memory stays bounded whatever a
 * child (or the agent behind it) prints, and every piece handed on is a line of its own.
 */
export class BoundedLines {
  private readonly decoder = new StringDecoder('utf8');
  private held = '';
  private heldBytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string, cut: boolean) => void,
  ) {}

  push(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      this.add(text.slice(start, end));
      this.flush(false);
      start = end + 1;
    }
    this.add(text.slice(start));
  }

  /** The stream ended: an unfinished last line is still a line. */
  end(): void {
    this.add(this.decoder.end());
    if (this.held !== '') this.flush(false);
  }

  private add(text: string): void {
    if (text === '') return;
    const size = Buffer.byteLength(text);
    if (this.heldBytes + size <= this.maxBytes) {
      this.held += text;
      this.heldBytes += size;
      return;
    }
    for (const char of text) {
      const bytes = Buffer.byteLength(char);
      if (this.heldBytes + bytes > this.maxBytes) this.flush(true);
      this.held += char;
      this.heldBytes += bytes;
    }
  }

  private flush(cut: boolean): void {
    const line = this.held.endsWith('\r') ? this.held.slice(0, -1) : this.held;
    this.held = '';
    this.heldBytes = 0;
    this.onLine(line, cut);
  }
}
