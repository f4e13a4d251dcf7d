import { MAX_DETAILS } from '../types.js';
import type { Emit, LineParser } from './line-parser.js';

/** `  12:5  error  Missing semicolon  semi`: the rule is what follows the last run of two spaces. */
const PROBLEM = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)(?:\s{2,}(@?[\w-]+(?:\/[\w-]+)*))?\s*$/;
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
      const problem = file === undefined ? null : PROBLEM.exec(text);
      if (!problem) {
        if (text.trim() === '') return;
        if (!/^\s/.test(text)) file = undefined;
        return;
      }
      const [, line, column, severity, message, rule] = problem;
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
