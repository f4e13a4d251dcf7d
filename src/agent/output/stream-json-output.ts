import { Writable } from 'node:stream';
import pc from 'picocolors';
import { PromiseTagScanner } from '../promise-tags.js';
import { usageLimitFromEvent } from '../usage-limit.js';
import type { UsageWindow } from '../../domain/usage.js';
import { usageWindowsFromEvent } from '../usage-windows.js';
import type { AgentOutput, OutputSummary, OutputTargets } from './agent-output.js';
import { BoundedLines } from '../../text/bounded-lines.js';
import { renderEvent, type RenderedLine } from './render-event.js';
import type { EventReader } from '../event-reader.js';
import type { ResultEvent, StreamEvent, ToolResult, ToolUse } from './stream-events.js';
import { TailLines } from './tail-lines.js';
import { tee } from './tee.js';
import { neutralisedLog } from './neutralised-log.js';
import { neutralise } from '../../text/neutralise.js';

/** Lines longer than this are not parsed (they stay in the raw .jsonl log): memory stays bounded. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** What the iteration wants to hear about while the stream flows (repetition tracking). */
export interface StreamHooks {
  onToolUse?: (use: ToolUse) => void;
  onToolResult?: (result: ToolResult) => void;
  /** The agent reported a usage window's utilization: every window known so far. */
  onUsage?: (windows: UsageWindow[]) => void;
  /** The client reported a retry (an API retry, a reconnect), with what it said. */
  onRetry?: (note: string) => void;
  /** The client reported anything else it did: it is working. */
  onProgress?: () => void;
  /** A line that is not the client's JSON: the client speaking outside its stream (a login prompt). */
  onPlainLine?: (line: string) => void;
}

const COLOURS: Record<RenderedLine['kind'], (text: string) => string> = {
  text: (text) => text,
  tool: pc.cyan,
  tool_error: pc.red,
  result: pc.bold,
  notice: pc.yellow,
  detail: pc.dim,
};

/**
 * An agent's machine-readable stream (`claude -p --output-format stream-json`, `codex exec --json`,
 * …): raw lines go byte for byte to the .jsonl log; each line is parsed as it arrives, read into
 * ralph's events by the agent's own reader, and rendered readably to the .log and the terminal.
 * Promise tags are read only from the assistant's own text and the final result, never from tool
 * input or tool results.
 */
export function createStreamJsonOutput(
  targets: OutputTargets,
  reader: EventReader,
  hooks: StreamHooks = {},
): AgentOutput {
  const { log, jsonl, terminal, onError } = targets;
  const reading = new StreamReading(reader, hooks, targets.verbose);
  const splitter = new BoundedLines(
    MAX_LINE_BYTES,
    (line, cut) => {
      if (!cut) reading.line(line);
    },
    (bytes) => reading.tooLong(bytes),
  );
  const raw = tee([jsonl], onError);
  const readable = tee([log], onError);
  const screen = tee([terminal?.stdout], onError);
  /** Writes the lines rendered so far to the .log and the terminal; calls back when both took them. */
  const flushRendered = (callback: () => void) => {
    const lines = reading.takeRendered();
    if (lines.length === 0) return callback();
    const plain = `${lines.map((line) => line.text).join('\n')}\n`;
    let pending = 2;
    const done = () => --pending === 0 && callback();
    readable.write(plain, done);
    screen.write(targets.color ? `${lines.map((line) => COLOURS[line.kind](line.text)).join('\n')}\n` : plain, done);
  };
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      // The raw write and the parsing overlap; the next chunk comes when both are done.
      let pending = 2;
      const done = () => --pending === 0 && callback();
      raw.write(chunk, done);
      splitter.push(chunk);
      flushRendered(done);
    },
    final(callback) {
      splitter.end();
      reading.end();
      flushRendered(() => callback());
    },
  });
  const stderrLog = neutralisedLog(log);
  const stderr = tee([stderrLog, terminal?.stderr], onError, (chunk) => reading.stderr(chunk), [stderrLog]);
  return { stdout, stderr, summary: () => reading.summary() };
}

/** How much of the first line a stream with no JSON at all is quoted by. */
const NOT_JSON_QUOTE = 120;

/** Plain lines before any JSON that make ralph take the agent for one that prints plain text. */
const PLAIN_AGENT_LINES = 3;

/**
 * What one agent's stream says, read line by line: signals, result, tool calls, errors, usage, and
 * the lines to show.
 */
class StreamReading {
  private readonly scanner = new PromiseTagScanner();
  private readonly errorText: string[] = [];
  private readonly stderrTail = new TailLines(20);
  // Plain lines between the events (a limit message printed outside JSON) are the agent's output too.
  private readonly plainTail: string[] = [];
  private readonly usage = new Map<string, UsageWindow>();
  private toolCalls = 0;
  private invalidLines = 0;
  private unknownLines = 0;
  /** The start of the first line that was not JSON. */
  private firstPlain: string | undefined;
  /** Whether any line was JSON: until one is, plain lines may mean an agent that does not speak stream-json. */
  private sawJson = false;
  /** Told once that the agent prints plain text: its lines are then shown as they are. */
  private plainAgent = false;
  private result: ResultEvent | undefined;
  private rateLimitRejected: OutputSummary['rateLimitRejected'];
  private rendered: RenderedLine[] = [];
  /** stderr cut into lines, only for a reader that looks for retries there. */
  private readonly stderrLines: BoundedLines | undefined;

