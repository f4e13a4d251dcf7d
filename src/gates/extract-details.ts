import { stat } from 'node:fs/promises';
import { MAX_DETAILS } from './types.js';
import { biomeParser } from './parsers/biome.js';
import { cargoTestParser } from './parsers/cargo-test.js';
import { compilerParser } from './parsers/compiler.js';
import { eslintParser } from './parsers/eslint.js';
import { goTestParser } from './parsers/go-test.js';
import { jestParser } from './parsers/jest.js';
import type { LineParser, ParserFactory } from './parsers/line-parser.js';
import { nodeTestParser } from './parsers/node-test.js';
import { pytestParser } from './parsers/pytest.js';
import { tscParser } from './parsers/tsc.js';
import { vitestParser } from './parsers/vitest.js';
import { readLineBatches } from './read-lines.js';

/** Parsers for tools whose output says exactly what failed. */
const SPECIFIC: readonly ParserFactory[] = [
  vitestParser,
  jestParser,
  nodeTestParser,
  pytestParser,
  goTestParser,
  cargoTestParser,
  tscParser,
  eslintParser,
  biomeParser,
];

/**
 * How much of a log is read: its start and its end. Summaries of failures come at the end of
 * most tools' output, and the time to read a log must not grow with it (a gate may print
 * gigabytes); the full log is always named beside the details.
 */
export const HEAD_BYTES = 1024 * 1024;
export const TAIL_BYTES = 4 * 1024 * 1024;
/** Longest detail kept; the full line stays in the log. */
const MAX_DETAIL_LENGTH = 300;
// Colour and cursor codes (CSI) and terminal titles or links (OSC).
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Details one parser emitted, each with the line it was emitted at, capped and without repeats. */
class Found {
  readonly items: { at: number; text: string }[] = [];

  add(at: number, text: string): void {
    if (this.items.length >= MAX_DETAILS) return;
    const detail = clip(text.trim());
    if (detail !== '' && !this.items.some((item) => item.text === detail)) this.items.push({ at, text: detail });
  }
}

/**
 * Turns a gate's output into at most MAX_DETAILS details, one line at a time. Every parser
 * reads every line, so the tool is recognised by what its output contains; the specific tools'
 * details come in output order, else compiler `error:` lines, else the last non-empty lines.
 */
export class DetailExtractor {
  private lineNumber = 0;
  private readonly specific = SPECIFIC.map(() => new Found());
  private readonly compiler = new Found();
  private parsers: LineParser[] = [];
  private readonly tail: string[] = [];
  private tailStart = 0;

  constructor() {
    this.attachParsers();
  }

  /** Reads one line of output. */
  push(raw: string): void {
    const line = cleanLine(raw);
    this.lineNumber += 1;
    for (const parser of this.parsers) parser.line(line);
    if (line.trim() === '') return;
    // A ring buffer of the last non-empty lines: the fallback for output no parser knows.
    if (this.tail.length < MAX_DETAILS) this.tail.push(line);
    else {
      this.tail[this.tailStart] = line;
      this.tailStart = (this.tailStart + 1) % MAX_DETAILS;
    }
  }

  /** Part of the output is left out here: what the parsers were reading ends, and they start afresh. */
  gap(): void {
    for (const parser of this.parsers) parser.end();
    this.attachParsers();
  }

  /** Ends the output and returns the details. */
  finish(): string[] {
    for (const parser of this.parsers) parser.end();
    this.parsers = [];
    const specific = this.specific
      .flatMap((found) => found.items)
      .sort((a, b) => a.at - b.at)
      .map((item) => item.text);
    const unique = [...new Set(specific)];
    if (unique.length > 0) return unique.slice(0, MAX_DETAILS);
    if (this.compiler.items.length > 0) return this.compiler.items.map((item) => item.text);
    return [...this.tail.slice(this.tailStart), ...this.tail.slice(0, this.tailStart)].map((line) =>
      clip(line.trimEnd()),
    );
  }

  private attachParsers(): void {
    const attach = (factory: ParserFactory, found: Found) => factory((detail) => found.add(this.lineNumber, detail));
    this.parsers = [
      ...SPECIFIC.map((factory, index) => attach(factory, this.specific[index] as Found)),
      attach(compilerParser, this.compiler),
    ];
  }
}

/** The details of a whole output given as lines. */
export function extractDetails(lines: Iterable<string>): string[] {
  const extractor = new DetailExtractor();
  for (const line of lines) extractor.push(line);
  return extractor.finish();
}

/** The details of a log file, read as a stream with bounded memory, and only its start and end when it is large. */
export async function extractDetailsFromFile(path: string): Promise<string[]> {
  const extractor = new DetailExtractor();
  const push = async (batches: AsyncIterable<string[]>) => {
    for await (const batch of batches) for (const line of batch) extractor.push(line);
  };
  const { size } = await stat(path);
  if (size <= HEAD_BYTES + TAIL_BYTES) await push(readLineBatches(path));
  else {
    await push(readLineBatches(path, { end: HEAD_BYTES }));
    extractor.gap();
    await push(readLineBatches(path, { start: size - TAIL_BYTES, skipPartialFirstLine: true }));
  }
  return extractor.finish();
}

/** A line as a parser should see it: no colour codes, and only what a terminal would show after a carriage return. */
function cleanLine(raw: string): string {
  const text = raw.includes('\x1b') ? raw.replace(ANSI, '') : raw;
  const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
  const lastReturn = trimmed.lastIndexOf('\r');
  return lastReturn === -1 ? trimmed : trimmed.slice(lastReturn + 1);
}

function clip(text: string): string {
  return text.length <= MAX_DETAIL_LENGTH ? text : `${text.slice(0, MAX_DETAIL_LENGTH - 1)}…`;
}
