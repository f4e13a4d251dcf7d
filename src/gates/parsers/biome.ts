import type { Emit, LineParser } from './line-parser.js';

/** `src/api.ts:3:10 lint/correctness/noUnusedVariables  FIXABLE  ━━━━`, `src/users.ts format ━━━━`. */
const HEADER = /^(\S+?(?::\d+:\d+)?) ([\w/]+)(?:\s+FIXABLE)?\s+━{3,}$/;
/** The diagnostic's message: `✖ This variable is unused.` (`×` in Biome 2, `⚠`/`!` for warnings). */
const MESSAGE = /^\s+[✖×⚠!]\s+(.*?):?\s*$/;

/** Biome: each diagnostic as `path:line:col  category  message`. */
export function biomeParser(emit: Emit): LineParser {
  let pending: string | undefined;
  return {
    line(text) {
      const header = HEADER.exec(text);
      if (header) {
        if (pending !== undefined) emit(pending);
        pending = `${header[1]}  ${header[2]}`;
        return;
      }
      const message = pending === undefined ? undefined : MESSAGE.exec(text)?.[1];
      if (message !== undefined) {
        emit(`${pending}  ${message}`);
        pending = undefined;
      }
    },
    end() {
      if (pending !== undefined) emit(pending);
    },
  };
}
