#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# kill -9 beside a peer (issue 13): a Glassbox worker and the real afl-fuzz
# -M share one sync dir; 20 times, at a random moment, the worker, afl-fuzz
# or both are killed with SIGKILL and started again (--resume, -i -).
# After every kill: each file the worker saved earlier is still there with
# the same bytes, no half-written or stray file is in its queue/, crashes/
# or hangs/, its ids stay contiguous and nothing is expanded twice. At the
# end the worker went on saving and took inputs from AFL++ across the
# restarts. GB_KILL9_SEED=N replays one run's moments.
. "$(dirname "$0")/lib.sh"
command -v afl-fuzz >/dev/null || fail "afl-fuzz is not installed (scripts/build installs afl++)"
seed=${GB_KILL9_SEED:-$(( $(date +%s) % 32768 ))}
RANDOM=$seed
echo "kill9: GB_KILL9_SEED=$seed"
SYNC=$WORK/sync
D=$SYNC/glassbox
apid="" gpid=""
cleanup() {
  [ -z "$apid" ] || kill -9 "$apid" 2>/dev/null || true
  [ -z "$gpid" ] || kill -9 "$gpid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

start_afl() { # start_afl SEEDS ("-" resumes); a slow start on a loaded machine is not a failure
  AFL_FORKSRV_INIT_TMOUT=60000 AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_SYNC_TIME=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
    AFL_SKIP_CRASHES=1 afl-fuzz -M main -i "$1" -o "$SYNC" -- "$H/demo.cov" @@ >>"$WORK/afl.log" 2>&1 &
  apid=$!
}
start_worker() { # start_worker ARGS...
  "$BIN/glassbox" fuzz -q "$@" -o "$SYNC" -n glassbox -- "$H/demo.trace" "$H/demo.cov" \
    >>"$WORK/gb.log" 2>&1 &
  gpid=$!
}
snapshot() { (cd "$D" && find queue crashes hangs -type f -name 'id:*' -print0 2>/dev/null | sort -z | xargs -0 -r sha1sum | sort); }
check_layout() { # check_layout ROUND
  local ids stray
  ids=$(find "$D/queue" -maxdepth 1 -name 'id:*' -printf '%f\n' | cut -c4-9 | sort -n |
    awk '{ if ($1 != NR - 1) bad = 1 } END { print bad ? "gap" : "ok" }')
  [ "$ids" = ok ] || fail "round $1: queue ids are not contiguous from 0"
  stray=$(find "$D/queue" "$D/crashes" "$D/hangs" -maxdepth 1 -type f ! -name 'id:*' ! -name README.txt 2>/dev/null)
  [ -z "$stray" ] || fail "round $1: stray or half-written files where peers read: $stray"
  [ -z "$(twice_expanded "$D")" ] ||
    fail "round $1: an input was expanded twice: $(twice_expanded "$D" | head -3)"
}

start_afl "$SRC/harnesses/demo/seeds"
sleep 1
start_worker -i "$SRC/harnesses/demo/seeds"
for _ in $(seq 100); do [ -d "$D/queue" ] && [ "$(count_ids "$D/queue")" -gt 0 ] && break; sleep 0.1; done
before=$(snapshot)
kills_w=0 kills_a=0
for round in $(seq 20); do
  # a moment in [0.3, 2.3) s
  sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.3 + 2.0 * r / 32768 }')"
  victim=$((RANDOM % 3)) # 0 the worker, 1 afl-fuzz, 2 both
  if [ "$victim" -ne 1 ]; then kill -9 "$gpid" 2>/dev/null || true; wait "$gpid" 2>/dev/null || true; gpid=""; kills_w=$((kills_w + 1)); fi
  if [ "$victim" -ne 0 ]; then kill -9 "$apid" 2>/dev/null || true; wait "$apid" 2>/dev/null || true; apid=""; kills_a=$((kills_a + 1)); fi
  after=$(snapshot)
  lost=$(comm -23 <(echo "$before") <(echo "$after") | grep -c . || true)
  [ "$lost" -eq 0 ] || fail "round $round: $lost saved files lost or changed: $(comm -23 <(echo "$before") <(echo "$after") | head -3)"
  check_layout "$round"
  before=$after
  [ -n "$apid" ] || start_afl -
  [ -n "$gpid" ] || start_worker --resume
done
kill -9 "$gpid" "$apid" 2>/dev/null || true
wait 2>/dev/null || true
gpid="" apid=""
after=$(snapshot)
[ "$(comm -23 <(echo "$before") <(echo "$after") | grep -c . || true)" -eq 0 ] || fail "the last kill lost saved files"
check_layout end
# afl-fuzz restarts must not have failed for a reason of ours
grep -q "PROGRAM ABORT" "$WORK/afl.log" && { grep -A3 "PROGRAM ABORT" "$WORK/afl.log" | head -8 >&2; fail "afl-fuzz refused to start again"; }
# one clean resume to the end of a short budget, then the layout again
"$BIN/glassbox" fuzz -q --resume -V 3 -o "$SYNC" -n glassbox -- "$H/demo.trace" "$H/demo.cov" 2>>"$WORK/gb.log" ||
  { tail -5 "$WORK/gb.log" >&2; fail "a clean --resume after 20 kills failed"; }
check_layout final
n=$(count_ids "$D/queue")
imp=$(count_ids "$D/queue" 'sync:main')
[ "$n" -ge 10 ] || fail "the worker saved only $n inputs across 20 rounds"
[ "$imp" -ge 1 ] || fail "the worker took nothing from afl-fuzz across its restarts"
# A resuming afl-fuzz first renames its queue/ to _resume/ and copies it back
# as it loads; killed in between (the last round's restart is killed at
# once), its corpus is in _resume/, which its next resume reads.
afl_n=$(( $(count_ids "$SYNC/main/queue") + $(count_ids "$SYNC/main/_resume") ))
[ "$afl_n" -ge 1 ] || fail "afl-fuzz's corpus (queue/ and _resume/) is empty after its restarts"
# Nothing the killed fuzzers ran outlives them: a persistent-mode child
# stopped between inputs dies with its forkserver (tracer/rt/driver.c,
# die_with_parent); before, every kill left one, stopped, for good.
left=""
for _ in $(seq 50); do
  left=$(pgrep -f "$SYNC/" || true)
  [ -n "$left" ] || break
  sleep 0.1
done
[ -z "$left" ] || fail "processes of the killed fuzzers outlived them: $(ps -o pid=,stat=,args= -p "$(echo $left | tr ' ' ,)" | head -3)"
pass "20 kill -9 rounds ($kills_w of the worker, $kills_a of afl-fuzz): $n queue entries kept intact and contiguous, $imp from AFL++, none expanded twice"
