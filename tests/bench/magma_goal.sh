#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.magma_goal (issue 36): bench/magma/goal.sh on results dirs made
# here, AFL++ alone's reps and AFL++ + Glassbox's in different dirs:
# line 1 holding, missed and level on the median, line 2 counted as a
# share of each one's runs, a hostile bug name escaped, a configuration
# short of its reps marked provisional, a record's machines judged apart,
# and a run given twice, a dir of another form or a bad machine column
# refused with one line.
set -euo pipefail
SRC=$(cd "$1" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-magma-goal.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL bench.magma_goal: $*" >&2; exit 1; }
G=$SRC/bench/magma/goal.sh
hdr() { printf 'target\tconfig\trep\tseconds\tbug\treached\ttriggered\tfirst_trigger_s\tcommit\n'; }
# row CONFIG REP BUG TIME_OR_-
row() {
  if [ "$4" = - ]; then printf 't\t%s\t%s\t3600\t%s\tyes\tno\tNA\tc0ffee\n' "$1" "$2" "$3"
  else printf 't\t%s\t%s\t3600\t%s\tyes\tyes\t%s\tc0ffee\n' "$1" "$2" "$3" "$4"; fi
}
# Per bug, three reps each: afl's times, then afl+glassbox's.
#   B1  100 90 110 | 50 60 40      holds (50 <= 100)
#   B2  500 400 - | 600 700 650    missed (650 > 500), more (3/3)
#   B3  200 200 200 | 200 200 200  holds (level)
#   B|4 - - - | 30 - -             more (1/3 against 0/3)
#   B5  - 80 - | 70 90 -           more (2/3 against 1/3)
#   B6  - - - | - - -              left out (no run triggered it)
mkdir "$W/a" "$W/g"
{
  hdr
  for r in 1 2 3; do
    row afl "$r" B1 "$(echo 100 90 110 | cut -d' ' -f"$r")"
    row afl "$r" B2 "$(echo 500 400 - | cut -d' ' -f"$r")"
    row afl "$r" B3 200
    row afl "$r" 'B|4' -
    row afl "$r" B5 "$(echo - 80 - | cut -d' ' -f"$r")"
    row afl "$r" B6 -
  done
} >"$W/a/bugs.tsv"
{
  hdr
  for r in 1 2 3; do
    row afl+glassbox "$r" B1 "$(echo 50 60 40 | cut -d' ' -f"$r")"
    row afl+glassbox "$r" B2 "$(echo 600 700 650 | cut -d' ' -f"$r")"
    row afl+glassbox "$r" B3 200
    row afl+glassbox "$r" 'B|4' "$(echo 30 - - | cut -d' ' -f"$r")"
    row afl+glassbox "$r" B5 "$(echo 70 90 - | cut -d' ' -f"$r")"
    row afl+glassbox "$r" B6 -
  done
} >"$W/g/bugs.tsv"
"$G" "$W/a" "$W/g" >"$W/out.md" || fail "goal.sh failed"
want() { grep -qF -- "$1" "$W/out.md" || fail "$2: no line '$1' in:
$(cat "$W/out.md")"; }
want '| B1 | 3/3 | 100.0 | 3/3 | 50.0 | holds |  |' "B1"
want '| B2 | 2/3 | 500.0 | 3/3 | 650.0 | missed | more |' "B2"
want '| B3 | 3/3 | 200.0 | 3/3 | 200.0 | holds |  |' "B3 (level medians)"
want '| B\|4 | 0/3 | - | 1/3 | 3600.0 |  | more |' "B|4 (escaped)"
want '| B5 | 1/3 | 3600.0 | 2/3 | 90.0 |  | more |' "B5"
want 'Line 1 (every bug afl triggers in 2 or more runs, no later): missed on B2' "line 1"
want 'Line 2 (two bugs or more triggered in more runs): holds (3: B2, B5, B\|4)' "line 2"
grep -q 'B6' "$W/out.md" && fail "B6, which no run triggered, is listed"
grep -q Provisional "$W/out.md" && fail "three reps of each marked provisional"
# AFL++ alone with two reps: B1 at 2/2 against 3/3 is no more, as a share.
head -13 "$W/a/bugs.tsv" >"$W/a2.tsv" && mkdir "$W/a2" && mv "$W/a2.tsv" "$W/a2/bugs.tsv"
"$G" "$W/a2" "$W/g" >"$W/out2.md" || fail "goal.sh on two reps failed"
grep -qF '| B1 | 2/2 | 95.0 | 3/3 | 50.0 | holds |  |' "$W/out2.md" || fail "B1 with two afl reps: $(grep 'B1' "$W/out2.md")"
grep -qF 'Provisional: t afl: 2 of 3 runs.' "$W/out2.md" || fail "two reps not provisional: $(tail -1 "$W/out2.md")"
# A record with a machine column: judged per machine, never pooled. On
# machine m1 the afl rows above, on m2 the same runs 1000 s later for
# afl+glassbox only; pooled, B1 would hold (50 <= 100), on m2 alone it
# has no afl runs.
mkdir "$W/rec"
{
  hdr | sed 's/$/\tmachine/'
  tail -n +2 "$W/a/bugs.tsv" | sed 's/$/\tm1/'
  tail -n +2 "$W/g/bugs.tsv" | sed 's/$/\tm1/'
  tail -n +2 "$W/g/bugs.tsv" | awk -F'\t' -v OFS='\t' '$8 != "NA" { $8 += 1000 } { print $0, "m|2" }'
} >"$W/rec/bugs.tsv"
"$G" "$W/rec" >"$W/out3.md" || fail "goal.sh on a record of two machines failed"
[ "$(grep -c '^### Machine ' "$W/out3.md")" = 2 ] || fail "not one section per machine: $(grep '^###' "$W/out3.md")"
grep -qF '### Machine m\|2' "$W/out3.md" || fail "machine tag not escaped: $(grep '^###' "$W/out3.md")"
# m1's section is the two dirs' verdict; m2's has no afl runs.
sed -n '/^### Machine m1/,/^### Machine m/p' "$W/out3.md" >"$W/m1.md"
diff <(grep -E '^(\||Line)' "$W/out.md") <(grep -E '^(\||Line)' "$W/m1.md") >/dev/null || fail "machine m1 differs from the same runs as dirs:
$(cat "$W/m1.md")"
"$G" --machine 'm|2' "$W/rec" >"$W/out4.md" || fail "goal.sh --machine failed"
grep -qF '| B1 | - | - | 3/3 | 1050.0 |  |  |' "$W/out4.md" || fail "--machine m|2: $(grep 'B1' "$W/out4.md")"
grep -q '^### Machine' "$W/out4.md" && fail "--machine printed a section per machine"
grep -qF 'Provisional: t afl: 0 of 3 runs.' "$W/out4.md" || fail "m|2 without afl not provisional: $(tail -1 "$W/out4.md")"
# Refusals: one line and a non-zero exit.
# refused WHY ARG...
refused() {
  local why=$1 msg
  shift
  if msg=$("$G" "$@" 2>&1); then fail "accepted: $*"; fi
  [ "$(wc -l <<<"$msg")" = 1 ] && grep -qF -- "$why" <<<"$msg" || fail "refusal of $*: '$msg'"
}
refused 'a run is given twice' "$W/a" "$W/a"
mkdir "$W/bad" && printf 'a\tb\n' >"$W/bad/bugs.tsv"
refused "not run.sh's header" "$W/bad"
refused '--reps needs a positive count' --reps 0 "$W/a"
refused 'no such file' "$W/none"
refused "no rows for machine 'm3'" --machine m3 "$W/rec"
refused '--machine needs a tag' --machine '' "$W/rec"
refused 'rows with a machine column and rows without' "$W/rec" "$W/a"
mkdir "$W/mixed" && { cat "$W/rec/bugs.tsv"; tail -1 "$W/a/bugs.tsv"; } >"$W/mixed/bugs.tsv"
refused 'some rows have a machine column and some do not' "$W/mixed"
mkdir "$W/ctl" && { head -2 "$W/rec/bugs.tsv"; tail -1 "$W/a/bugs.tsv" | sed 's/$/\tm\x1b[31m/'; } >"$W/ctl/bugs.tsv"
refused 'holds a control character' "$W/ctl"
echo "PASS bench.magma_goal: both lines, shares of runs, escaping, provisional, per machine, refusals"
