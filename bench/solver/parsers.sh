#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The solver on real parsers' traces (issue 12, part 2): traces every seed
# of each real-parser harness (harnesses/LIB, built by its fetch-build.sh
# into BUILD_DIR/harnesses-deb/LIB, where the harness tests put them), then
# expands them with `glassbox solve --mode=full`, once with BUILD_DIR's
# glassbox and, given BASE_BUILD_DIR, once with that one too, on the same
# trace files, one parser after the other. Prints a Markdown table per
# build: flips, answers, Z3 timeouts, answers bit-blasted, budget skips, whole queries
# not sent to Z3 as ¬PC[j] alone went first (relaxed first), stored values, the
# share answered without Z3 and the solving time; and, with --slow MS,
# where the time went (flips of at least MS by slice size and by bytes
# read). Usage:
#   bench/solver/parsers.sh [--slow MS] [--libs "zlib lz4 ..."] BUILD_DIR [BASE_BUILD_DIR]
set -euo pipefail
SLOW=0
LIBS="zlib lz4 cjson expat libpng giflib libspng"
while [ $# -gt 0 ]; do
  case $1 in
  --slow) SLOW=${2:?--slow needs MS}; shift 2 ;;
  --libs) LIBS=${2:?--libs needs a list}; shift 2 ;;
  -h | --help) sed -n 3,13p "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--slow MS] [--libs LIST] BUILD_DIR [BASE_BUILD_DIR]" >&2; exit 2; }
BUILD=$(cd "$1" && pwd)
BASE=""
[ -z "${2:-}" ] || BASE=$(cd "$2" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-bench-parsers.XXXXXX")
trap 'rm -rf "$W"' EXIT

. "$(dirname "$0")/seed_traces.sh"

# field NAME FILE: the number after "NAME " on the full: lines.
field() { sed -n "s/^full:.*[ (]$1 \([0-9.]*\).*/\1/p" "$2" | head -1; }

row() { # LIB TRACES OUT
  local f=$3 z3t bud bb en rf
  z3t=$(sed -n 's/^full: queries .*z3 [0-9]* (sat [0-9]* unsat [0-9]* timeout \([0-9]*\)[ )].*/\1/p' "$f")
  bb=$(sed -n 's/^full: queries .* bit-blasted \([0-9]*\)).*/\1/p' "$f" | grep . || echo NA)
  en=$(sed -n 's/^full: queries .* (enumerated \([0-9]*\) swept \([0-9]*\)).*/\1 \/ \2/p' "$f" | grep . || echo NA)
  bud=$(sed -n 's/^full: queries .* budget \([0-9]*\).*/\1/p' "$f")
  rf=$(sed -n 's/^full: queries .* relaxed-first \([0-9]*\).*/\1/p' "$f" | grep . || echo NA)
  echo "| $1 | $2 | $(field flips "$f") | $(sed -n 's/^full: flips [0-9]*: sat \([0-9]*\) (optimistic \([0-9]*\)).*/\1 (\2)/p' "$f") |" \
    "$(field unsat "$f") | $(sed -n 's/^full: flips .* timeout \([0-9]*\)$/\1/p' "$f") | $en | $z3t | $bb | $bud | $rf |" \
    "$(sed -n 's/^full: stored values left out \([0-9]*\), set on the child \([0-9]*\).*/\1 \/ \2/p' "$f" | grep . || echo NA) |" \
    "$(sed -n 's/^full: flips without z3 \([0-9.]*\)%.*/\1%/p' "$f") | $(sed -n 's/.*| time \([0-9.]*\) ms.*/\1/p' "$f" | awk '{printf "%.1f", $1 / 1000}') |"
}

declare -A ntr
for lib in $LIBS; do
  h=$(harness_of "$lib") || { echo "unknown library $lib" >&2; exit 2; }
  out=$BUILD/harnesses-deb/$lib
  if [ ! -x "$out/$h.trace" ]; then
    "$SRC/harnesses/$lib/fetch-build.sh" "$out" "$BUILD/bin" >"$W/$lib.build.log" 2>&1 || {
      echo "$lib: could not be fetched or built (skipped)" >&2
      continue
    }
  fi
  seed_traces "$BUILD" "$lib" "$W/tr/$lib"
  ntr[$lib]=$(ls "$W/tr/$lib"/*.gbt 2>/dev/null | wc -l)
done

builds=("$BUILD")
[ -z "$BASE" ] || builds=("$BASE" "$BUILD")
for b in "${builds[@]}"; do
  echo
  echo "### $("$b/bin/glassbox" --version | head -1) ($b)"
  echo
  echo "| parser | traces | flips | SAT (optimistic) | UNSAT | timeout | enumerated / swept | Z3 timeouts | bit-blasted | budget skips | relaxed first | stored left out / set | without Z3 | solving (s) |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  for lib in $LIBS; do
    [ -n "${ntr[$lib]:-}" ] && [ "${ntr[$lib]}" -gt 0 ] || continue
    f=$W/$lib.$(basename "$(dirname "$b")").out
    sl=() # --slow where that build has it
    if [ "$SLOW" != 0 ] && "$b/bin/glassbox" solve --help 2>&1 | grep -q -- --slow; then
      sl=(--slow "$SLOW")
    fi
    "$b/bin/glassbox" solve --mode=full "${sl[@]}" "$W/tr/$lib" >"$f" 2>&1 ||
      { echo "| $lib | solve failed: $(tail -1 "$f") |"; continue; }
    row "$lib" "${ntr[$lib]}" "$f"
    cp "$f" "$W/$lib.last"
  done
  if [ "$SLOW" != 0 ]; then
    echo
    echo "Flips of at least $SLOW ms (count, seconds), by slice size and by input bytes the flipped condition reads:"
    echo
    for lib in $LIBS; do
      [ -f "$W/$lib.last" ] || continue
      awk -v lib="$lib" '/^slow:/ {
          for (i = 1; i <= NF; i++) { if ($i == "slice") sl = $(i + 1); if ($i == "bytes") by = $(i + 1) }
          ms = $(NF - 1); s = sl < 16 ? "<16" : sl < 64 ? "16-63" : "64+"; b = by < 2 ? "1" : by < 5 ? "2-4" : "5+"
          ns[s]++; ts[s] += ms; nb[b]++; tb[b] += ms }
        END { printf "- %s: slice", lib; for (k in ns) printf " %s: %d, %.1f s;", k, ns[k], ts[k] / 1000
              printf " bytes"; for (k in nb) printf " %s: %d, %.1f s;", k, nb[k], tb[k] / 1000; print "" }' \
        "$W/$lib.last"
    done
  fi
done
