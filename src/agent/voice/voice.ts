import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How the scripted stand-in agent (`ralph demo`, the end-to-end tests) speaks one client's output:
 * what it says, the tools it calls, its final result. Each kind's dialect has one, so every reader
 * is shown end to end without credentials.
 */
export interface Emitter {
  init(): Promise<void>;
  /** Text the agent says; a list is written piece by piece, `pauseMs` apart. */
  say(text: string | string[]): Promise<void>;
  tool(name: string, input: unknown, result: string, isError: boolean): Promise<void>;
  /** One raw stdout line. */
  raw(text: string): Promise<void>;
  result(isError: boolean, fields: Record<string, unknown>): Promise<void>;
}

/** What the stand-in prints and how it exits when asked a question rather than called. */
export interface ScriptedAnswer {
  stdout: string;
  exitCode: number;
}

/** A client's voice as the stand-in takes it on: how it knows it was called so, and how it speaks. */
export interface ScriptedVoice {
  /** Whether this argv is the one the kind's dialect builds. */
  recognises(argv: readonly string[]): boolean;
  /** The prompt in the argv; undefined: it is on stdin. */
  prompt(argv: readonly string[]): string | undefined;
  /** Whether the argv asks for the machine-readable stream. */
  streams(argv: readonly string[]): boolean;
  emitter(pauseMs: number): Emitter;
  /**
   * Its answer to a question the client answers without a call (a login check ralph's preflight
   * asks), as the tests set it in `env`; undefined: not one of its questions.
   */
  answer?(argv: readonly string[], env: NodeJS.ProcessEnv): ScriptedAnswer | undefined;
}

/** Any client's plain output: the text as it comes, a tool call as one line. */
export function textEmitter(pauseMs: number): Emitter {
  return {
    init: () => Promise.resolve(),
    say: (text) => sayInPieces(text, pauseMs),
    tool: (name, input) => write(`[${name}] ${JSON.stringify(input)}\n`),
    raw: (text) => write(`${text}\n`),
    result: () => Promise.resolve(),
  };
}

/** Writes each piece, `pauseMs` apart: the reader must take text that comes in parts. */
export async function sayInPieces(text: string | string[], pauseMs: number): Promise<void> {
  for (const piece of typeof text === 'string' ? [text] : text) {
    await write(piece);
    if (pauseMs) await sleep(pauseMs);
  }
}

/** One JSON line on stdout. */
export function line(event: unknown): Promise<void> {
  return write(`${JSON.stringify(event)}\n`);
}

export function write(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}

/** The value after a flag (`-p <prompt>`), unless it is another flag or absent. */
export function valueAfter(argv: readonly string[], flag: string): string | undefined {
  const index = argv.indexOf(flag);
  const next = index === -1 ? undefined : argv[index + 1];
  return next !== undefined && !next.startsWith('--') ? next : undefined;
}
