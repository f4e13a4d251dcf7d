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
  const suites: string[] = [];
  let tap: TapFailure | undefined;
  let spec: { inSection: boolean; file?: string; label?: string; message?: MessageLines } = { inSection: false };

  const finishTap = () => {
    if (tap && tap.failureType !== 'subtestsFailed') {
      // A file that fails to load is reported as a test named after the file.
      const file = tap.file && !tap.path.includes(tap.file) ? [tap.file] : [];
      const label = [...file, ...tap.path].join(' > ');
      const message = tap.message.message();
      const named = message && tap.errorName && tap.errorName !== 'Error' ? `${tap.errorName}: ${message}` : message;
      emit(named ? `${label}: ${named}` : label);
    }
    tap = undefined;
  };
  const finishSpec = () => {
    if (spec.label !== undefined) {
      const message = spec.message?.message()?.replace(ERROR_CODE, '$1:');
      emit(message ? `${spec.label}: ${message}` : spec.label);
    }
    spec = { inSection: spec.inSection, ...(spec.file ? { file: spec.file } : {}) };
  };

  const tapLine = (text: string): boolean => {
    const subtest = SUBTEST.exec(text);
    if (subtest) {
      suites.length = Math.floor((subtest[1]?.length ?? 0) / 4);
      suites.push(subtest[2] ?? '');
      return true;
    }
    const notOk = NOT_OK.exec(text);
    if (notOk) {
      finishTap();
      const depth = Math.floor((notOk[1]?.length ?? 0) / 4);
      tap = { path: [...suites.slice(0, depth), notOk[2] ?? ''], message: new MessageLines() };
      return true;
    }
    if (!tap) return false;
    if (YAML_END.test(text)) {
      finishTap();
      return true;
    }
    const key = YAML_KEY.exec(text);
    const indent = key?.[1]?.length ?? -1;
    if (tap.inBlock && (key === null || indent > (tap.keyIndent ?? 0))) {
      tap.message.add(text);
      return true;
    }
    tap.inBlock = false;
    if (!key) return true;
    tap.keyIndent ??= indent;
    if (indent !== tap.keyIndent) return true;
    const value = key[3] ?? '';
    if (key[2] === 'location') tap.file = unquote(value).replace(/:\d+:\d+$/, '');
    else if (key[2] === 'failureType') tap.failureType = unquote(value);
    else if (key[2] === 'name') tap.errorName = unquote(value);
    else if (key[2] === 'error') {
      if (value.startsWith('|') || value === '') tap.inBlock = true;
      else tap.message.add(unquote(value));
    }
    return true;
  };

  const specLine = (text: string) => {
    if (SPEC_SECTION.test(text)) {
      spec = { inSection: true };
      return;
    }
    if (!spec.inSection) return;
    const location = SPEC_LOCATION.exec(text);
    if (location) {
      finishSpec();
      spec.file = location[1];
      return;
    }
    const test = SPEC_TEST.exec(text);
    if (test) {
      finishSpec();
      spec.label = spec.file ? `${spec.file} > ${test[1]}` : test[1];
      spec.message = new MessageLines();
      return;
    }
    if (spec.message && !spec.message.done() && !/^\s+at /.test(text)) spec.message.add(text);
  };

  return {
    line(text) {
      if (!tapLine(text)) specLine(text);
    },
    end() {
      finishTap();
      finishSpec();
    },
  };
}

/** A YAML scalar as TAP writes it: plain, 'single' or "double" quoted. */
function unquote(value: string): string {
  const quoted = /^(['"])(.*)\1$/.exec(value.trim());
  if (!quoted) return value.trim();
  return quoted[1] === "'" ? (quoted[2] ?? '').replaceAll("''", "'") : (quoted[2] ?? '').replaceAll('\\"', '"');
}
