#!/usr/bin/env bash
# Fake `claude` for the loop-overhead and scaling scenarios: commits at once, never says COMPLETE.
# With BENCH_STAMPS set it appends its start and end time (bash's $EPOCHREALTIME: no fork), so
# the gap between one call's end and the next call's start is exactly the loop's own work.
# ralph asks a `claude` its version before the run: an answer, not a call.
[[ "${1:-}" == --version ]] && { echo "bench agent"; exit 0; }
[[ -n "${BENCH_STAMPS:-}" ]] && echo "s $EPOCHREALTIME" >>"$BENCH_STAMPS"
git commit --allow-empty -q -m "bench iteration"
echo "Implemented the next story and committed it."
[[ -n "${BENCH_STAMPS:-}" ]] && echo "e $EPOCHREALTIME" >>"$BENCH_STAMPS"
# With BENCH_TIMES set it appends its own CPU and its children's (bash's `times`), so a scenario can
# take the agent's share out of the loop's whole tree.
[[ -n "${BENCH_TIMES:-}" ]] && times >>"$BENCH_TIMES"
exit 0
