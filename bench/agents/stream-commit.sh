#!/usr/bin/env bash
# Fake `claude` for the peers scenario: like instant-commit.sh (commits at once, stamps its calls and
# its CPU), but answers in Claude Code's stream-json, which the other loop runners read.
[[ "${1:-}" == --version ]] && { echo "bench agent"; exit 0; }
[[ -n "${BENCH_STAMPS:-}" ]] && echo "s $EPOCHREALTIME" >>"$BENCH_STAMPS"
git commit --allow-empty -q -m "bench iteration"
echo '{"type":"system","subtype":"init","session_id":"bench","tools":[],"model":"bench"}'
echo '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Implemented the next task and committed it."}]}}'
echo '{"type":"result","subtype":"success","is_error":false,"duration_ms":1,"num_turns":1,"result":"Implemented the next task and committed it.","session_id":"bench","total_cost_usd":0,"usage":{"input_tokens":1,"output_tokens":1}}'
[[ -n "${BENCH_STAMPS:-}" ]] && echo "e $EPOCHREALTIME" >>"$BENCH_STAMPS"
[[ -n "${BENCH_TIMES:-}" ]] && times >>"$BENCH_TIMES"
exit 0
