#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# glassbox tmin against afl-tmin, side by side on the same inputs and
# binaries: wall time (median of REPS runs each, interleaved), runs
# (executions of the target), output size. Prints a Markdown table for
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

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# measure NAME INPUT MODE GBARGS -- BIN ARGS: one table row.
measure() {
  local name=$1 in=$2 mode=$3 trace=$4; shift 5
  local gt=() gtt=() at=() gr gtr ar gs gts as t0 r
  for r in $(seq "$REPS"); do
    t0=$(now_ms)
    "$G" tmin -i "$in" -o "$W/gb" --mode "$mode" -- "$@" > "$W/gb.log"
    gt+=($(( $(now_ms) - t0 )))
    if [ -n "$trace" ]; then
      t0=$(now_ms)
      "$G" tmin -i "$in" -o "$W/gbt" --mode "$mode" --trace "$trace" -- "$@" > "$W/gbt.log"
      gtt+=($(( $(now_ms) - t0 )))
    fi
    t0=$(now_ms)
    afl-tmin -m none -i "$in" -o "$W/afl" -- "$@" > "$W/afl.log" 2>&1
    at+=($(( $(now_ms) - t0 )))
  done
  gr=$(sed -n 's/^tmin: .* bytes.*), \([0-9]*\) runs.*/\1/p' "$W/gb.log")
  ar=$(sed 's/\x1b\[[0-9;]*m//g' "$W/afl.log" | sed -n 's/.*Number of execs done : *\([0-9]*\).*/\1/p')
  gs=$(stat -c %s "$W/gb"); as=$(stat -c %s "$W/afl")
  local gm am
  gm=$(printf '%s\n' "${gt[@]}" | median); am=$(printf '%s\n' "${at[@]}" | median)
  printf '| %s | %s | %s | %s ms / %s runs / %s B | %s ms / %s runs / %s B | %.2f |' \
    "$name" "$(stat -c %s "$in")" "$mode" "$gm" "$gr" "$gs" "$am" "$ar" "$as" \
    "$(echo "$gm $am" | awk '{ print $2 ? $1 / $2 : 0 }')"
  if [ -n "$trace" ]; then
    gtr=$(sed -n 's/^tmin: .* bytes.*), \([0-9]*\) runs.*/\1/p' "$W/gbt.log")
    gts=$(stat -c %s "$W/gbt")
    local tm
    tm=$(printf '%s\n' "${gtt[@]}" | median)
    printf ' %s ms / %s runs / %s B (%s traces) | %.2f |\n' "$tm" "$gtr" "$gts" \
      "$(sed -n 's/.* \([0-9]*\) traces.*/\1/p' "$W/gbt.log")" \
      "$(echo "$tm $am" | awk '{ print $2 ? $1 / $2 : 0 }')"
  else
    printf ' - | - |\n'
  fi
}

mkinput "$W/crash-small" 7 20 200 300
mkinput "$W/crash-large" 9 24 3000 12000
mkinput "$W/cov-small" 8 10 200 300
mkinput "$W/cov-large" 10 12 4000 9000
"$G" --version | head -1
{ afl-tmin -h 2>&1 || true; } | sed 's/\x1b\[[0-9;]*m//g' | sed -n 1p
echo
echo "| input | bytes | mode | glassbox tmin | afl-tmin | time ratio | glassbox tmin --trace | ratio |"
echo "|---|---|---|---|---|---|---|---|"
measure "tmin_target, junk around a record (ASan)" "$W/crash-small" crash "$T.trace" -- "$T.asan" @@
measure "tmin_target, 15 KB of junk (ASan)" "$W/crash-large" crash "$T.trace" -- "$T.asan" @@
measure "tmin_target, no crash (afl-clang-fast)" "$W/cov-small" coverage "$T.trace" -- "$T.afl" @@
measure "tmin_target, no crash, 13 KB (afl-clang-fast)" "$W/cov-large" coverage "$T.trace" -- "$T.afl" @@
measure "demo examples/crash.gbox (cov build, SEGV)" "$root/harnesses/demo/examples/crash.gbox" \
  crash "$H/demo.trace" -- "$H/demo.cov" @@
