import { Writable } from 'node:stream';
import pc from 'picocolors';
import { displayWidth, fitToWidth } from './display-width.js';

/** Where ralph's own lines go; on a TTY also one status line kept below everything else. */
export interface Console {
  line(text: string): void;
  /** Shows (or with undefined, clears) the live status line; a no-op off a TTY. */
  status(text: string | undefined): void;
}

const CLEAR_LINE = '\r\u001b[2K';
/** Clears from the cursor to the end of the screen. */
const CLEAR_BELOW = '\u001b[J';

/**
 * The one writer of the terminal: ralph's lines, the agent's output and, on a TTY, a status
 * line redrawn below them. In CI ralph's lines carry a timestamp and nothing is redrawn.
 */
export class Screen implements Console {
  private shown: string | undefined;
  /** The columns of the status line on the screen now; 0 when none is drawn. */
  private drawnWidth = 0;
  private atLineStart = true;
  private readonly columns: () => number | undefined;

  constructor(
    private readonly stdout: NodeJS.WritableStream,
    private readonly options: { tty: boolean; timestamps: boolean; columns?: () => number | undefined },
  ) {
    this.columns = options.columns ?? (() => (stdout as { columns?: number }).columns);
    // Node emits 'resize' on a TTY stream at SIGWINCH, with `columns` already updated.
    if (options.tty) stdout.on('resize', () => this.resized());
  }

  line(text: string): void {
    const stamp = this.options.timestamps ? `${pc.dim(new Date().toISOString().slice(11, 19))} ` : '';
    this.around(() => {
      const lines = text.split('\n').map((line) => `${stamp}${line}`).join('\n');
      this.stdout.write(`${this.atLineStart ? '' : '\n'}${lines}\n`);
      this.atLineStart = true;
    });
  }

  status(text: string | undefined): void {
    if (!this.options.tty) return;
    this.around(() => {
      this.shown = text;
    });
  }

  /** A stream for the agent's output that keeps the status line below it. */
  agentStream(target: NodeJS.WritableStream): Writable {
    return new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        this.around(() => {
          target.write(chunk, () => callback());
          // Both streams reach the same terminal: either one leaves the cursor mid-line or not.
          if (chunk.length > 0) this.atLineStart = chunk[chunk.length - 1] === 10;
        });
      },
    });
  }

  /**
   * The terminal changed width: the status line is drawn again to fit. A terminal that reflows
   * (tmux, VTE, iTerm2, kitty) has wrapped a line wider than the new width onto several rows:
   * the cursor goes up to the first of them before clearing, so no stale copy stays behind.
   */
  resized(): void {
    if (!this.options.tty || this.drawnWidth === 0) return;
    const columns = this.columns() ?? Infinity;
    const rows = Math.max(1, Math.ceil(this.drawnWidth / columns));
    this.stdout.write(rows > 1 ? `\u001b[${rows - 1}A\r${CLEAR_BELOW}` : CLEAR_LINE);
    this.drawnWidth = 0;
    this.draw();
  }

  /** Clears the status line, does the write, and draws it again where a line starts. */
  private around(write: () => void): void {
    if (this.drawnWidth > 0) this.stdout.write(CLEAR_LINE);
    this.drawnWidth = 0;
    write();
    this.draw();
  }

  /** Draws the status line, cut to the terminal's width (one column kept free so it never wraps). */
  private draw(): void {
    if (!this.options.tty || this.shown === undefined || !this.atLineStart) return;
    const columns = this.columns();
    const text = columns === undefined ? this.shown : fitToWidth(this.shown, columns - 1);
    if (text === '') return;
    this.stdout.write(pc.dim(text));
    this.drawnWidth = displayWidth(text);
  }
}

/** Whether this is a CI job, and GitHub Actions in particular. */
export function detectCi(env: NodeJS.ProcessEnv): { ci: boolean; github: boolean } {
  const github = env.GITHUB_ACTIONS === 'true';
  const ci = github || (env.CI !== undefined && !['', '0', 'false'].includes(env.CI.toLowerCase()));
  return { ci, github };
}
