import type { Emit, LineParser } from './line-parser.js';

/** `src/x.ts(12,5): error TS2322: message` */
const PLAIN = /^(\S.*?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
/** `src/x.ts:12:5 - error TS2322: message` (--pretty) */
const PRETTY = /^(\S.*?):(\d+):(\d+) - error (TS\d+): (.*)$/;
/** `error TS5083: Cannot read file 'tsconfig.json'.`: no location. */
const GLOBAL = /^error (TS\d+): (.*)$/;

/** tsc: every `error TSxxxx`, both forms written as `file(line,col): error TSxxxx: message`. */
export function tscParser(emit: Emit): LineParser {
  return {
    line(text) {
      const located = PLAIN.exec(text) ?? PRETTY.exec(text);
      if (located) return emit(`${located[1]}(${located[2]},${located[3]}): error ${located[4]}: ${located[5]}`);
      const global = GLOBAL.exec(text);
      if (global) emit(`error ${global[1]}: ${global[2]}`);
    },
    end() {},
  };
}
