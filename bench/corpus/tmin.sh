#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# glassbox tmin against afl-tmin, side by side on the same inputs and
# binaries: wall and CPU time (medians of REPS runs each, interleaved),
# runs (executions of the target), output size. Prints a Markdown table for
# bench/RESULTS.md. Not a test.
#   bench/corpus/tmin.sh [BUILD_DIR] [REPS]
# Needs a build (scripts/build): tests/triage's tmin_target builds and the
# demo harness's cov and trace builds.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "${1:-$root/build}" && pwd)
REPS=${2:-5}
G=$B/bin/glassbox
T=$B/tests/triage/tmin_target
H=$B/harnesses
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-bench-tmin.XXXXXX")
trap 'rm -rf "$W"' EXIT
export AFL_QUIET=1 AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
for f in "$G" "$T.asan" "$T.afl" "$T.trace" "$H/demo.cov" "$H/demo.trace"; do
  [ -x "$f" ] || { echo "tmin.sh: $f missing: build first (scripts/build)" >&2; exit 1; }
done

# The same generator as tests/triage/tmin_test.sh: header, offset, junk,
# checksummed record ("KEY", length, payload, sum), junk.
mkinput() {
  LC_ALL=C awk -v seed="$2" -v plen="$3" -v ja="$4" -v jb="$5" 'BEGIN {
    srand(seed); off = 6 + ja;
    printf "TMN1%c%c", off % 256, int(off / 256);
    for (i = 0; i < ja; i++) printf "%c", 33 + int(rand() * 90);
    printf "KEY%c", plen; s = 0;
    for (i = 0; i < plen; i++) { c = 33 + int(rand() * 90); s = (s + c) % 256; printf "%c", c }
    printf "%c", s;
    for (i = 0; i < jb; i++) printf "%c", 33 + int(rand() * 90);
  }' > "$1"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# timed TAG CMD...: runs CMD, appends its wall and CPU (user + sys, the
# waited-for children included) milliseconds to $W/TAG.wall and $W/TAG.cpu.
timed() {
  local tag=$1; shift
  /usr/bin/time -f '%e %U %S' -o "$W/time" "$@"
  awk '{ printf "%d\n", $1 * 1000 }' "$W/time" >> "$W/$tag.wall"
  awk '{ printf "%d\n", ($2 + $3) * 1000 }' "$W/time" >> "$W/$tag.cpu"
}

# cell TAG: "wall ms (CPU ms)", medians.
cell() { echo "$(median < "$W/$1.wall") ms ($(median < "$W/$1.cpu") CPU)"; }
ratio() { echo "$(median < "$W/$1.wall") $(median < "$W/$2.wall")" | awk '{ printf "%.2f", $2 ? $1 / $2 : 0 }'; }

# measure NAME INPUT MODE TRACE_BIN|"" -- BIN ARGS: one table row.
measure() {
  local name=$1 in=$2 mode=$3 trace=$4 r; shift 5
  rm -f "$W"/*.wall "$W"/*.cpu
  for r in $(seq "$REPS"); do
    timed gb "$G" tmin -i "$in" -o "$W/gb" --mode "$mode" -- "$@" > "$W/gb.log"
    [ -z "$trace" ] ||
      timed gbt "$G" tmin -i "$in" -o "$W/gbt" --mode "$mode" --trace "$trace" -- "$@" > "$W/gbt.log"
    timed afl afl-tmin -m none -i "$in" -o "$W/afl" -- "$@" > "$W/afl.log" 2>&1
  done
  local gr ar
  gr=$(sed -n 's/^tmin: .* bytes.*), \([0-9]*\) runs.*/\1/p' "$W/gb.log")
  ar=$(sed 's/\x1b\[[0-9;]*m//g' "$W/afl.log" | sed -n 's/.*Number of execs done : *\([0-9]*\).*/\1/p')
  printf '| %s | %s | %s | %s / %s runs / %s B | %s / %s runs / %s B | %s |' \
    "$name" "$(stat -c %s "$in")" "$mode" "$(cell gb)" "$gr" "$(stat -c %s "$W/gb")" \
    "$(cell afl)" "$ar" "$(stat -c %s "$W/afl")" "$(ratio gb afl)"
  if [ -n "$trace" ]; then
    printf ' %s / %s runs / %s B (%s traces) | %s |\n' "$(cell gbt)" \
      "$(sed -n 's/^tmin: .* bytes.*), \([0-9]*\) runs.*/\1/p' "$W/gbt.log")" \
      "$(stat -c %s "$W/gbt")" "$(sed -n 's/.* \([0-9]*\) traces.*/\1/p' "$W/gbt.log")" \
      "$(ratio gbt afl)"
  else
    printf ' - | - |\n'
  fi
}

mkinput "$W/crash-small" 7 20 200 300
mkinput "$W/crash-large" 9 24 3000 12000
mkinput "$W/cov-small" 8 10 200 300
mkinput "$W/cov-large" 10 12 4000 9000
mkinput "$W/cov-huge" 5 10 3000 500000
"$G" --version | head -1
{ afl-tmin -h 2>&1 || true; } | sed 's/\x1b\[[0-9;]*m//g' | sed -n 1p
echo
echo "| input | bytes | mode | glassbox tmin | afl-tmin | wall ratio | glassbox tmin --trace | wall ratio |"
echo "|---|---|---|---|---|---|---|---|"
measure "tmin_target, junk around a record (ASan)" "$W/crash-small" crash "$T.trace" -- "$T.asan" @@
measure "tmin_target, 15 KB of junk (ASan)" "$W/crash-large" crash "$T.trace" -- "$T.asan" @@
measure "tmin_target, no crash (afl-clang-fast)" "$W/cov-small" coverage "$T.trace" -- "$T.afl" @@
measure "tmin_target, no crash, 13 KB (afl-clang-fast)" "$W/cov-large" coverage "$T.trace" -- "$T.afl" @@
measure "tmin_target, no crash, 500 KB (afl-clang-fast)" "$W/cov-huge" coverage "$T.trace" -- "$T.afl" @@
# triage's planted bugs (tests/triage/bugs/bugs.c, ASan + UBSan + AFL++'s
# forkserver): 'A' reaches a heap overflow in store() through path_a; the
# junk after it holds other bugs' first bytes. afl-tmin keeps any crash.
BUGS=$B/tests/triage/bugs.afl-asan
if [ -x "$BUGS" ]; then
  { printf 'A'; LC_ALL=C awk 'BEGIN { srand(3); for (i = 0; i < 3000; i++) printf "%c", 33 + int(rand() * 90) }'; } > "$W/bug-a"
  measure "triage's planted bug A behind 3 KB of junk (ASan, stdin)" "$W/bug-a" crash "" -- "$BUGS"
  for f in gb afl; do
    printf '%s: %s\n' "$f" "$(ASAN_OPTIONS=symbolize=1 "$B/tests/triage/bugs.asan" "$W/$f" 2>&1 |
      grep -m1 -o 'in [a-z_]* .*bugs.c' | cut -d' ' -f2)" >> "$W/bug-a.frames"
  done
fi
measure "demo examples/crash.gbox (cov build, SEGV)" "$root/harnesses/demo/examples/crash.gbox" \
  crash "$H/demo.trace" -- "$H/demo.cov" @@
if [ -s "$W/bug-a.frames" ]; then
  echo
  echo "Top frame of each tool's output for bug A (the input's is store):"
  sed 's/^/- /' "$W/bug-a.frames"
fi
