#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Solver benchmark (issue 4): records traces from short Glassbox campaigns
# on the demo harness (and zlib when tests/ has a zlib harness), then
# expands them all in plain mode (slicing + Z3) and full mode (clauses,
# intervals, cache, adaptive limits) side by side in one run of
# glassbox solve --mode=both, and appends the figures to bench/RESULTS.md.
# Usage: bench/solver/run.sh BUILD_DIR [SECONDS_PER_CAMPAIGN] [--no-append]
# BENCH_TRACES=DIR: keep the recorded traces in DIR, or, when DIR already
# holds *.gbt files, skip the campaigns and expand those (the same corpus
# for a before/after comparison).
set -euo pipefail
BUILD=$(cd "${1:?usage: run.sh BUILD_DIR [SECONDS]}" && pwd)
SECS=${2:-30}
APPEND=1
[ "${3:-}" = "--no-append" ] && APPEND=0
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$BUILD/bin
H=$BUILD/harnesses
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gb-bench-solver.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
TR=${BENCH_TRACES:-$WORK/traces}
mkdir -p "$TR"
corpora=""
record_from() { # name trace_bin queue_dir max
  local k=0 f
  for f in "$3"/id:*; do
    [ -e "$f" ] && [ "$k" -lt "$4" ] || continue
    cp "$f" "$TR/$1-$(printf %04d $k).gbt.input"
    "$BIN/glassbox" trace "$f" -o "$TR/$1-$(printf %04d $k).gbt" -- "$2" >/dev/null 2>&1 || true
    k=$((k + 1))
  done
  echo "$1: $k traces" >&2
}
Z=$BUILD/zlib # harnesses/zlib/fetch-build.sh's output, as e2e.zlib leaves it
if ls "$TR"/*.gbt >/dev/null 2>&1; then
  corpora="$(ls "$TR" | sed -n 's/-[0-9]*\.gbt$//p' | sort | uniq -c | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1}') (recorded earlier in $TR)"
else
  "$BIN/glassbox" fuzz -q -V "$SECS" -i "$SRC/harnesses/demo/seeds" -o "$WORK/demo" -- \
    "$H/demo.trace" "$H/demo.cov"
  record_from demo "$H/demo.trace" "$WORK/demo/glassbox/queue" 60
  corpora="demo"
  if [ ! -x "$Z/zlib_inflate.trace" ]; then
    "$SRC/harnesses/zlib/fetch-build.sh" "$Z" "$BIN" >/dev/null 2>&1 || true
  fi
  if [ -x "$Z/zlib_inflate.trace" ] && [ -x "$Z/zlib_inflate.cov" ]; then
    "$BIN/glassbox" fuzz -q -V "$SECS" -i "$SRC/harnesses/zlib/seeds" -o "$WORK/zlib" -- \
      "$Z/zlib_inflate.trace" "$Z/zlib_inflate.cov"
    record_from zlib "$Z/zlib_inflate.trace" "$WORK/zlib/glassbox/queue" 60
    corpora="$corpora and zlib inflate"
  else
    echo "zlib: could not be fetched or built (harnesses/zlib/fetch-build.sh), skipped" >&2
    corpora="$corpora (zlib: could not be built, skipped)"
  fi
fi
cmd="glassbox solve --mode=both TRACES"
"$BIN/glassbox" solve --mode=both "$TR" | tee "$WORK/out.txt"
queries=$(sed -n 's/^full: queries \([0-9]*\):.*/\1/p' "$WORK/out.txt")
noz3=$(sed -n 's/^full: flips without z3 \([0-9.]*\)%.*/\1/p' "$WORK/out.txt")
ratio=$(sed -n 's/^full\/plain time ratio //p' "$WORK/out.txt")
ntr=$(ls "$TR"/*.gbt | wc -l)
[ "$APPEND" = 1 ] || exit 0
{
  echo
  echo "## Solver pipeline, full vs plain ($(date -u +%Y-%m-%d))"
  echo
  echo "- command: \`bench/solver/run.sh BUILD $SECS\` ($cmd on $ntr traces: $corpora;"
  echo "  each from a ${SECS} s glassbox fuzz campaign's queue)"
  echo "- versions: glassbox $(git -C "$SRC" rev-parse --short HEAD), $(z3 --version 2>/dev/null || echo "libz3 $(dpkg-query -W -f '${Version}' libz3-dev 2>/dev/null)"), $(uname -m), $(nproc) cores"
  echo "- flips answered without Z3 (full): **${noz3}%** of $queries (target ≥ 60%)"
  echo "- total solving time full/plain: **${ratio}** (target ≤ 0.4)"
  echo
  echo '```'
  cat "$WORK/out.txt"
  echo '```'
} >>"$SRC/bench/RESULTS.md"
