#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.gates: builds every gate (build.sh) under the build tree and checks each one's
# inputs: seeds run clean on NAME.asan and NAME.cov, the crashing input crashes NAME.asan,
# NAME.cov and NAME.lf. Usage: test.sh BUILD_DIR.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: test.sh BUILD_DIR" >&2; exit 2; }
src=$(cd "$(dirname "$0")" && pwd)
out=$1/bench-gates
"$src/build.sh" "$out" "$1" || exit 1

fails=0
fail() {
  echo "FAIL $*"
  fails=$((fails + 1))
}

# Runs a build on one input file with a time limit; sets rc and keeps its output in log.
# The braces' 2>/dev/null keeps bash's own "Aborted" job notices out of the test's output.
log=$out/run.log
run() {
  { timeout 20 "$@" >"$log" 2>&1 </dev/null; rc=$?; } 2>/dev/null
}

# A crash: killed by a signal (rc above 128, the shell's form; timeout's 124 excluded) or
# a sanitizer's report, which exits non-zero.
crashed() {
  [ "$rc" -gt 128 ] && return 0
  [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] &&
    grep -qE 'ERROR: AddressSanitizer|ERROR: libFuzzer: deadly signal' "$log"
}

ngates=0
for f in "$src"/*.c; do
  g=$(basename "$f" .c)
  [ "$g" = mkinputs ] && continue
  ngates=$((ngates + 1))
  nseeds=0
  for s in "$out/seeds/$g"/*; do
    [ -f "$s" ] || continue
    nseeds=$((nseeds + 1))
    for k in asan cov; do
      run "$out/$g.$k" "$s"
      [ "$rc" -eq 0 ] || fail "$g: seed $(basename "$s") on $g.$k exited $rc: $(tail -n 3 "$log")"
    done
  done
  [ "$nseeds" -gt 0 ] || fail "$g: no seeds in $out/seeds/$g"
  c=$out/crash/$g
  if [ ! -f "$c" ]; then
    fail "$g: no crashing input $c"
    continue
  fi
  for k in asan cov lf; do
    run "$out/$g.$k" "$c"
    crashed || fail "$g: the crashing input does not crash $g.$k (exit $rc)"
  done
  echo "ok   $g ($nseeds seeds; crash on asan, cov, lf)"
done
[ "$ngates" -ge 15 ] || fail "only $ngates gates (the benchmark wants at least 15)"
[ "$fails" -eq 0 ] || { echo "$fails failures"; exit 1; }