  constructor(
    private readonly reader: EventReader,
    private readonly hooks: StreamHooks,
    private readonly verbose: boolean,
  ) {
    const retry = reader.stderrRetry?.bind(reader);
    this.stderrLines =
      retry &&
      new BoundedLines(MAX_LINE_BYTES, (line, cut) => {
        const note = cut ? undefined : retry(line);
        if (note) hooks.onRetry?.(note);
      });
  }

  /** One complete line of the stream. */
  line(line: string): void {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.plainLine(line);
      return;
    }
    this.sawJson = true;
    for (const event of this.reader.read(json)) this.take(event, json);
  }

  /** The stream ended: what the reader still held (a client's last words, its summed result). */
  end(): void {
    for (const event of this.reader.end()) this.take(event, undefined);
    if (this.verbose && this.unknownLines > 0) {
      const lines = this.unknownLines === 1 ? 'line' : 'lines';
      this.rendered.push({
        kind: 'detail',
        text: `· ${this.unknownLines} ${lines} ralph does not know, not read (they are in the .jsonl log)`,
      });
    }
  }

  private take(event: StreamEvent, json: unknown): void {
    // Only a retry the client words as reconnecting (Codex) starts the stall clock: Claude Code's
    // api_retry also covers an overloaded server, which the loop waits out, not a dead network.
    if (event.type === 'api_retry') {
      if (event.message) this.hooks.onRetry?.(event.message);
    } else if (event.type !== 'other') this.hooks.onProgress?.();
    if (event.type === 'other' && event.unknown) this.unknownLines++;
    this.observe(event, json);
    this.rendered.push(...renderEvent(event, this.verbose));
  }

  /**
   * A line that is not JSON: a Node warning between the events is noted as such; an agent whose
   * first lines are all plain text prints plain text, and is told once to use --output text.
   */
  private plainLine(line: string): void {
    this.invalidLines++;
    this.firstPlain ??= line.slice(0, NOT_JSON_QUOTE);
    keepLast(this.plainTail, [line.slice(0, 500)], 10);
    this.hooks.onPlainLine?.(line.slice(0, 500));
    if (!this.plainAgent && !this.sawJson && this.invalidLines >= PLAIN_AGENT_LINES) {
      this.plainAgent = true;
      this.rendered.push({
        kind: 'notice',
        text:
          '[ralph] the agent prints plain text, not stream-json: pass --output text (config "output": "text") ' +
          'for an agent like this one; its lines follow as they are',
      });
    }
    this.rendered.push(
      this.plainAgent
        ? { kind: 'text', text: line }
        : { kind: 'notice', text: `[ralph] not JSON: ${line.slice(0, 200)}` },
    );
  }

  /** A line too long to parse, skipped (it is in the raw log). */
  tooLong(bytes: number): void {
    this.invalidLines++;
    this.rendered.push({
      kind: 'notice',
      text: `[ralph] skipped a ${bytes}-byte line (too long to parse; it is in the .jsonl log)`,
    });
  }

  /** A chunk of the agent's stderr, whose tail helps diagnose a failure. */
  stderr(chunk: Buffer): void {
    this.stderrTail.push(chunk);
    this.stderrLines?.push(chunk);
  }

  /** The lines rendered since the last call. */
  takeRendered(): RenderedLine[] {
    const lines = this.rendered;
    this.rendered = [];
    // The agent's words, shown and never obeyed, in the .log as on the terminal.
    return lines.map((line) => ({ ...line, text: neutralise(line.text) }));
  }

  summary(): OutputSummary {
    const { result, rateLimitRejected, usage } = this;
    return {
      signals: this.scanner.signals(),
      ...(result ? { result } : {}),
      expectsResult: true,
      toolCalls: this.toolCalls,
      invalidLines: this.invalidLines,
      ...(this.unknownLines > 0 ? { unknownLines: this.unknownLines } : {}),
      ...(!this.sawJson && this.firstPlain !== undefined ? { notJson: this.firstPlain } : {}),
      errorText: [...this.stderrTail.result(), ...this.plainTail, ...this.errorText],
      ...(rateLimitRejected ? { rateLimitRejected } : {}),
      ...(usage.size > 0 ? { usage: [...usage.values()] } : {}),
    };
  }

  private observe(event: StreamEvent, json: unknown): void {
    const { hooks } = this;
    if (event.type === 'assistant') {
      for (const text of event.texts) this.scanner.push(`${text}\n`);
      // A synthetic message with an error field is the CLI reporting a failure, not the model talking.
      if (event.error) keepLast(this.errorText, [...event.texts, event.error]);
      this.toolCalls += event.toolUses.length;
      for (const use of event.toolUses) hooks.onToolUse?.(use);
    } else if (event.type === 'tool_results') {
      for (const toolResult of event.results) hooks.onToolResult?.(toolResult);
    } else if (event.type === 'result') {
      this.result = event.result;
      this.scanner.push(`${event.result.text}\n`);
      if (event.result.isError) keepLast(this.errorText, [event.result.text]);
    } else if (event.type === 'rate_limit') {
      this.rateLimitRejected = usageLimitFromEvent(json) ?? this.rateLimitRejected;
      const windows = usageWindowsFromEvent(json);
      for (const window of windows) this.usage.set(window.window, window);
      if (windows.length > 0) hooks.onUsage?.([...this.usage.values()]);
    }
  }
}

/** Appends, keeping only the last few entries: error text is for diagnosis, not a transcript. */
function keepLast(list: string[], items: string[], keep = 20): void {
  list.push(...items);
  if (list.length > keep) list.splice(0, list.length - keep);
}
