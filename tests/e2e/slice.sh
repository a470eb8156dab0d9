#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Time slices (issue 36; generational/README.md, "An expansion is cut into
# slices"): an expansion that has run --slice-seconds stops when any other
# input waits, that input is expanded, and the first goes on later with
# the flips it had left. factor.c's 24 gates are factoring problems that
# time out (--solver-timeout 60) and make no child, so expanding a seed
# takes over a second and only the time slice can cut it. With a 1 s
# slice the other seed's first expansion must come second and the first
# seed's expansion must go on in a resumed part; with slices off (0) no
# part is resumed. Both runs must flip each seed as often (first
# expansions, resumed parts and retry rounds together): a slice loses no
# flip.
. "$(dirname "$0")/lib.sh"
P=$BUILD/tests/e2e
mkdir -p "$WORK/seeds"
head -c 192 /dev/zero | tr '\0' A >"$WORK/seeds/a"
head -c 192 /dev/zero | tr '\0' B >"$WORK/seeds/b"

# the expansions.tsv rows of one run as "input part flips"
rows() { awk -F'\t' 'NR>1 {print $3, $5, $9}' "$WORK/$1/glassbox/expansions.tsv"; }
flips_of() { rows "$1" | awk -v q="$2" '$1==q {f+=$3} END {print f+0}'; }
shown() { rows "$1" | tr '\n' ';'; }

for s in 1 0; do
  "$BIN/glassbox" fuzz -q --solver-timeout 60 --slice-seconds "$s" -V 200 -i "$WORK/seeds" \
    -o "$WORK/s$s" -- "$P/factor.trace" "$P/factor.cov" 2>"$WORK/s$s.err" ||
    fail "--slice-seconds $s: fuzz exited $?: $(tail -2 "$WORK/s$s.err")"
  expect_eq "--slice-seconds $s: rows of seeds 0 and 1 only" \
    "$(rows "s$s" | awk '$1!=0 && $1!=1' | wc -l)" 0
done

S1=$WORK/s1/glassbox/fuzzer_stats S0=$WORK/s0/glassbox/fuzzer_stats
sliced=$(stat_of "$S1" expansions_sliced)
[ "${sliced:-0}" -ge 1 ] || fail "1 s slices: expansions_sliced is '$sliced': $(shown s1)"
read -r a0 p0 f0 a1 p1 _ < <(rows s1 | head -2 | tr '\n' ' '; echo)
[ "$p0 $p1" = "first first" ] && [ "$a0" != "$a1" ] && [ "$f0" -lt 24 ] ||
  fail "1 s slices: the first seed's expansion was not cut for the other seed: $(shown s1)"
rows s1 | awk -v q="$a0" '$1==q && $2=="resumed"' | grep -q . ||
  fail "1 s slices: seed $a0 was not resumed: $(shown s1)"
expect_eq "slices off: expansions_sliced" "$(stat_of "$S0" expansions_sliced)" 0
expect_eq "slices off: resumed parts" "$(rows s0 | awk '$2=="resumed"' | wc -l)" 0
for q in 0 1; do
  n0=$(flips_of s0 "$q") n1=$(flips_of s1 "$q")
  [ "$n0" -ge 24 ] || fail "slices off: seed $q had $n0 flips, want at least 24: $(shown s0)"
  expect_eq "seed $q: flips with 1 s slices against slices off" "$n1" "$n0"
done
pass "1 s slices: $sliced cut, seed $a0 cut after $f0 of 24 flips and resumed; off: none; same flips per seed ($(flips_of s0 0), $(flips_of s0 1))"
