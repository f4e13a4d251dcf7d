import { MessageLines, type Emit, type LineParser } from './line-parser.js';

/** TAP: `# Subtest: users` opens a test, nested by four spaces per level. */
const SUBTEST = /^( *)# Subtest: (.+)$/;
const NOT_OK = /^( *)not ok \d+ - (.+?)(?: # .*)?$/;
const YAML_KEY = /^( *)(\w+):(?: (.*))?$/;
const YAML_END = /^ *\.\.\.$/;
/** Spec reporter: the summary section that repeats each failure. */
const SPEC_SECTION = /^✖ failing tests:$/;
const SPEC_LOCATION = /^test at (.+?)(?::\d+:\d+)?$/;
const SPEC_TEST = /^✖ (.+?) \([\d.]+m?s\)$/;
/** `AssertionError [ERR_ASSERTION]: …`, `TypeError [Error]: …` → without the bracketed code. */
const ERROR_CODE = /^(\w+) \[\w+\]:/;

interface TapFailure {
  path: string[];
  file?: string;
  errorName?: string;
  failureType?: string;
  message: MessageLines;
  /** Indentation of the YAML block's own keys; deeper keys belong to `expected:`/`actual:` values. */
  keyIndent?: number;
  /** Set while inside the `error: |-` block. */
  inBlock?: boolean;
}

/**
 * `node --test`: TAP (`not ok` and the `error:` of its YAML block, suite-level `subtestsFailed`
 * left out) and the spec reporter's `✖ failing tests:` section.
 */
export function nodeTestParser(emit: Emit): LineParser {
  const tap = new TapReader(emit);
  const spec = new SpecReader(emit);
  return {
    line(text) {
      if (!tap.line(text)) spec.line(text);
    },
    end() {
      tap.end();
      spec.end();
    },
  };
}

/** The TAP reporter's failures: each `not ok` under its subtests, with the `error:` of its YAML block. */
class TapReader {
  private readonly suites: string[] = [];
  private failure: TapFailure | undefined;

  constructor(private readonly emit: Emit) {}

  /** Reads one line; false when it is not TAP's (the spec reader may want it). */
  line(text: string): boolean {
    const subtest = SUBTEST.exec(text);
    if (subtest) {
      this.suites.length = Math.floor((subtest[1]?.length ?? 0) / 4);
      this.suites.push(subtest[2] ?? '');
      return true;
    }
    const notOk = NOT_OK.exec(text);
    if (notOk) {
      this.end();
      const depth = Math.floor((notOk[1]?.length ?? 0) / 4);
      this.failure = { path: [...this.suites.slice(0, depth), notOk[2] ?? ''], message: new MessageLines() };
      return true;
    }
    if (!this.failure) return false;
    if (YAML_END.test(text)) this.end();
    else yamlLine(this.failure, text);
    return true;
  }

  /** Emits the failure being read, unless it only says its subtests failed. */
  end(): void {
    const tap = this.failure;
    if (tap && tap.failureType !== 'subtestsFailed') {
      // A file that fails to load is reported as a test named after the file.
      const file = tap.file && !tap.path.includes(tap.file) ? [tap.file] : [];
      const label = [...file, ...tap.path].join(' > ');
      const message = tap.message.message();
      const named = message && tap.errorName && tap.errorName !== 'Error' ? `${tap.errorName}: ${message}` : message;
      this.emit(named ? `${label}: ${named}` : label);
    }
    this.failure = undefined;
  }
}

/** One line of a failure's YAML block: its location, failure type, error name, and the error's text. */
function yamlLine(tap: TapFailure, text: string): void {
  const key = YAML_KEY.exec(text);
  const indent = key?.[1]?.length ?? -1;
  if (tap.inBlock && (key === null || indent > (tap.keyIndent ?? 0))) {
    tap.message.add(text);
    return;
  }
  tap.inBlock = false;
  if (!key) return;
  tap.keyIndent ??= indent;
  if (indent !== tap.keyIndent) return;
  const value = key[3] ?? '';
  if (key[2] === 'location') tap.file = unquote(value).replace(/:\d+:\d+$/, '');
  else if (key[2] === 'failureType') tap.failureType = unquote(value);
  else if (key[2] === 'name') tap.errorName = unquote(value);
  else if (key[2] === 'error') {
    if (value.startsWith('|') || value === '') tap.inBlock = true;
    else tap.message.add(unquote(value));
  }
}

/** The spec reporter's `✖ failing tests:` section: each failing test under its file, with its message. */
class SpecReader {
  private spec: { inSection: boolean; file?: string; label?: string; message?: MessageLines } = { inSection: false };

  constructor(private readonly emit: Emit) {}

  line(text: string): void {
    if (SPEC_SECTION.test(text)) {
      this.spec = { inSection: true };
      return;
    }
    if (!this.spec.inSection) return;
    const location = SPEC_LOCATION.exec(text);
    if (location) {
      this.end();
      this.spec.file = location[1];
      return;
    }
    const test = SPEC_TEST.exec(text);
    if (test) {
      this.end();
      this.spec.label = this.spec.file ? `${this.spec.file} > ${test[1]}` : test[1];
      this.spec.message = new MessageLines();
      return;
    }
    const { message } = this.spec;
    if (message && !message.done() && !/^\s+at /.test(text)) message.add(text);
  }

  /** Emits the failing test being read, keeping the file it is under. */
  end(): void {
    const { spec } = this;
    if (spec.label !== undefined) {
      const message = spec.message?.message()?.replace(ERROR_CODE, '$1:');
      this.emit(message ? `${spec.label}: ${message}` : spec.label);
    }
    this.spec = { inSection: spec.inSection, ...(spec.file ? { file: spec.file } : {}) };
  }
}

/** A YAML scalar as TAP writes it: plain, 'single' or "double" quoted. */
function unquote(value: string): string {
  const quoted = /^(['"])(.*)\1$/.exec(value.trim());
  if (!quoted) return value.trim();
  return quoted[1] === "'" ? (quoted[2] ?? '').replaceAll("''", "'") : (quoted[2] ?? '').replaceAll('\\"', '"');
}
