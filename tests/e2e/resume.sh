#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# kill -9 at arbitrary moments, then --resume: every saved file survives
# with the same content, queue ids stay contiguous, no temp file is left
# where AFL++ would read, and nothing fully expanded is expanded again.
. "$(dirname "$0")/lib.sh"
OUT=$WORK/out
D=$OUT/glassbox
snapshot() { (cd "$D" && find queue crashes hangs -type f -name 'id:*' -print0 | sort -z | xargs -0 -r sha1sum | sort); }
check_layout() {
  local n ids
  n=$(count_ids "$D/queue")
  ids=$(find "$D/queue" -maxdepth 1 -name 'id:*' -printf '%f\n' | cut -c4-9 | sort -n | awk '{ if ($1 != NR - 1) bad = 1 } END { print bad ? "gap" : "ok" }')
  [ "$ids" = ok ] || fail "queue ids are not contiguous from 0 ($n entries)"
  [ -z "$(find "$D/queue" "$D/crashes" -maxdepth 1 -type f ! -name 'id:*' ! -name README.txt)" ] || \
    fail "stray files in queue/ or crashes/: $(find "$D/queue" "$D/crashes" -maxdepth 1 -type f ! -name 'id:*' ! -name README.txt)"
  [ -z "$(twice_expanded "$D")" ] || fail "an input was expanded twice: $(twice_expanded "$D" | head -3)"
}
run_and_kill() { # run_and_kill SECONDS ARGS...
  local secs=$1
  shift
  "$BIN/glassbox" fuzz -q "$@" -o "$OUT" -- "$H/demo.trace" "$H/demo.cov" &
  local pid=$!
  sleep "$secs"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
run_and_kill 3 -i "$SRC/harnesses/demo/seeds"
for round in 1 2 3; do
  check_layout
  before=$(snapshot)
  [ -n "$before" ] || fail "round $round: nothing saved before the kill"
  run_and_kill "$round" --resume
  after=$(snapshot)
  lost=$(comm -23 <(echo "$before") <(echo "$after") | wc -l)
  [ "$lost" -eq 0 ] || fail "round $round: $lost saved files lost or changed: $(comm -23 <(echo "$before") <(echo "$after") | head -3)"
done
check_layout
# A clean resume to the end of a short budget.
"$BIN/glassbox" fuzz -q --resume -V 3 -o "$OUT" -- "$H/demo.trace" "$H/demo.cov" || fail "a clean --resume failed"
check_layout
pass "3 kill -9 rounds: $(count_ids "$D/queue") queue entries kept, $(finished_expansions "$D" | wc -l) expansions, none twice"
