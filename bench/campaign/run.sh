#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Campaign benchmarks for issue 5, in one run on this machine:
#  1. worker scaling: glassbox campaign with 1 and then 2 workers, same
#     budget; inputs expanded per minute (from the workers' fuzzer_stats);
#  2. AFL++ alone (-M + -S) against AFL++ (-M) plus one Glassbox worker: the
#     same two processes' worth of CPU, same budget, per harness; time to
#     first crash and coverage (the union of every instance's queue, run
#     through the same cov build with afl-showmap -C). Harnesses: the demo,
#     magiccrc, and zlib inflate (a real parser, built from Debian's source
#     by harnesses/zlib/fetch-build.sh into BUILD_DIR/zlib).
# Usage: bench/campaign/run.sh BUILD_DIR [SECONDS]   (prints Markdown)
#        BENCH_PARTS="scaling" or "peers" runs one part only.
set -euo pipefail
BUILD=$(cd "$1" && pwd)
SECS=${2:-60}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$BUILD/bin
H=$BUILD/harnesses
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-bench-campaign.XXXXXX")
trap 'rm -rf "$W"' EXIT
stat_of() { sed -n "s/^$2 *: //p" "$1"; }

coverage() { # coverage SYNC COV_BIN: blocks hit by the union of all queues
  mkdir -p "$W/all" && rm -f "$W"/all/*
  local n=0
  for q in "$1"/*/queue; do
    for f in "$q"/id:*; do [ -f "$f" ] && cp "$f" "$W/all/$n" && n=$((n + 1)); done
  done
  afl-showmap -q -C -i "$W/all" -o "$W/map" -- "$2" @@ >/dev/null 2>&1 || true
  wc -l <"$W/map"
}

first_crash() { # first_crash SYNC: seconds from the first start_time to the oldest crash file
  local start oldest
  start=$(for s in "$1"/*/fuzzer_stats; do stat_of "$s" start_time; done | sort -n | head -1)
  oldest=$(find "$1"/*/crashes -name 'id:*' -printf '%T@\n' 2>/dev/null | sort -n | head -1)
  if [ -z "$oldest" ]; then echo "none"; else
    awk -v a="$start" -v b="$oldest" 'BEGIN { printf "%.1f s", b - a }'
  fi
}

PARTS=${BENCH_PARTS:-scaling peers}
"$SRC/harnesses/zlib/fetch-build.sh" "$BUILD/zlib" "$BIN" >/dev/null 2>&1 ||
  echo "(zlib could not be fetched or built: its rows are missing)"
if [[ " $PARTS " == *" scaling "* ]]; then
# zlib inflate: its search does not run dry in a minute, unlike the demo's.
sh=$BUILD/zlib/zlib_inflate sseeds=$SRC/harnesses/zlib/seeds
[ -x "$sh.cov" ] || sh=$H/demo sseeds=$SRC/harnesses/demo/seeds
echo "### Worker scaling (up to $SECS s each, $(basename "$sh"))"
echo
echo "Per minute = inputs expanded / the longest worker run time (a lone worker"
echo "stops early when its worklist runs dry)."
echo
echo "| workers | inputs expanded | run time | per minute | execs |"
echo "|---|---|---|---|---|"
for n in 1 2; do
  "$BIN/glassbox" campaign -i "$sseeds" -o "$W/scale$n" --afl 0 --workers "$n" \
    -V "$SECS" -- "$sh.trace" "$sh.cov" 2>/dev/null
  exp=0 ex=0 rt=1
  for s in "$W/scale$n"/glassbox*/fuzzer_stats; do
    exp=$((exp + $(stat_of "$s" inputs_expanded))); ex=$((ex + $(stat_of "$s" execs_done)))
    r=$(stat_of "$s" run_time); [ "$r" -gt "$rt" ] && rt=$r
  done
  echo "| $n | $exp | $rt s | $(awk -v e="$exp" -v s="$rt" 'BEGIN { printf "%.1f", e * 60 / s }') | $ex |"
done
fi
[[ " $PARTS " == *" peers "* ]] || exit 0
echo
echo "### AFL++ alone vs AFL++ + Glassbox (2 processes each, $SECS s)"
echo
echo "| harness | setup | first crash | blocks covered (union of queues) |"
echo "|---|---|---|---|"
for h in demo magiccrc zlib_inflate; do
  dir=$H seeds=$SRC/harnesses/$h/seeds
  [ "$h" = zlib_inflate ] && dir=$BUILD/zlib seeds=$SRC/harnesses/zlib/seeds
  [ -x "$dir/$h.cov" ] || continue
  "$BIN/glassbox" campaign -i "$seeds" -o "$W/afl-$h" --afl 2 --workers 0 -V "$SECS" -- \
    "$dir/$h.trace" "$dir/$h.cov" 2>/dev/null
  echo "| $h | afl-fuzz -M + -S | $(first_crash "$W/afl-$h") | $(coverage "$W/afl-$h" "$dir/$h.cov") |"
  "$BIN/glassbox" campaign -i "$seeds" -o "$W/gb-$h" --afl 1 --workers 1 -V "$SECS" -- \
    "$dir/$h.trace" "$dir/$h.cov" 2>/dev/null
  echo "| $h | afl-fuzz -S + glassbox | $(first_crash "$W/gb-$h") | $(coverage "$W/gb-$h" "$dir/$h.cov") |"
done
