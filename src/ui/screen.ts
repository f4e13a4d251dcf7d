import { Writable } from 'node:stream';
import pc from 'picocolors';
import { drained } from '../text/drained.js';
import { displayWidth, fitToWidth } from './display-width.js';
import { fencedFromRunner, stopToken } from './runner-fence.js';
import { neutralise, Neutraliser } from '../text/neutralise.js';

/** Where ralph's own lines go; on a TTY also one status line kept below everything else. */
export interface Console {
  line(text: string): void;
  /** A GitHub Actions workflow command (`::group::…`): column 0, its own line, never coloured or stamped. */
  command(text: string): void;
  /** Shows (or with undefined, clears) the live status line; a no-op off a TTY. */
  status(text: string | undefined): void;
}

export interface ScreenOptions {
  tty: boolean;
  /** Prefix ralph's lines with the time (CI other than GitHub Actions, whose runner stamps every line itself). */
  timestamps: boolean;
  /**
   * GitHub Actions: the runner obeys `::commands::` in anything printed. Everything but ralph's
   * own commands is printed between `::stop-commands::<token>` and `::<token>::`, so neither the
   * agent nor text it wrote (story titles, a blocked reason) can issue one.
   */
  github?: boolean;
  /** The terminal's width now (tests pass their own); read from the stream by default. */
  columns?: () => number | undefined;
  /** Where ralph's own error lines go (`error`); process.stderr by default. */
  stderr?: NodeJS.WritableStream;
  /** Whether SGR colour may reach the terminal (picocolors' verdict by default); nothing else ever does. */
  color?: boolean;
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
  /** Streams whose last byte written was not a newline (on a TTY: the terminal), and which agent stream wrote it. */
  private readonly midLine = new Map<NodeJS.WritableStream, Writable>();
  /** While the runner's commands are stopped (GitHub Actions): the token that resumes them. */
  private stopToken: string | undefined;
  /** The columns of the status line on the screen now; 0 when none is drawn. */
  private drawnWidth = 0;
  private readonly columns: () => number | undefined;
  private readonly color: boolean;
  /** The agent streams (output handed to one may wait there while the terminal is full) and their targets. */
  private readonly agentStreams = new Set<Writable>();
  private readonly targets = new Set<NodeJS.WritableStream>();
  /** ralph's own writes held back behind that output, in order, so none overtakes it. */
  private readonly held: (() => void)[] = [];

  constructor(
    private readonly stdout: NodeJS.WritableStream,
    private readonly options: ScreenOptions,
  ) {
    this.columns = options.columns ?? (() => (stdout as { columns?: number }).columns);
    this.color = options.color ?? pc.isColorSupported;
    // The runner hears ralph alone: its commands are stopped from the start, resumed only for ralph's own.
    this.stopCommands();
    // Node emits 'resize' on a TTY stream at SIGWINCH, with `columns` already updated.
    if (options.tty) stdout.on('resize', () => this.resized());
  }

  line(text: string): void {
    const stamp = this.options.timestamps ? `${pc.dim(new Date().toISOString().slice(11, 19))} ` : '';
    this.inOrder(() => {
      this.endLines();
      this.stopCommands();
      this.stdout.write(
        `${neutralise(text, { color: this.color })
          .split('\n')
          .map((line) => `${stamp}${line}`)
          .join('\n')}\n`,
      );
    });
  }

  command(text: string): void {
    this.inOrder(() => {
      this.endLines();
      this.resumeCommands();
      this.stdout.write(`${text}\n`);
      this.stopCommands();
    });
  }

  /**
   * One of ralph's own error lines, on stderr: never before the agent output still waiting for
   * the terminal, never run onto the end of a line the agent left unfinished.
   */
  error(text: string): void {
    this.inOrder(() => {
      this.endLines();
      // Its words may be an agent's (a blocked reason): on Actions the runner must not obey them.
      const shown = neutralise(text, { color: this.color });
      (this.options.stderr ?? process.stderr).write(this.options.github ? fencedFromRunner(shown) : `${shown}\n`);
    });
  }

  status(text: string | undefined): void {
    if (!this.options.tty) return;
    this.inOrder(() => {
      this.shown = text;
    });
  }

