#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Ctrl-C while Z3 is solving stops `glassbox fuzz` within a couple of
# seconds, exit status 0 and the final fuzzer_stats written. factor.c's
# 24 gates each cost one query that runs to its 1 s limit, so the search
# is in Z3 nearly all of its ~24 s. (Z3 used to install its own SIGINT
# handler around every check, which cancelled that query and swallowed
# the signal: the run went on to the end.)
. "$(dirname "$0")/lib.sh"
P=$BUILD/tests/e2e
mkdir -p "$WORK/seeds"
head -c 192 /dev/zero | tr '\0' A >"$WORK/seeds/a"
S=$WORK/out/glassbox/fuzzer_stats
now_ms() { echo $(($(date +%s%N) / 1000000)); }

"$BIN/glassbox" fuzz -q --solver-timeout 1000 -V 300 -i "$WORK/seeds" -o "$WORK/out" -- \
  "$P/factor.trace" "$P/factor.cov" 2>"$WORK/err" &
pid=$!
trap '[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null; rm -rf "$WORK"' EXIT

# Solving: a gate's query has timed out (fuzzer_stats is rewritten after a
# flip, every 2 s), so the next gate's is under way; 0.3 s into it, Ctrl-C.
for _ in $(seq 600); do
  kill -0 "$pid" 2>/dev/null || fail "the run ended before it was interrupted: $(cat "$WORK/err")"
  [ -s "$S" ] && [ "$(stat_of "$S" queries_z3_timeout)" -ge 1 ] && break
  sleep 0.1
done
if ! { [ -s "$S" ] && [ "$(stat_of "$S" queries_z3_timeout)" -ge 1 ]; }; then
  fail "no query timed out in 60 s"
fi
sleep 0.3
t0=$(now_ms)
kill -INT "$pid"

# At most one query's limit (1 s) plus the final report; the slack is for a
# loaded machine. Without the fix the run goes on for ~20 s more.
while kill -0 "$pid" 2>/dev/null && [ $(($(now_ms) - t0)) -lt 5000 ]; do sleep 0.05; done
if kill -0 "$pid" 2>/dev/null; then
  kill -KILL "$pid"
  fail "glassbox fuzz still running 5 s after SIGINT (Z3 swallowed it?)"
fi
dt=$(($(now_ms) - t0))
set +e
wait "$pid"
rc=$?
set -e
pid=
expect_eq "exit status after SIGINT" "$rc" 0
[ "$(stat_of "$S" last_update)" -ge $((t0 / 1000)) ] || fail "fuzzer_stats not written after SIGINT"
z3=$(stat_of "$S" queries_z3)
[ "$z3" -lt 24 ] || fail "the search ran to its end ($z3 queries), it was not stopped"
pass "SIGINT during solving: exit 0 after $dt ms, final fuzzer_stats written" \
  "($z3 of 24 gate queries made)"
