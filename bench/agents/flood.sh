#!/bin/sh
# Fake `claude` for the output-throughput scenario: prints BENCH_BYTES bytes of plain text as fast
# as the machine allows, then exits without committing.
yes 'Reading src/loop/run-loop.ts to see how the iteration ends; the tests pass, moving on.' | head -c "${BENCH_BYTES:?BENCH_BYTES is not set}"
