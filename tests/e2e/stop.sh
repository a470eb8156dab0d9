#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A stop does not wait for Z3 (issue 34): with --solver-timeout 20000,
# `glassbox fuzz` on factor.c (each gate's flip is factoring, which Z3
# cannot finish in seconds) gets SIGINT or SIGTERM (MODE int, term) while
# Z3 checks the first gate's query, or runs with -V 5 (MODE time), and
# ends within a few seconds, status 0, its fuzzer_stats written and its
# queue intact. Before, the check ran on to its limit: 15-20 s more.
. "$(dirname "$0")/lib.sh"
MODE=${3:?MODE: int, term or time}
P=$BUILD/tests/e2e
mkdir -p "$WORK/seeds"
head -c 192 /dev/zero | tr '\0' A >"$WORK/seeds/a"
O=$WORK/out/glassbox
S=$O/fuzzer_stats
now_ms() { echo $(($(date +%s%N) / 1000000)); }

V=300
[ "$MODE" != time ] || V=5
start=$(now_ms)
"$BIN/glassbox" fuzz -q --solver-timeout 20000 -V "$V" -i "$WORK/seeds" -o "$WORK/out" -- \
  "$P/factor.trace" "$P/factor.cov" 2>"$WORK/err" &
pid=$!
trap '[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null; rm -rf "$WORK"' EXIT

if [ "$MODE" = time ]; then
  t0=$((start + V * 1000)) # the stop is -V's end
  limit=$((V * 1000 + 4000))
else
  # The seed is run and traced in well under a second once fuzzer_stats
  # exists; 3 s later the first gate's 20 s query is in Z3.
  for _ in $(seq 600); do
    kill -0 "$pid" 2>/dev/null || fail "the run ended before it was stopped: $(cat "$WORK/err")"
    [ -s "$S" ] && break
    sleep 0.1
  done
  [ -s "$S" ] || fail "no fuzzer_stats in 60 s"
  sleep 3
  t0=$(now_ms)
  kill -"${MODE^^}" "$pid"
  limit=4000
fi

# The check in progress is interrupted within milliseconds; the rest is
# the final report and a loaded machine's slack.
while kill -0 "$pid" 2>/dev/null && [ $(($(now_ms) - t0)) -lt "$limit" ]; do sleep 0.05; done
if kill -0 "$pid" 2>/dev/null; then
  kill -KILL "$pid"
  fail "glassbox fuzz still running $((limit / 1000)) s after the stop ($MODE): it waited for Z3"
fi
dt=$(($(now_ms) - t0))
set +e
wait "$pid"
rc=$?
set -e
pid=
expect_eq "exit status after the stop ($MODE)" "$rc" 0
[ "$(stat_of "$S" last_update)" -ge $((t0 / 1000 - 1)) ] || fail "fuzzer_stats not written at the stop"
z3=$(stat_of "$S" queries_z3)
[ "$z3" -ge 1 ] || fail "no Z3 query was under way at the stop (queries_z3 $z3)"
[ "$(count_ids "$O/queue")" -ge 1 ] || fail "queue/ is empty after the stop"
for f in "$O"/queue/id:*; do
  cmp -s "$f" "$WORK/seeds/a" || [ "$(stat -c %s "$f")" -gt 0 ] || fail "queue file $f is empty"
done
pass "stop ($MODE) while Z3 solved a 20 s query: exit 0 after $dt ms," \
  "fuzzer_stats written, $(count_ids "$O/queue") input(s) in queue/"
