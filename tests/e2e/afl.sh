#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A --mode=cov build is a valid target for the real afl-fuzz: it starts,
# runs the seed through the forkserver and sees coverage.
. "$(dirname "$0")/lib.sh"
command -v afl-fuzz >/dev/null || fail "afl-fuzz is not installed (scripts/build installs afl++)"
mkdir -p "$WORK/in" && cp "$SRC"/harnesses/demo/seeds/* "$WORK/in/"
AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
  AFL_BENCH_UNTIL_CRASH=0 timeout 60 afl-fuzz -i "$WORK/in" -o "$WORK/out" -V 5 -- \
  "$H/demo.cov" @@ >"$WORK/afl.log" 2>&1 || { tail -20 "$WORK/afl.log" >&2; fail "afl-fuzz failed"; }
S=$WORK/out/default/fuzzer_stats
[ -f "$S" ] || fail "afl-fuzz wrote no fuzzer_stats"
execs=$(stat_of "$S" execs_done)
edges=$(stat_of "$S" edges_found)
[ "$execs" -gt 100 ] || fail "afl-fuzz ran only $execs execs"
[ "$edges" -gt 10 ] || fail "afl-fuzz saw only $edges edges in the cov build's map"
pass "afl-fuzz on demo.cov: $execs execs, $edges edges in 5 s"
