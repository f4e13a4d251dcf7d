#!/bin/sh
# Fake `claude` for the output-throughput scenario: prints BENCH_BYTES bytes of plain text as fast
# as the machine allows, then exits without committing.
# ralph asks a `claude` its version before the run: an answer, not a call.
[ "${1:-}" = --version ] && { echo "bench agent"; exit 0; }
yes 'Reading src/loop/run-loop.ts to see how the iteration ends; the tests pass, moving on.' | head -c "${BENCH_BYTES:?BENCH_BYTES is not set}"
