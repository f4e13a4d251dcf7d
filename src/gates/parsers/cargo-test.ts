import type { Emit, LineParser } from './line-parser.js';

/** `---- tests::creates_user stdout ----` */
const TEST_OUTPUT = /^---- (\S+) stdout ----$/;
/** `thread 'tests::x' (1234) panicked at src/lib.rs:20:9:` (Rust ≥ 1.73; the message follows). */
const PANIC_AT = /^thread '[^']*'(?: \(\d+\))? panicked at (\S+?):?$/;
/** `thread 'tests::x' panicked at 'message', src/lib.rs:20:9` (older Rust). */
const PANIC_OLD = /^thread '[^']*'(?: \(\d+\))? panicked at '(.*)', (\S+)$/;
/** `  left: 500` / ` right: 201` under `assertion \`left == right\` failed`. */
const OPERAND = /^\s*(left|right): (.*)$/;

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
    line(text) {
      const name = TEST_OUTPUT.exec(text)?.[1];
      if (name !== undefined) {
        finish();
        pending = { name, operands: [] };
        return;
      }
      if (!pending) return;
      const old = PANIC_OLD.exec(text);
      if (old) {
        pending.message = old[1];
        pending.location = old[2];
        return;
      }
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
      if (text === 'failures:' || text.startsWith('test result:')) finish();
    },
    end: finish,
  };
}
