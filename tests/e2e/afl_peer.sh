#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Glassbox as an AFL++ peer on a harness where AFL++ alone stalls (a 4-byte
# magic and a CRC): in one sync dir, real afl-fuzz -M and glassbox reach
# the crash, AFL++ imports Glassbox's finds (sync:glassbox entries in its
# queue) and Glassbox imports AFL++'s (sync:main in its queue). AFL++ alone
# runs beside them for the same time and must not find it.
. "$(dirname "$0")/lib.sh"
budget=${GB_PEER_BUDGET:-40}
seeds=$SRC/harnesses/magiccrc/seeds
afl() { # afl OUTDIR
  AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_SYNC_TIME=1 \
    AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 timeout $((budget + 30)) \
    afl-fuzz -M main -i "$seeds" -o "$1" -V "$budget" -- "$H/magiccrc.cov" @@ >"$1.log" 2>&1
}
afl "$WORK/alone" &
alone=$!
afl "$WORK/sync" &
main=$!
sleep 1
"$BIN/glassbox" fuzz -q -i "$seeds" -o "$WORK/sync" -n glassbox -V "$budget" -- \
  "$H/magiccrc.trace" "$H/magiccrc.cov"
wait "$main" || { tail -5 "$WORK/sync.log" >&2; fail "afl-fuzz -M (with glassbox) failed"; }
wait "$alone" || { tail -5 "$WORK/alone.log" >&2; fail "afl-fuzz -M (alone) failed"; }

n_alone=$(count_ids "$WORK/alone/main/crashes")
n_gb=$(( $(count_ids "$WORK/sync/glassbox/crashes") + $(count_ids "$WORK/sync/main/crashes") ))
[ "$n_alone" -eq 0 ] || fail "AFL++ alone found the crash: the harness does not need Glassbox"
[ "$n_gb" -ge 1 ] || fail "AFL++ plus Glassbox found no crash in ${budget} s"
replay_crashes "$WORK/sync/glassbox/crashes" "$H/magiccrc.cov"
n_sync=$(count_ids "$WORK/sync/main/queue" 'sync:glassbox')
[ "$n_sync" -ge 1 ] || fail "afl-fuzz -M imported nothing from glassbox"
n_imp=$(count_ids "$WORK/sync/glassbox/queue" 'sync:main')
[ "$n_imp" -ge 1 ] || fail "glassbox imported nothing from afl-fuzz"
pass "AFL++ alone: 0 crashes in ${budget} s; AFL++ + Glassbox: $n_gb crash(es), AFL++ took $n_sync of Glassbox's inputs, Glassbox took $n_imp of AFL++'s"
