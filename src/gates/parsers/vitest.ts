import { MAX_DETAILS } from '../types.js';
import { withoutEqualityNote, type Emit, type LineParser } from './line-parser.js';

/** ` FAIL  test/api.test.ts > users > creates a user`, or a whole file: ` FAIL  test/x.test.ts [ test/x.test.ts ]`. */
const FAIL = /^\s*FAIL\s+(\S.*?)\s*$/;
const SUITE_SUFFIX = /\s+\[ .+ \]$/;

/**
 * Vitest: each ` FAIL  file > suite > test` header of the failure section, with the first line
 * of its error (several headers in a row share one error).
 */
export function vitestParser(emit: Emit): LineParser {
  let pending: string[] = [];
  const flush = (message?: string) => {
    for (const name of pending) emit(message === undefined ? name : `${name}: ${message}`);
    pending = [];
  };
  return {
    line(text) {
      const name = FAIL.exec(text)?.[1];
      if (name !== undefined && (name.includes(' > ') || SUITE_SUFFIX.test(name))) {
        if (pending.length < MAX_DETAILS) pending.push(name.replace(SUITE_SUFFIX, ''));
        return;
      }
      if (pending.length > 0 && text.trim() !== '') flush(withoutEqualityNote(text.trim()));
    },
    end: () => flush(),
  };
}
