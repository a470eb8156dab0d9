#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/reach: time to verdict of glassbox reach on 25 targets written for
# the project (progs/: magic gates, loops, checksums and length fields,
# contradictory checks across functions, gates among diamonds), against
# plain glassbox fuzz and libFuzzer (-use_value_profile=1) reaching the
# same line, for which the line traps (-DTRAP_AT=n). One target at a time,
# each tool alone, the three tools one after the other for each
# repetition.
#   bench/reach/run.sh BUILD_DIR [SECONDS] [OUT_DIR] [PROGRAMS] [REPS]
# Prints a table: program, target, ground truth, reach's verdict (every
# repetition's, when they differ), the median seconds to it (reach.json's
# time_ms: the search alone) and of the whole command (start-up included,
# as for the others), and the median seconds plain fuzz and libFuzzer took
# to trap there ("-" when not within SECONDS; a median among those is
# "-" too). Then one line per goal of issue 14, from the medians. Nothing is
# written to RESULTS.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
secs=${2:-30}
out=${3:-$(mktemp -d "${TMPDIR:-/tmp}/gb-reach-bench.XXXXXX")}
programs=${4:-magic loops checksum unreach diamonds}
reps=${5:-1}
case $reps in '' | *[!0-9]* | 0) echo "run.sh: REPS must be a positive number" >&2; exit 2 ;; esac
bin=$build/bin
mkdir -p "$out/seeds"
printf 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' >"$out/seeds/a"

# Ground truth: R reachable, U unreachable, per program, targets 1..5.
declare -A truth=([magic]=RRRRR [loops]=RRRRR [checksum]=RRRRU [unreach]=UUUUU [diamonds]=RRRRR)

now() { date +%s%N; }
secs_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
# median of the words given; "-" (not within SECONDS) sorts last
median() {
  printf '%s\n' "$@" | sed 's/^-$/1e18/' | sort -g | awk '{ v[NR] = $1 }
    END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          if (m >= 1e18) print "-"; else printf "%.2f\n", m }'
}

rows=$out/rows.tsv
: >"$rows"
printf 'program\ttarget\ttruth\treach\treach_s\treach_wall_s\tfuzz_s\tlibfuzzer_s\n'
for p in $programs; do
  src=$here/progs/$p.c
  "$bin/glassbox-cc" --mode=trace -O2 -g "$src" -o "$out/$p.trace"
  "$bin/glassbox-cc" --mode=cov -O2 -g "$src" -o "$out/$p.cov"
  for n in 1 2 3 4 5; do
    line=$(grep -n "TARGET($n);" "$src" | cut -d: -f1)
    t=$(cut -c"$n" <<<"${truth[$p]}")
    "$bin/glassbox-cc" --mode=trace -O2 -g -DTRAP_AT=$n "$src" -o "$out/$p-$n.trace"
    "$bin/glassbox-cc" --mode=cov -O2 -g -DTRAP_AT=$n "$src" -o "$out/$p-$n.cov"
    clang-14 -O2 -g -fsanitize=fuzzer -DTRAP_AT=$n "$src" -o "$out/$p-$n.lf"
    vs=() rss=() wss=() fss=() lss=()
    for r in $(seq "$reps"); do
      # glassbox reach
      o=$out/$p-$n.reach
      rm -rf "$o"
      t0=$(now)
      set +e
      "$bin/glassbox" reach -q --target "$p.c:$line" -V "$secs" -i "$out/seeds" -o "$o" -- \
        "$out/$p.trace" "$out/$p.cov" >"$o.line" 2>"$o.err"
      set -e
      wss+=("$(secs_since "$t0")")
      v=$(sed -n 's/^ *"verdict": *"\([^"]*\)".*/\1/p' "$o/reach.json" 2>/dev/null | head -1 || true)
      ms=$(sed -n 's/^ *"time_ms": *\([0-9]*\).*/\1/p' "$o/reach.json" 2>/dev/null | head -1 || true)
      grep -q ': no-block:' "$o.line" && v=no-block
      vs+=("${v:-none}")
      rss+=("$(awk -v m="${ms:-0}" 'BEGIN { printf "%.2f", m / 1000 }')")
      # plain glassbox fuzz on the trapping build
      rm -rf "$out/$p-$n.fuzz"
      t0=$(now)
      set +e
      "$bin/glassbox" fuzz -q --exit-on-crash -V "$secs" -i "$out/seeds" -o "$out/$p-$n.fuzz" -- \
        "$out/$p-$n.trace" "$out/$p-$n.cov" >/dev/null 2>&1
      st=$?
      set -e
      fs=-
      [ "$st" = 77 ] && fs=$(secs_since "$t0")
      fss+=("$fs")
      # libFuzzer, value profile on (a new seed each repetition)
      rm -rf "$out/$p-$n.corpus" && cp -r "$out/seeds" "$out/$p-$n.corpus"
      t0=$(now)
      set +e
      (cd "$out" && "$out/$p-$n.lf" -use_value_profile=1 -max_total_time="$secs" -seed="$r" \
        "$out/$p-$n.corpus" >"$out/$p-$n.lf.log" 2>&1)
      st=$?
      set -e
      ls=-
      [ "$st" != 0 ] && grep -q 'deadly signal' "$out/$p-$n.lf.log" && ls=$(secs_since "$t0")
      lss+=("$ls")
    done
    verdicts=$(printf '%s\n' "${vs[@]}" | sort -u | paste -sd/)
    row=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$p" "$n" "$t" "$verdicts" "$(median "${rss[@]}")" \
      "$(median "${wss[@]}")" "$(median "${fss[@]}")" "$(median "${lss[@]}")")
    echo "$row"
    echo "$row" >>"$rows"
  done
done

# The goals: every verdict right; every unreachable target proved within
# 60 s; reachable targets reached 3x sooner than plain fuzz on the median
# (of the per-target ratios, whole command against whole command; a fuzz
# that missed SECONDS counts as SECONDS, which only lowers the ratio).
echo
awk -F'\t' '
  { want = $3 == "R" ? "reached" : "unreachable-within-bound" }
  $4 != want { wrong++ }
  $3 == "U" && ($6 == "-" || $6 > 60) { slow++ }
  END {
    printf "verdicts wrong: %d of %d\n", wrong, NR
    printf "unreachable targets not proved within 60 s: %d\n", slow
  }' "$rows"
ratios=$(awk -F'\t' -v secs="$secs" '$3 == "R" && $4 == "reached" {
  f = $7 == "-" ? secs : $7; w = $6 > 0 ? $6 : 0.01; print f / w }' "$rows")
if [ -n "$ratios" ]; then
  # shellcheck disable=SC2086 # one word per ratio
  echo "reachable: plain fuzz / reach, median of $(wc -l <<<"$ratios") ratios: $(median $ratios)x (goal 3x)"
fi
