#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/reach: time to verdict of glassbox reach on 20 targets written for
# the project (progs/: magic gates, loops, checksums and length fields,
# contradictory checks across functions), against plain glassbox fuzz and
# libFuzzer (-use_value_profile=1) reaching the same line, for which the
# line traps (-DTRAP_AT=n). One target at a time, each tool alone.
#   bench/reach/run.sh BUILD_DIR [SECONDS] [OUT_DIR] [PROGRAMS]
# Prints a table: program, target, ground truth, reach's verdict, the
# seconds to it (reach.json's time_ms: the search alone) and of the whole
# command (start-up included, as for the others), and the seconds plain
# fuzz and libFuzzer took to trap there ("-" when not within SECONDS).
# Nothing is written to RESULTS.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
secs=${2:-30}
out=${3:-$(mktemp -d "${TMPDIR:-/tmp}/gb-reach-bench.XXXXXX")}
programs=${4:-magic loops checksum unreach}
bin=$build/bin
mkdir -p "$out/seeds"
printf 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' >"$out/seeds/a"

# Ground truth: R reachable, U unreachable, per program, targets 1..5.
declare -A truth=([magic]=RRRRR [loops]=RRRRR [checksum]=RRRRU [unreach]=UUUUU)

now() { date +%s%N; }
secs_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }

printf 'program\ttarget\ttruth\treach\treach_s\treach_wall_s\tfuzz_s\tlibfuzzer_s\n'
for p in $programs; do
  src=$here/progs/$p.c
  "$bin/glassbox-cc" --mode=trace -O2 -g "$src" -o "$out/$p.trace"
  "$bin/glassbox-cc" --mode=cov -O2 -g "$src" -o "$out/$p.cov"
  for n in 1 2 3 4 5; do
    line=$(grep -n "TARGET($n);" "$src" | cut -d: -f1)
    t=$(cut -c"$n" <<<"${truth[$p]}")
    # glassbox reach
    o=$out/$p-$n.reach
    rm -rf "$o"
    t0=$(now)
    set +e
    "$bin/glassbox" reach -q --target "$p.c:$line" -V "$secs" -i "$out/seeds" -o "$o" -- \
      "$out/$p.trace" "$out/$p.cov" >"$o.line" 2>"$o.err"
    set -e
    ws=$(secs_since "$t0")
    v=$(sed -n 's/^ *"verdict": *"\([^"]*\)".*/\1/p' "$o/reach.json" 2>/dev/null | head -1 || true)
    ms=$(sed -n 's/^ *"time_ms": *\([0-9]*\).*/\1/p' "$o/reach.json" 2>/dev/null | head -1 || true)
    grep -q ': no-block:' "$o.line" && v=no-block
    rs=$(awk -v m="${ms:-0}" 'BEGIN { printf "%.2f", m / 1000 }')
    # plain glassbox fuzz on the trapping build
    "$bin/glassbox-cc" --mode=trace -O2 -g -DTRAP_AT=$n "$src" -o "$out/$p-$n.trace"
    "$bin/glassbox-cc" --mode=cov -O2 -g -DTRAP_AT=$n "$src" -o "$out/$p-$n.cov"
    rm -rf "$out/$p-$n.fuzz"
    t0=$(now)
    set +e
    "$bin/glassbox" fuzz -q --exit-on-crash -V "$secs" -i "$out/seeds" -o "$out/$p-$n.fuzz" -- \
      "$out/$p-$n.trace" "$out/$p-$n.cov" >/dev/null 2>&1
    st=$?
    set -e
    fs=-
    [ "$st" = 77 ] && fs=$(secs_since "$t0")
    # libFuzzer, value profile on
    clang-14 -O2 -g -fsanitize=fuzzer -DTRAP_AT=$n "$src" -o "$out/$p-$n.lf"
    rm -rf "$out/$p-$n.corpus" && cp -r "$out/seeds" "$out/$p-$n.corpus"
    t0=$(now)
    set +e
    (cd "$out" && "$out/$p-$n.lf" -use_value_profile=1 -max_total_time="$secs" -seed=1 \
      "$out/$p-$n.corpus" >"$out/$p-$n.lf.log" 2>&1)
    st=$?
    set -e
    ls=-
    [ "$st" != 0 ] && grep -q 'deadly signal' "$out/$p-$n.lf.log" && ls=$(secs_since "$t0")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$n" "$t" "${v:-none}" "$rs" "$ws" "$fs" "$ls"
  done
done
