import { StringDecoder } from 'node:string_decoder';

/** Keeps the last few lines of a byte stream (each cut to a sane length): bounded whatever passes. */
export class TailLines {
  private readonly lines: string[] = [];
  private partial = '';
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    private readonly keep = 20,
    private readonly maxLineLength = 500,
  ) {}

  push(chunk: Buffer): void {
    const pieces = (this.partial + this.decoder.write(chunk)).split('\n');
    this.partial = (pieces.pop() ?? '').slice(-this.maxLineLength);
    for (const piece of pieces.slice(-this.keep)) this.add(piece);
  }

  /** The kept lines, the unfinished last one included. */
  result(): string[] {
    const last = this.partial + this.decoder.end();
    return last.trim() ? [...this.lines, last.slice(0, this.maxLineLength)].slice(-this.keep) : [...this.lines];
  }

  private add(line: string): void {
    if (line.trim() === '') return;
    this.lines.push(line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line);
    if (this.lines.length > this.keep) this.lines.shift();
  }
}
