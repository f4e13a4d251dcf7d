import type { Emit, LineParser } from './line-parser.js';

/** gcc/clang/go vet style: `main.c:4:26: error: expected ';'`, `x.c:1:10: fatal error: …`. */
const LOCATED = /^(\S+?:\d+(?::\d+)?): (?:fatal )?error: (.*)$/;
/** rustc style: `error[E0308]: mismatched types`, its location on a later ` --> src/lib.rs:2:21` line. */
const RUST_ERROR = /^error(\[E\d+\])?: (.*)$/;
const RUST_LOCATION = /^\s*--> (\S+)$/;
/** Summaries that repeat what the errors above said. */
const NOISE = /^(?:aborting due to|could not compile|test failed, to rerun|build failed|Some errors have)/;
/** How many lines after `error:` its ` --> ` location may come. */
const LOCATION_WINDOW = 3;

/** Compiler `error:` lines in general (gcc, clang, rustc, javac-like), with their location. */
export function compilerParser(emit: Emit): LineParser {
  let pending: { text: string; linesLeft: number } | undefined;
  const finish = (location?: string) => {
    if (pending) emit(location ? `${location}: ${pending.text}` : pending.text);
    pending = undefined;
  };
  return {
    line(text) {
      const located = LOCATED.exec(text);
      if (located) {
        finish();
        return emit(`${located[1]}: error: ${located[2]}`);
      }
      const rust = RUST_ERROR.exec(text);
      if (rust) {
        finish();
        if (!NOISE.test(rust[2] ?? ''))
          pending = { text: `error${rust[1] ?? ''}: ${rust[2]}`, linesLeft: LOCATION_WINDOW };
        return;
      }
      if (!pending) return;
      const location = RUST_LOCATION.exec(text)?.[1];
      if (location !== undefined) return finish(location);
      if (--pending.linesLeft <= 0) finish();
    },
    end: () => finish(),
  };
}
