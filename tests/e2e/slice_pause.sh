#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A lent turn is no time spent (issue 36; generational/README.md, "An
# expansion is cut into slices"): the worker pauses for its --pause-file
# between two flips of an expansion, and that pause must count neither
# towards the expansion's time slice nor towards its time in
# expansions.tsv. The pause file is there from the start, so the first
# flip of the first expansion pauses (the first look for it comes after
# that flip); it goes after PAUSE seconds. factor.c's seeds take about a
# second each to expand (e2e.slice), far under the 5 s slice, while the
# pause alone is longer than the slice: had it counted, the first seed's
# expansion would be cut for the other one waiting.
. "$(dirname "$0")/lib.sh"
P=$BUILD/tests/e2e PAUSE=7
mkdir -p "$WORK/seeds"
head -c 192 /dev/zero | tr '\0' A >"$WORK/seeds/a"
head -c 192 /dev/zero | tr '\0' B >"$WORK/seeds/b"
: >"$WORK/pause"
"$BIN/glassbox" fuzz -q --solver-timeout 60 --slice-seconds 5 --status-every 200 -V 120 \
  --pause-file "$WORK/pause" -i "$WORK/seeds" -o "$WORK/o" -- "$P/factor.trace" "$P/factor.cov" \
  2>"$WORK/err" &
pid=$!
S=$WORK/o/glassbox/fuzzer_stats
for _ in $(seq 1 300); do
  [ "$(stat_of "$S" search_state 2>/dev/null)" = paused ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
[ "$(stat_of "$S" search_state 2>/dev/null)" = paused ] ||
  { kill "$pid" 2>/dev/null; fail "the worker never paused: $(tail -2 "$WORK/err")"; }
sleep "$PAUSE"
rm -f "$WORK/pause"
wait "$pid" || fail "fuzz exited $?: $(tail -2 "$WORK/err")"

expect_eq "pauses" "$(stat_of "$S" pauses)" 1
[ "$(stat_of "$S" paused_s)" -ge $((PAUSE - 1)) ] || fail "paused_s is $(stat_of "$S" paused_s)"
# the first expansion (the paused one) as "part flips ms"; later retry
# rounds, whose timeouts grow, may be sliced on their own
rows=$(awk -F'\t' 'NR>1 {print $3, $5, $9, $2}' "$WORK/o/glassbox/expansions.tsv" | tr '\n' ';')
read -r part flips ms < <(awk -F'\t' 'NR==2 {print $5, $9, $2}' "$WORK/o/glassbox/expansions.tsv")
expect_eq "the paused expansion: part and flips (not cut by the slice; rows: $rows)" \
  "$part $flips" "first 24"
[ "${ms:-0}" -gt 0 ] && [ "$ms" -lt $((PAUSE * 1000 - 1000)) ] ||
  fail "the paused expansion's ms ($ms) counts the pause: $rows"
pass "a ${PAUSE} s pause inside the first expansion: all 24 flips in one part (5 s slices), its ms $ms"
