#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# How long Z3 checks run against their limits (issue 34): traces every seed
# of the seven parsers' harnesses (BUILD_DIR/harnesses-deb/LIB, made by
# harnesses/LIB/fetch-build.sh, as parsers.sh does), expands the traces
# with `glassbox solve --mode=full --check-times` of each build given, and
# prints per build and parser: checks, median / p90 / p99 / max of wall
# time over limit, checks past 1.5x their limit (and of those, the ones
# 100 ms or more past it), the most ms any check ran past its limit, the
# longest check, and the solving time. A build without --check-times is
# skipped; KEEP=DIR keeps each build's per-check lines there. Usage:
#   bench/solver/checktimes.sh [--libs "zlib lz4 ..."] BUILD_DIR [OTHER_BUILD_DIR...]
set -euo pipefail
LIBS="zlib lz4 cjson expat libpng giflib libspng"
[ "${1:-}" != --libs ] || { LIBS=$2; shift 2; }
[ $# -ge 1 ] || { echo "usage: $0 [--libs LIST] BUILD_DIR [OTHER_BUILD_DIR...]" >&2; exit 2; }
BUILD=$(cd "$1" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-checktimes.XXXXXX")
trap 'rm -rf "$W"' EXIT

. "$(dirname "$0")/seed_traces.sh"

for lib in $LIBS; do
  h=$(harness_of "$lib") || { echo "unknown library $lib" >&2; exit 2; }
  out=$BUILD/harnesses-deb/$lib
  [ -x "$out/$h.trace" ] || { echo "$lib: no $out/$h.trace (run its fetch-build.sh)" >&2; continue; }
  seed_traces "$BUILD" "$lib" "$W/tr/$lib"
done

# stats FILE: checks, median/p90/p99/max of time/limit, over 1.5x, longest check
stats() {
  awk '{ r = $5 > 0 ? $2 / $5 : 0; print r, $2, $5 }' "$1" | sort -g | awk '
    function at(p,  i) { i = int(NR * p + 0.5); if (i < 1) i = 1; if (i > NR) i = NR; return r[i] }
    { r[NR] = $1; if ($2 > mt) { mt = $2; ml = $3 }; if ($2 - $3 > mp) mp = $2 - $3
      if ($1 > 1.5) { over++; if ($2 - $3 >= 100) big++ } }
    END { if (!NR) { print "| 0 | | | | | | | | |"; exit }
          printf "| %d | %.2f | %.2f | %.2f | %.2f | %d | %d | %.0f | %.0f ms (limit %d) |", NR,
            at(0.5), at(0.9), at(0.99), r[NR], over, big, mp, mt, ml }'
}

for b in "$@"; do
  b=$(cd "$b" && pwd)
  "$b/bin/glassbox" solve --help 2>&1 | grep -q -- --check-times || { echo "$b: no --check-times" >&2; continue; }
  echo
  echo "### $("$b/bin/glassbox" --version | head -1) ($b)"
  echo
  echo "| parser | traces | checks | median | p90 | p99 | max | > 1.5x | > 1.5x and 100+ ms past | most ms past | longest check | solving (s) |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  for lib in $LIBS; do
    n=$(ls "$W/tr/$lib"/*.gbt 2>/dev/null | wc -l)
    [ "$n" -gt 0 ] || continue
    f=$W/$lib.times
    s0=$(date +%s%N)
    "$b/bin/glassbox" solve --mode=full --check-times "$f" "$W/tr/$lib" >"$W/$lib.out" 2>&1 ||
      { echo "| $lib | solve failed: $(tail -1 "$W/$lib.out") |"; continue; }
    s1=$(date +%s%N)
    echo "| $lib | $n $(stats "$f") $(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }') |"
    cat "$f" >>"$W/all.times"
    [ -z "${KEEP:-}" ] || { mkdir -p "$KEEP" && cp "$f" "$KEEP/$(basename "$(dirname "$b")").$lib.times"; }
  done
  echo "| all | | $(stats "$W/all.times" | sed 's/^| //') |"
  rm -f "$W/all.times"
done
