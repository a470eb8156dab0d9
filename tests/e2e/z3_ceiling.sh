#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Z3's memory ceiling (--z3-mem-max): a worker whose Z3 check goes over it
# exits with status 3 and one line, and loses nothing; its journal's last
# begin record names the input it was expanding, and --resume marks that
# input expanded (one note) and goes on without it; a campaign starts the
# worker again with --resume. A ceiling of 1 MiB is below what
# a fresh Z3 context holds, so the first check of an input goes over it
# (magiccrc: a CRC that only Z3 answers).
. "$(dirname "$0")/lib.sh"
OUT=$WORK/out
D=$OUT/glassbox
snapshot() { (cd "$1" && find queue crashes hangs -type f -name 'id:*' -print0 | sort -z | xargs -0 -r sha1sum | sort); }
contiguous() {
  find "$1/queue" -maxdepth 1 -name 'id:*' -printf '%f\n' | cut -c4-9 | sort -n |
    awk '{ if ($1 != NR - 1) bad = 1 } END { print bad ? "gap" : "ok" }'
}
T=("$H/magiccrc.trace" "$H/magiccrc.cov")
# died_in DIR: the id of the journal's begin record that neither a finished
# nor a stop record closed (docs/campaign.md), or nothing.
died_in() {
  awk '$1 == "Q" || $1 == "C" { open = $1 " " $2; next }
       $1 == "x" { open = ""; next }
       ($1 == "q" || $1 == "c") && toupper($1) " " $2 == open { open = "" }
       END { if (open != "") print substr(open, 3) }' "$1/.expanded"
}
# fuzz_over_ceiling ROUND ARGS...: one run that must end at the ceiling
# (or, when ROUND is "last", may also run out of inputs: status 0); prints
# the id it died in, if any.
fuzz_over_ceiling() {
  local round=$1 rc=0
  shift
  "$BIN/glassbox" fuzz -q --z3-mem-max 1 -V 60 "$@" -o "$OUT" -- "${T[@]}" 2>"$WORK/err.$round" || rc=$?
  [ "$rc" -eq 0 ] && [ "$round" = last ] && return 0
  [ "$rc" -eq 3 ] || fail "round $round: exit status $rc, want 3 (stderr: $(head -c 300 "$WORK/err.$round"))"
  [ "$(grep -vc 'was being expanded when the last session died' "$WORK/err.$round")" -eq 1 ] ||
    fail "round $round: not one line on stderr (a resume's note aside): $(head -c 400 "$WORK/err.$round")"
  grep -q '^glassbox fuzz: Z3 went over --z3-mem-max (1 MiB; it held [0-9]*) in a check, .* exiting with status 3$' \
    "$WORK/err.$round" || fail "round $round: no ceiling line: $(cat "$WORK/err.$round")"
  local id
  id=$(died_in "$D")
  [ -n "$id" ] || fail "round $round: the journal names no input it died in: $(tail -3 "$D/.expanded")"
  ! grep -qx "q $id" "$D/.expanded" || fail "round $round: input $id was journaled as finished"
  echo "$id"
}
first=$(fuzz_over_ceiling 1 -i "$SRC/harnesses/magiccrc/seeds")
before=$(snapshot "$D")
[ -n "$before" ] || fail "nothing saved before the ceiling"
# Had the resume expanded input $first again, its first check would have
# gone over the ceiling on it again.
second=$(fuzz_over_ceiling last --resume)
grep -q "^glassbox fuzz: note: --resume: input id $first was being expanded when the last session died" \
  "$WORK/err.last" || fail "the resume did not say it skips input $first: $(head -c 400 "$WORK/err.last")"
grep -qx "q $first" "$D/.expanded" || fail "the resume did not mark input $first expanded"
[ "$second" != "$first" ] || fail "--resume expanded input $first again after the ceiling"
[ "$(grep -c "^Q $first\$" "$D/.expanded")" -eq 1 ] || fail "--resume began input $first again"
after=$(snapshot "$D")
lost=$(comm -23 <(echo "$before") <(echo "$after") | wc -l)
[ "$lost" -eq 0 ] || fail "$lost saved files lost or changed at the ceiling"
# Without the ceiling (the default) a resume runs to the end of its budget.
"$BIN/glassbox" fuzz -q --resume -V 3 -o "$OUT" -- "${T[@]}" || fail "a --resume after the ceiling failed"
expect_eq "queue ids after the ceiling" "$(contiguous "$D")" ok
[ -z "$(twice_expanded "$D")" ] || fail "an input was journaled twice: $(twice_expanded "$D" | head -3)"
[ -z "$(find "$D/queue" -maxdepth 1 -type f ! -name 'id:*' ! -name README.txt)" ] || fail "stray files in queue/"

# A campaign starts its worker again, with --resume, and ends normally.
C=$WORK/camp
rc=0
"$BIN/glassbox" campaign --afl 0 --z3-mem-max 1 -V 20 -i "$SRC/harnesses/magiccrc/seeds" -o "$C" \
  -- "${T[@]}" >"$WORK/camp.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "the campaign exited $rc: $(tail -3 "$WORK/camp.out")"
LOG=$C/.logs/glassbox.log
grep -q "restart 1 of glassbox after Z3's memory ceiling" "$LOG" || fail "the worker was not restarted: $(tail -5 "$LOG")"
grep "running .* fuzz " "$LOG" | sed -n 2p | grep -q -- " --resume " || fail "the restarted worker was not given --resume"
marked=$(sed -n 's/.*--resume: input id \([0-9]*\) was being expanded when the last session died.*/\1/p' "$LOG")
[ -n "$marked" ] || fail "no restarted worker skipped the input its last session died in: $(tail -5 "$LOG")"
for id in $marked; do
  grep -qx "q $id" "$C/glassbox/.expanded" || fail "the campaign's journal lacks input $id"
done
[ "$(echo "$marked" | sort | uniq -d)" = "" ] || fail "the restarted worker went over the ceiling on the same input again"
[ -z "$(twice_expanded "$C/glassbox")" ] || fail "the campaign journaled an input twice"
expect_eq "the campaign's queue ids" "$(contiguous "$C/glassbox")" ok
pass "ceiling exits marked inputs $first and ${second:-none}, nothing lost; the campaign restarted its worker $(grep -c 'restart [0-9]* of glassbox' "$LOG") times"
