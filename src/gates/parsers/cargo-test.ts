import type { Emit, LineParser } from './line-parser.js';

/** `---- tests::creates_user stdout ----` */
const TEST_OUTPUT = /^---- (\S+) stdout ----$/;
/** `thread 'tests::x' (1234) panicked at src/lib.rs:20:9:` (Rust ≥ 1.73; the message follows). */
const PANIC_AT = /^thread '[^']*'(?: \(\d+\))? panicked at (\S+?):?$/;
/** `thread 'tests::x' panicked at 'message', src/lib.rs:20:9` (older Rust; the message may span lines). */
const PANIC_OLD = /^thread '[^']*'(?: \(\d+\))? panicked at '(.*)$/;
/** How an older panic message ends: `', src/lib.rs:20:9`. */
const OLD_LOCATION = /^(.*)', (\S+:\d+:\d+)$/;
/** `  left: 500` / ` right: 201` under `assertion \`left == right\` failed` (older Rust: `left: \`500\`,`). */
const OPERAND = /^\s*(left|right): (.*?),?$/;

interface Pending {
  name: string;
  location?: string;
  message?: string;
  operands: string[];
}

/**
 * `cargo test`: each `---- name stdout ----` with its panic message and location, and the
 * left/right values of a failed assert_eq!.
 */
export function cargoTestParser(emit: Emit): LineParser {
  let pending: Pending | undefined;
  const finish = () => {
    if (pending) {
      const operands = pending.operands.length > 0 ? ` (${pending.operands.join(', ')})` : '';
      const at = pending.location ? ` at ${pending.location}` : '';
      emit(pending.message ? `${pending.name}: ${pending.message}${operands}${at}` : pending.name);
    }
    pending = undefined;
  };
  return {
    line(raw) {
      const name = TEST_OUTPUT.exec(raw)?.[1];
      if (name !== undefined) {
        finish();
        pending = { name, operands: [] };
        return;
      }
      if (!pending) return;
      const old = PANIC_OLD.exec(raw)?.[1];
      if (old !== undefined) {
        const end = OLD_LOCATION.exec(old);
        pending.message = end?.[1] ?? old;
        pending.location = end?.[2] ?? '';
        return;
      }
      // The last line of an older multi-line panic message carries the location.
      const end = pending.location === '' ? OLD_LOCATION.exec(raw) : null;
      if (end) pending.location = end[2];
      const text = end ? (end[1] ?? '') : raw;
      const at = PANIC_AT.exec(text)?.[1];
      if (at !== undefined) {
        pending.location = at;
        return;
      }
      if (pending.location !== undefined && pending.message === undefined) {
        if (text.trim() !== '') pending.message = text.trim();
        return;
      }
      const operand = OPERAND.exec(text);
      if (operand && pending.message !== undefined && pending.operands.length < 2) {
        pending.operands.push(`${operand[1]}: ${operand[2]?.trim()}`);
        return;
      }
      // The summary after the last test's output: `failures:` then the names again.
      if (raw === 'failures:' || raw.startsWith('test result:')) finish();
    },
    end: finish,
  };
}
