import { Writable } from 'node:stream';
import pc from 'picocolors';

/** Where ralph's own lines go; on a TTY also one status line kept below everything else. */
export interface Console {
  line(text: string): void;
  /** Shows (or with undefined, clears) the live status line; a no-op off a TTY. */
  status(text: string | undefined): void;
}

const CLEAR_LINE = '\r\u001b[2K';

/**
 * The one writer of the terminal: ralph's lines, the agent's output and, on a TTY, a status
 * line redrawn below them. In CI ralph's lines carry a timestamp and nothing is redrawn.
 */
export class Screen implements Console {
  private shown: string | undefined;
  private atLineStart = true;

  constructor(
    private readonly stdout: NodeJS.WritableStream,
    private readonly options: { tty: boolean; timestamps: boolean },
  ) {}

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

  /** Clears the status line, does the write, and draws it again where a line starts. */
  private around(write: () => void): void {
    if (this.options.tty && this.shown !== undefined) this.stdout.write(CLEAR_LINE);
    write();
    if (this.options.tty && this.shown !== undefined && this.atLineStart) this.stdout.write(pc.dim(this.shown));
  }
}

/** Whether this is a CI job, and GitHub Actions in particular. */
export function detectCi(env: NodeJS.ProcessEnv): { ci: boolean; github: boolean } {
  const github = env.GITHUB_ACTIONS === 'true';
  const ci = github || (env.CI !== undefined && !['', '0', 'false'].includes(env.CI.toLowerCase()));
  return { ci, github };
}
