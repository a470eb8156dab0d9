#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Progress that covers no new block (generational/README.md, "Progress
# without new blocks"): a loop whose trip count is the input (runloop.c),
# six checksummed records of one kind in a row (records.c), a count field
# (counted.c), five CONT records after HDRS (bench/gates/repeat_record.c),
# and the demo from its 44-byte H + T + E seed (chunks
# turned and grown in place, CRCs repaired over the new lengths). Each crash
# is reached through steps that cover no new block, and must be found
# within a fixed number of runs of the cov build (-E), so the test does
# not depend on how loaded the machine is. GB_PROGRESS_GLASSBOX may name
# another glassbox binary to compare (an older one fails).
. "$(dirname "$0")/lib.sh"
P=$BUILD/tests/e2e
G=${GB_PROGRESS_GLASSBOX:-$BIN/glassbox}

# found NAME SEED_HEX MAX_RUNS [DIR]: the crash of DIR/NAME.{trace,cov}
# (default: this suite's programs) within MAX_RUNS runs.
found() {
  local name=$1 seed=$2 max=$3 dir=${4:-$P} rc=0
  mkdir -p "$WORK/$name.seeds"
  printf '%b' "$seed" >"$WORK/$name.seeds/seed"
  "$G" fuzz -q --exit-on-crash -E "$max" -V 240 -i "$WORK/$name.seeds" -o "$WORK/$name" \
    -- "$dir/$name.trace" "$dir/$name.cov" 2>"$WORK/$name.err" || rc=$?
  local S=$WORK/$name/glassbox/fuzzer_stats
  [ "$rc" = 77 ] ||
    fail "$name: no crash in $(stat_of "$S" execs_done) runs (exit $rc; $(stat_of "$S" traces_progress) traces with progress, $(stat_of "$S" flips_backoff) flips backed off, $(stat_of "$S" retry_rounds) retry rounds): $(tail -2 "$WORK/$name.err")"
  replay_crashes "$WORK/$name/glassbox/crashes" "$dir/$name.cov"
  pass "$name: crash after $(stat_of "$S" execs_done) runs (at most $max), $(stat_of "$S" traces_done) traces"
}

found runloop 'A' 400
found records 'R\x02hi\x2b' 600
found counted 'N\x01\x00\x05' 400
# bench/gates/repeat_record.c from its seed (HDRS, one CONT, five BODY):
# each further CONT takes the same compare's "equal" direction once more
# (a child predicted to take a direction more often than any trace did
# ranks first). Without that: no crash in 1,287 runs.
body='BODY\x0dchunk of body'
found repeat_record "HDRS\x0b:method GETCONT\x07:path /$body$body$body$body${body}END \x00" 300
found demo "$(od -An -v -tx1 "$SRC/harnesses/demo/examples/seed-hte.gbox" | tr -d ' \n' | sed 's/../\\x&/g')" 3000 "$H"

# A table walk (codecs.c, libtiff's codec lookup): one compare site asks
# for an equality with each entry's constant in turn, and most entries
# lead where the first one did. Each constant's first ask passes the
# site's back-off, so the crash behind the 14th entry comes in the first
# expansion, not in a retry round when the worklist runs dry (which beside
# AFL++ it never does). Without that: found only in retry round 1, after
# 44 runs.
found codecs '\x88\x77\x99\x66abcdef' 100
S=$WORK/codecs/glassbox/fuzzer_stats
expect_eq "codecs: retry rounds before the crash" "$(stat_of "$S" retry_rounds)" 0
[ "$(stat_of "$S" flips_new_const)" -ge 1 ] 2>/dev/null ||
  fail "codecs: no flip past the back-off (flips_new_const '$(stat_of "$S" flips_new_const)')"
pass "codecs: the crash behind a backed-off table walk's 14th entry in the first expansion ($(stat_of "$S" execs_done) runs)"

# Flips the solver could not decide in time are asked again when the
# worklist runs dry, with twice the time per round (generational/README.md,
# "When the worklist runs dry"). factor.c's 24 gates are factoring
# problems, which no query decides in 5 to 40 ms: each is asked in the
# first expansion and in GB_RETRY_PATIENCE_MAX retry rounds, each time at
# a new limit, so Z3 times out on each once per round (a repeat at the same
# limit would be answered from the cache). Before, the search ended after
# the first expansion: 24 timeouts, no retry round.
CONFIG=$SRC/base/gb_config.h
rounds=$(sed -n 's/^#define GB_RETRY_PATIENCE_MAX \([0-9]*\)$/\1/p' "$CONFIG")
[ -n "$rounds" ] || fail "no GB_RETRY_PATIENCE_MAX in $CONFIG"
mkdir -p "$WORK/factor.seeds"
head -c 192 /dev/zero | tr '\0' A >"$WORK/factor.seeds/a"
"$G" fuzz -q --solver-timeout 5 -V 120 -i "$WORK/factor.seeds" -o "$WORK/factor" \
  -- "$P/factor.trace" "$P/factor.cov" 2>"$WORK/factor.err" || fail "factor: fuzz exited $?"
S=$WORK/factor/glassbox/fuzzer_stats
expect_eq "factor: retry rounds" "$(stat_of "$S" retry_rounds)" "$rounds"
expect_eq "factor: flips timed out" "$(stat_of "$S" flips_timed_out)" "$((24 * (rounds + 1)))"
expect_eq "factor: Z3 timeouts" "$(stat_of "$S" queries_z3_timeout)" "$((24 * (rounds + 1)))"
expect_eq "factor: search state" "$(stat_of "$S" search_state)" done
pass "factor: 24 undecided flips asked again in $rounds retry rounds, each at a longer limit"

# When coverage is flat, a retry round comes before the worklist runs dry
# (generational/README.md, "When coverage is flat"): stall.c's blanks and
# zeros make children of every input, each one more step of a loop, while
# its factoring gate times out in every expansion. Within 20 s at least
# one round is held for flat coverage, and inputs still wait at the end.
# Without it: no round (the worklist never runs dry).
mkdir -p "$WORK/stall.seeds"
printf '  0012345678' >"$WORK/stall.seeds/a"
"$G" fuzz -q --solver-timeout 5 -V 20 -i "$WORK/stall.seeds" -o "$WORK/stall" \
  -- "$P/stall.trace" "$P/stall.cov" 2>"$WORK/stall.err" || fail "stall: fuzz exited $?"
S=$WORK/stall/glassbox/fuzzer_stats
flat=$(stat_of "$S" retry_rounds_flat)
waiting=$(stat_of "$S" pending_total)
[ "$flat" -ge 1 ] 2>/dev/null ||
  fail "stall: no retry round for flat coverage in 20 s (retry_rounds_flat '$flat', retry_rounds $(stat_of "$S" retry_rounds), $waiting waiting)"
[ "$waiting" -gt 0 ] 2>/dev/null || fail "stall: the worklist ran dry ($waiting waiting)"
# The factoring flip timed out in the first two expansions: from then on a
# first expansion does not ask it (it waits for a retry round), so the
# cheap flips (one more blank) are not held up by it (issue 37). Without
# that, every expansion asks it and flips_deferred stays 0.
deferred=$(stat_of "$S" flips_deferred)
[ "$deferred" -ge 1 ] 2>/dev/null ||
  fail "stall: the flip that timed out twice was asked again at once (flips_deferred '$deferred', flips_timed_out $(stat_of "$S" flips_timed_out))"
pass "stall: $flat retry rounds for flat coverage with $waiting inputs waiting, $deferred hard flips deferred"
