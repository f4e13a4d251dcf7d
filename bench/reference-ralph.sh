#!/usr/bin/env bash
# The bash ralph.sh pattern that ralph replaces, written faithfully so the benchmark has a peer
# to measure against (see ../README.md, "Performance"). Per iteration: the agent's output is
# tee'd to a log AND captured in a shell variable (so the whole output sits in memory), HEAD is
# read with `git rev-parse` before and after, `jq` counts the stories, `grep` looks for the
# promise tags in the captured output, and one `echo >>` appends the CSV row.
#
# Usage (in the repository root): reference-ralph.sh [--max-iterations N] [--max-stuck N]
# Exit codes as ralph.sh: 0 complete, 1 max iterations, 2 blocked, 3 decide, 4 stuck.
set -u

MAX_ITERATIONS=10
MAX_STUCK=3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --max-iterations) MAX_ITERATIONS="$2"; shift 2 ;;
    --max-stuck) MAX_STUCK="$2"; shift 2 ;;
    *) echo "reference-ralph.sh: unknown argument $1" >&2; exit 64 ;;
  esac
done

command -v jq >/dev/null || { echo "reference-ralph.sh: jq is required (apt-get install jq)" >&2; exit 64; }

RALPH_DIR=ralph
PROMPT_FILE="$RALPH_DIR/prompt.md"
TASKS_FILE="$RALPH_DIR/tasks.json"
LOG_DIR="$RALPH_DIR/logs"
SUMMARY_CSV="$LOG_DIR/summary.csv"

mkdir -p "$LOG_DIR"
if [[ ! -f "$SUMMARY_CSV" ]]; then
  echo "iteration,mode,duration_seconds,commit_hash,stories_complete,stories_total,stuck_count,timestamp" >>"$SUMMARY_CSV"
fi

STUCK_COUNT=0
for ((i = 1; i <= MAX_ITERATIONS; i++)); do
  LOG_FILE="$LOG_DIR/iteration-$(printf '%03d' "$i").log"
  PROMPT=$(cat "$PROMPT_FILE")
  HEAD_BEFORE=$(git rev-parse HEAD 2>/dev/null || echo none)
  START=$SECONDS

  OUTPUT=$(claude -p "$PROMPT" --dangerously-skip-permissions 2>&1 | tee "$LOG_FILE")

  DURATION=$((SECONDS - START))
  HEAD_AFTER=$(git rev-parse HEAD 2>/dev/null || echo none)
  if [[ "$HEAD_AFTER" == "$HEAD_BEFORE" ]]; then
    STUCK_COUNT=$((STUCK_COUNT + 1))
    COMMIT_HASH=""
  else
    STUCK_COUNT=0
    COMMIT_HASH="$HEAD_AFTER"
  fi

  STORIES_COMPLETE=$(jq '[.stories[] | select(.passes == true)] | length' "$TASKS_FILE")
  STORIES_TOTAL=$(jq '.stories | length' "$TASKS_FILE")
  echo "$i,implement,$DURATION,$COMMIT_HASH,$STORIES_COMPLETE,$STORIES_TOTAL,$STUCK_COUNT,$(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$SUMMARY_CSV"

  if echo "$OUTPUT" | grep -q '<promise>COMPLETE</promise>'; then
    if [[ "$STORIES_COMPLETE" -eq "$STORIES_TOTAL" ]]; then
      echo "All stories complete after $i iterations."
      exit 0
    fi
    echo "COMPLETE rejected: $((STORIES_TOTAL - STORIES_COMPLETE)) stories still failing."
  fi
  BLOCKED=$(echo "$OUTPUT" | grep -o '<promise>BLOCKED:[^<]*</promise>' | head -n 1 | sed -e 's/<promise>BLOCKED://' -e 's#</promise>##')
  if [[ -n "$BLOCKED" ]]; then
    echo "$BLOCKED" >"$RALPH_DIR/blocked.txt"
    exit 2
  fi
  DECIDE=$(echo "$OUTPUT" | grep -o '<promise>DECIDE:[^<]*</promise>' | head -n 1 | sed -e 's/<promise>DECIDE://' -e 's#</promise>##')
  if [[ -n "$DECIDE" ]]; then
    printf '%s\n\n---\n## Answer\n' "$DECIDE" >"$RALPH_DIR/decide.txt"
    exit 3
  fi
  if [[ "$STUCK_COUNT" -ge "$MAX_STUCK" ]]; then
    echo "Stuck: $STUCK_COUNT iterations without a commit."
    exit 4
  fi
done

echo "Max iterations ($MAX_ITERATIONS) reached."
exit 1
