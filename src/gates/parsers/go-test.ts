import type { Emit, LineParser } from './line-parser.js';

/** `--- FAIL: TestParse/empty_input (0.00s)`, at any depth. */
const FAIL = /^\s*--- FAIL: (\S+)/;
const RUN = /^=== (?:RUN|CONT)\s+(\S+)/;
/** `    users_test.go:18: message`: a test's own log line. */
const LOG_LINE = /^\s+(\w[\w.-]*\.go:\d+: .*)$/;
/** `store/store.go:14:2: undefined: x`: a compile error of the package under test. */
const BUILD_ERROR = /^(\S+\.go:\d+:\d+: .*)$/;
const PANIC = /^panic: (.*)$/;
/** The lines that end a package's output. */
const PACKAGE_END = /^(?:FAIL|ok )\b/;

/**
 * `go test`: each `--- FAIL: TestX` with the first line it logged (after the header normally,
 * before it with -v), or its panic; parents whose failure is only a failing subtest are left out;
 * plus the compile errors of packages that did not build.
 */
export function goTestParser(emit: Emit): LineParser {
  let pending: string | undefined;
  let running: { name: string; log?: string } | undefined;
  const finish = (message?: string) => {
    if (pending !== undefined) emit(message ? `${pending}: ${message}` : pending);
    pending = undefined;
  };
  return {
    line(text) {
      const fail = FAIL.exec(text)?.[1];
      if (fail !== undefined) {
        // A parent's header followed by its subtest's: the subtest says where it broke.
        if (pending !== undefined && fail.startsWith(`${pending}/`)) pending = undefined;
        else finish();
        if (running?.name === fail && running.log !== undefined) {
          emit(`${fail}: ${running.log}`);
          running = undefined;
        } else pending = fail;
        return;
      }
      const run = RUN.exec(text)?.[1];
      if (run !== undefined) {
        finish();
        running = { name: run };
        return;
      }
      const log = LOG_LINE.exec(text)?.[1];
      if (log !== undefined) {
        if (pending !== undefined) finish(log);
        else if (running && running.log === undefined) running.log = log;
        return;
      }
      const panic = PANIC.exec(text)?.[1];
      if (panic !== undefined && pending !== undefined) return finish(`panic: ${panic}`);
      const buildError = BUILD_ERROR.exec(text)?.[1];
      if (buildError !== undefined) return emit(buildError);
      if (PACKAGE_END.test(text)) finish();
    },
    end: () => finish(),
  };
}