  /**
   * A stream for the agent's output that keeps the status line below it and commands stopped. Each
   * chunk is handed to the terminal at once; only while the terminal is full does the next wait
   * here, and ralph's own lines then wait behind it (see `inOrder`).
   */
  agentStream(target: NodeJS.WritableStream): Writable {
    // Each stream keeps its own state: a sequence split across two chunks is judged whole.
    const neutraliser = new Neutraliser({ color: this.color });
    const decoder = new TextDecoder('utf-8');
    const source: Writable = new Writable({
      write: (raw: Buffer, _encoding, callback) => {
        let accepted = true;
        const chunk = neutraliser.push(decoder.decode(raw, { stream: true }));
        this.around(() => {
          if (chunk.length === 0) return;
          this.stopCommands();
          // Two agent streams joined on one target (stderr on stdout, on Actions) never share a line;
          // on a TTY stdout and stderr are one terminal, so they keep one line state.
          const screen = this.options.tty ? this.stdout : target;
          const open = this.midLine.get(screen);
          if (open !== undefined && open !== source) target.write('\n');
          accepted = target.write(chunk);
          if (chunk.endsWith('\n')) this.midLine.delete(screen);
          else this.midLine.set(screen, source);
        });
        const done = () => (callback(), this.releaseHeld());
        if (accepted) done();
        else void drained(target).then(done);
      },
      final: (callback) => {
        const rest = neutraliser.push(decoder.decode()) + neutraliser.end();
        if (rest !== '')
          this.around(() => {
            target.write(rest);
            this.midLine.set(this.options.tty ? this.stdout : target, source);
          });
        callback();
      },
    });
    this.agentStreams.add(source);
    this.targets.add(target);
    return source;
  }

  /**
   * Ends any unfinished line and lets the runner obey commands again; call once, when ralph is done
   * printing. Resolves once everything is handed to the terminal and the terminal has written it
   * (a zero-length write calls back after the writes before it): then the process may exit.
   */
  close(): Promise<void> {
    return new Promise((resolve) =>
      this.inOrder(() => {
        this.endLines();
        this.resumeCommands();
        void Promise.all([this.stdout, ...this.targets].map(written)).then(() => resolve());
      }),
    );
  }

  /** Writes now, or after the agent output still waiting for the terminal. */
  private inOrder(write: () => void): void {
    if (this.held.length > 0 || this.agentWaiting()) this.held.push(write);
    else this.around(write);
  }

  private agentWaiting(): boolean {
    return [...this.agentStreams].some((stream) => stream.writableLength > 0);
  }

  /** The agent output has reached the terminal: ralph's held writes go out, in order. */
  private releaseHeld(): void {
    if (this.agentWaiting()) return;
    for (const write of this.held.splice(0)) this.around(write);
  }

  /** Ends the lines the agent left unfinished, so what comes next starts at column 0. */
  private endLines(): void {
    if (this.midLine.size === 0) return;
    // On a TTY both streams reach one terminal: one newline ends the line. Pipes are read line by line each.
    if (this.options.tty) this.stdout.write('\n');
    else for (const target of this.midLine.keys()) target.write('\n');
    this.midLine.clear();
  }

  private stopCommands(): void {
    if (!this.options.github || this.stopToken !== undefined) return;
    // Fresh each time, and printed nowhere else: nothing the agent sees can resume the runner's commands.
    this.stopToken = stopToken();
    this.stdout.write(`::stop-commands::${this.stopToken}\n`);
  }

  private resumeCommands(): void {
    if (this.stopToken === undefined) return;
    this.stdout.write(`::${this.stopToken}::\n`);
    this.stopToken = undefined;
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
    if (!this.options.tty || this.shown === undefined || this.midLine.size > 0) return;
    const columns = this.columns();
    const text = columns === undefined ? this.shown : fitToWidth(this.shown, columns - 1);
    if (text === '') return;
    this.stdout.write(pc.dim(text));
    this.drawnWidth = displayWidth(text);
  }
}

/** Resolves once a stream has written what it was given before: a zero-length write calls back after them. */
function written(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    try {
      stream.write('', () => resolve());
    } catch {
      resolve();
    }
  });
}

/** Whether this is a CI job, and GitHub Actions in particular: the one reading, in process/ci-environment.ts. */
export { detectCi } from '../process/ci-environment.js';
