import { displayWidth, fitToWidth } from '../ui/display-width.js';

/** Clears from the cursor to the end of the screen. */
const CLEAR_BELOW = '\u001b[J';

/**
 * On a terminal: one live line per loop, kept below everything else printed, each cut to the
 * terminal's width (one column free, so none wraps and the block's height stays its line count).
 * Lines printed above it scroll up as on any terminal.
 */
export class LiveBoard {
  private lines: string[] = [];
  /** Rows of the block on the screen now. */
  private drawn = 0;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly columns: () => number | undefined,
  ) {}

  /** The block's lines now, redrawn at once. */
  show(lines: readonly string[]): void {
    this.lines = [...lines];
    this.out.write(this.erase() + this.block());
  }

  /** A line of its own above the block (a loop ended, a conflict found). */
  print(text: string): void {
    this.out.write(`${this.erase()}${text}\n${this.block()}`);
  }

  /** The block stays on the screen as the last state; the cursor goes below it. */
  close(): void {
    if (this.drawn > 0) this.out.write('\n');
    this.drawn = 0;
  }

  /** The terminal changed width: what a reflowing terminal wrapped is cleared with the rest. */
  resized(): void {
    this.out.write(this.erase() + this.block());
  }

  private erase(): string {
    if (this.drawn === 0) return '';
    const up = this.drawn > 1 ? `\u001b[${this.drawn - 1}A` : '';
    this.drawn = 0;
    return `${up}\r${CLEAR_BELOW}`;
  }

  private block(): string {
    if (this.lines.length === 0) return '';
    const columns = this.columns();
    const fitted = this.lines.map((line) => (columns === undefined ? line : fitToWidth(line, columns - 1)));
    this.drawn = fitted.length;
    return fitted.join('\n');
  }
}

/** The widest of the names, for the lines to line up. */
export function nameWidth(names: readonly string[]): number {
  return Math.max(0, ...names.map((name) => displayWidth(name)));
}
