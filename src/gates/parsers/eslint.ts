import { MAX_DETAILS } from '../types.js';
import type { Emit, LineParser } from './line-parser.js';

/**
 * `  12:5  error  Missing semicolon  semi`; the rule, what follows the last run of two spaces, is
 * split off by withRule. One pattern for both backtracked over every run of spaces at every
 * position: a gate's 4 KiB line took 45 ms, and its 5 MiB log held ralph's thread for a minute.
 */
const PROBLEM = /^\s+(\d+):(\d+)\s+(error|warning)\s+(\S.*)$/;
const RULE = /^@?[\w-]+(?:\/[\w-]+)*$/;
/** The file header: a path alone on an unindented line. */
const FILE = /^(\S+\.\w+)\s*$/;

/**
 * ESLint's stylish format: `path:line:col  rule  message` for each problem under its file
 * header; errors only, unless warnings are all there is (`--max-warnings 0`).
 */
export function eslintParser(emit: Emit): LineParser {
  let file: string | undefined;
  const warnings: string[] = [];
  let errors = 0;
  return {
    line(text) {
      const header = FILE.exec(text)?.[1];
      if (header !== undefined) {
        file = header;
        return;
      }
      const problem = file === undefined ? null : PROBLEM.exec(text.trimEnd());
      if (!problem) {
        if (text.trim() === '') return;
        if (!/^\s/.test(text)) file = undefined;
        return;
      }
      const [, line, column, severity, rest = ''] = problem;
      const { message, rule } = withRule(rest);
      const detail = `${file}:${line}:${column}  ${rule ? `${rule}  ` : ''}${message}`;
      if (severity === 'error') {
        errors += 1;
        emit(detail);
      } else if (warnings.length < MAX_DETAILS) warnings.push(detail);
    },
    end() {
      if (errors === 0) for (const warning of warnings) emit(warning);
    },
  };
}

/** A problem's text as its message and its rule: the last word, when two spaces or more precede it. */
function withRule(text: string): { message: string; rule?: string } {
  let word = text.length;
  while (word > 0 && !isBlank(text.charCodeAt(word - 1))) word--;
  let gap = word;
  while (gap > 0 && isBlank(text.charCodeAt(gap - 1))) gap--;
  const rule = text.slice(word);
  return word - gap >= 2 && gap > 0 && RULE.test(rule) ? { message: text.slice(0, gap), rule } : { message: text };
}

/** A space or a tab: what ESLint's stylish format puts between its columns. */
function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}
