import { withoutEqualityNote, type Emit, type LineParser } from './line-parser.js';

/** ` FAIL  test/api.test.js` or ` FAIL  test/api.test.js (5.2 s)`; vitest's headers carry ` > `. */
const FILE_HEADER = /^\s*(FAIL|PASS)\s+(\S+)(?:\s+\([\d.]+ m?s\))?\s*$/;
/** `  ● users › creates a user` */
const TEST_HEADER = /^\s*● (.+?)\s*$/;
/** `Expected: 201`, `Received length: 3`, `Expected number of calls: 1`. */
const EXPECTED = /^\s*Expected((?: [a-z]+)*): (.*)$/;
const RECEIVED = /^\s*Received((?: [a-z]+)*): (.*)$/;
/** Where the error text ends: the code frame (`> 13 | …`) or the stack (`at …`). */
const BLOCK_END = /^\s*(?:>\s*)?\d+ \||^\s*at /;

interface Pending {
  label: string;
  matcher?: string;
  expected?: string;
}

/**
 * Jest: each `● suite › test` block under its ` FAIL  file` header, with the first line of its
 * error; `expect(…)` matchers become `expected 201, received 500` from their Expected/Received lines.
 */
export function jestParser(emit: Emit): LineParser {
  let file: string | undefined;
  let pending: Pending | undefined;
  const finish = (message?: string) => {
    if (pending)
      emit(
        message === undefined
          ? pending.matcher
            ? `${pending.label}: ${pending.matcher}`
            : pending.label
          : `${pending.label}: ${message}`,
      );
    pending = undefined;
  };
  return {
    line(text) {
      const header = FILE_HEADER.exec(text);
      if (header) {
        finish();
        file = header[1] === 'FAIL' ? header[2] : undefined;
        return;
      }
      const test = TEST_HEADER.exec(text)?.[1];
      if (test !== undefined) {
        finish();
        // `● Console` introduces console output, not a failure.
        if (test === 'Console') return;
        const name = test.replaceAll(' › ', ' > ');
        const label = test === 'Test suite failed to run' ? (file ?? name) : file ? `${file} > ${name}` : name;
        pending = { label };
        return;
      }
      if (!pending || text.trim() === '') return;
      if (pending.matcher === undefined) {
        const first = withoutEqualityNote(text.trim());
        if (first.startsWith('expect(')) pending.matcher = first;
        else finish(first);
        return;
      }
      const expected = EXPECTED.exec(text);
      if (expected) {
        pending.expected = `expected${expected[1]} ${expected[2]}`;
        return;
      }
      const received = RECEIVED.exec(text);
      if (received && pending.expected !== undefined)
        return finish(`${pending.expected}, received${received[1]} ${received[2]}`);
      if (BLOCK_END.test(text)) finish();
    },
    end: () => finish(),
  };
}
