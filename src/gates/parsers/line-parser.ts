/** Hands one detail to whoever collects them. */
export type Emit = (detail: string) => void;

/**
 * Reads a tool's output one line at a time and emits a detail per failure it recognises.
 * A parser keeps only the state of the failure it is reading, never the output itself.
 */
export interface LineParser {
  /** One line, without its line break and with terminal colour codes removed. */
  line(text: string): void;
  /** The output is over: emit whatever is still pending. */
  end(): void;
}

export type ParserFactory = (emit: Emit) => LineParser;

/** Assertion-library comments that only repeat what the matcher said. */
const EQUALITY_NOTE = / \/\/ (?:Object\.is|deep) equality$/;

/** `AssertionError: expected 500 to be 201 // Object.is equality` → without the comment. */
export function withoutEqualityNote(text: string): string {
  return text.replace(EQUALITY_NOTE, '');
}

/**
 * The message of an error block from its first two non-empty lines: a first line that ends
 * in a colon (`Expected values to be strictly equal:`) says little without the next one.
 */
export class MessageLines {
  private first: string | undefined;
  private second: string | undefined;

  /** Takes a line; true once nothing more is needed. */
  add(text: string): boolean {
    const line = text.trim();
    if (line === '') return this.done();
    if (this.first === undefined) this.first = line;
    else if (this.second === undefined) this.second = line;
    return this.done();
  }

  done(): boolean {
    return this.first !== undefined && (!this.first.endsWith(':') || this.second !== undefined);
  }

  message(): string | undefined {
    if (this.first === undefined) return undefined;
    // `+ actual - expected` opens a diff: the first line alone says more.
    if (this.second === undefined || !this.first.endsWith(':') || this.second.startsWith('+ actual')) return this.first;
    return `${this.first} ${this.second}`;
  }
}
