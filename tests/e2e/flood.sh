#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Inputs that score alike, one worth expanding (generational/README.md,
# "Inputs that score alike"): progs/flood.c's 24 handlers, 47 seeds that
# take both sides of every handler's compare but one, whose untaken side
# aborts. Ordered by the uncovered directions beside each input's path
# (and recounted as coverage grows), that input is expanded second, right
# after the seed that covered the most; in arrival order it was the 24th.
# Traces are counted, not time, so the machine's load does not matter.
# GB_FLOOD_GLASSBOX may name another glassbox binary to compare.
. "$(dirname "$0")/lib.sh"
P=$BUILD/tests/e2e
G=${GB_FLOOD_GLASSBOX:-$BIN/glassbox}
S=$WORK/seeds
mkdir -p "$S"
chr() { printf "\\x$(printf %x "$1")"; }
# s00 first (it covers the most), then the aborting handler's seed, older
# than every other handler's, so that arrival order takes it last
printf 'Aazz' >"$S/s00"
printf 'Hzzz' >"$S/s01"
i=2
for k in $(seq 1 23); do
  [ "$k" = 7 ] && continue
  printf '%s%szz' "$(chr $((65 + k)))" "$(chr $((97 + k)))" >"$S/s$(printf %02d $i)"
  printf '%szzz' "$(chr $((65 + k)))" >"$S/s$(printf %02d $((i + 1)))"
  i=$((i + 2))
done
printf 'Azzz' >"$S/s$i"
printf 'zz' >"$S/s99" # the switch's default
rc=0
"$G" fuzz -q --exit-on-crash -V 120 -i "$S" -o "$WORK/out" -- "$P/flood.trace" "$P/flood.cov" \
  2>"$WORK/err" || rc=$?
F=$WORK/out/glassbox/fuzzer_stats
[ "$rc" = 77 ] || fail "no crash (exit $rc): $(tail -2 "$WORK/err")"
traces=$(stat_of "$F" traces_done)
[ "$traces" -le 4 ] ||
  fail "the crash took $traces traces ($(stat_of "$F" inputs_expanded) inputs expanded), want at most 4: inputs that score alike were taken in arrival order"
replay_crashes "$WORK/out/glassbox/crashes" "$P/flood.cov"
pass "flood: crash after $traces traces, $(stat_of "$F" inputs_expanded) inputs expanded (arrival order: 24 expansions)"
