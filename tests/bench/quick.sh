#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.quick: bench/run --quick (the demo and the gates magic64 and
# crc32_table where bench/gates has them, every configuration, 20 s each)
# and bench/report on its output. Checks that the output is well formed,
# never who wins: a row per target x config, numbers where numbers belong,
# every run with execs (a configuration that ran nothing fails), coverage
# on the demo, its edges at the checkpoints --checkpoint-every asks for, a
# table row per config, the plot a PNG.
set -euo pipefail
BUILD=$(cd "$1" && pwd) SRC=$(cd "$2" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-bench-quick.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL bench.quick: $*" >&2; exit 1; }
GATES=${BENCH_GATES:-$SRC/bench/gates}
CONFIGS="afl libfuzzer afl+glassbox glassbox"

t0=$SECONDS
GB_BUILD_DIR=$BUILD "$SRC/bench/run" --quick --checkpoint-every 5 -o "$W/res" 2>"$W/run.log" ||
  { cat "$W/run.log" >&2; fail "bench/run --quick failed"; }
run_s=$((SECONDS - t0))
"$SRC/bench/report" --plots "$W/plots" -o "$W/report.md" "$W/res" 2>"$W/report.log" ||
  { cat "$W/report.log" >&2; fail "bench/report failed"; }
R=$W/res/results.tsv

expect="demo"
for g in magic64 crc32_table; do
  [ -f "$GATES/$g.c" ] && [ -x "$GATES/build.sh" ] && expect+=" $g"
done
[ "$expect" = demo ] && echo "bench.quick: no gates in $GATES yet: the demo only"
for t in $expect; do
  for c in $CONFIGS; do
    n=$(awk -F'\t' -v t="$t" -v c="$c" '$1 == t && $3 == c' "$R" | wc -l)
    [ "$n" = 1 ] || { cat "$W/run.log" >&2; fail "$n rows for $t $c in results.tsv (want 1)"; }
  done
done
# Columns: target kind config rep seconds start wall_s measure_s edges lines
# lines_total branches branches_total first_crash_s crashes buckets execs status
# traces expanded expansion_ms_median (numbers where a Glassbox worker ran, NA
# elsewhere)
bad=$(awk -F'\t' 'NR > 1 {
  num = "^[0-9]+([.][0-9]+)?$"
  if (NF != 21) { print $1, $3, "has", NF, "fields"; next }
  gb = $3 ~ /glassbox/
  if ((gb && ($19 !~ num || $20 !~ num || $21 !~ num)) ||
      (!gb && ($19 != "NA" || $20 != "NA" || $21 != "NA")))
    print $1, $3, "traces, expanded, median expansion are", $19, $20, $21
  if ($3 == "glassbox" && $1 == "demo" && $19 + 0 == 0) print $1, $3, "traced nothing"
  for (i = 4; i <= 8; i++) if ($i !~ num) print $1, $3, "column", i, "is", $i
  for (i = 9; i <= 13; i++)
    if (($2 == "coverage" && $i !~ num) || ($2 == "gate" && $i != "NA")) print $1, $3, "column", i, "is", $i
  if ($14 !~ num && $14 != "none") print $1, $3, "first crash is", $14
  if ($15 !~ num || $17 !~ num) print $1, $3, "crashes or execs not numbers"
  if ($2 == "coverage" && $16 !~ num) print $1, $3, "buckets is", $16
  if ($17 + 0 == 0 || $18 != "ok") print $1, $3, "ran nothing: execs", $17, $18
  if ($2 == "coverage" && ($9 + 0 == 0 || $10 + 0 == 0 || $11 + 0 == 0)) print $1, $3, "no coverage measured"
  if ($15 + 0 > 0 && $14 == "none") print $1, $3, "crashes without a first crash time"
}' "$R")
[ -z "$bad" ] || { cat "$W/run.log" >&2; fail "results.tsv: $bad"; }
# --checkpoint-every 5 on a 20 s run: edges at 0, 5, 10, 15 and 20 s, never falling
pts=$(awk -F'\t' '$1 == "demo" && $2 == "afl" { printf "%s%s", sep, $4; sep = " " }' "$W/res/edges.tsv")
[ "$pts" = "0 5 10 15 20" ] || fail "edges.tsv's checkpoints for demo afl are '$pts' (want 0 5 10 15 20)"
awk -F'\t' '$1 == "demo" && $2 == "afl" { if ($5 < last) exit 1; last = $5 }' "$W/res/edges.tsv" ||
  fail "edges.tsv's edges fall between checkpoints for demo afl"
for c in $CONFIGS; do
  grep -q "^| $c | 1 | " "$W/report.md" || fail "report.md has no demo row for $c"
done
for t in $expect; do grep -q "$t" "$W/report.md" || fail "report.md does not mention $t"; done
grep -q '^- glassbox: glassbox ' "$W/report.md" || fail "report.md lacks the versions"
[ "$(head -c 8 "$W/plots/demo.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
  fail "plots/demo.png is missing or not a PNG"
echo "PASS bench.quick: $expect x 4 configs in ${run_s} s; report and plot well formed"
