#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.gates: builds every gate (build.sh) under the build tree and checks each one's
# inputs: seeds run clean on NAME.asan and NAME.cov, the crashing input crashes NAME.asan,
# NAME.cov and NAME.lf; then that the solver bit-blasts sscanf_hex's slow flips. Usage:
# test.sh BUILD_DIR.
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

# Bit-blasting (symbolic/z3_bridge.c): sscanf_hex's seed trace has about a hundred flips,
# slices of 100-200 conjuncts over one or two bytes, that Z3's simple solver needs 1-2 s
# for or times out on (58 Z3 timeouts in 200 s before), and its qfbv tactic answers in
# milliseconds. The solver's log must show the tactic's answers and few timeouts.
gb=$1/bin/glassbox
tr=$out/sscanf_hex.seed.gbt
if ! "$gb" trace "$out/seeds/sscanf_hex/two_writes" -o "$tr" -- "$out/sscanf_hex.trace" >"$log" 2>&1; then
  fail "sscanf_hex: tracing the seed failed: $(tail -n 3 "$log")"
elif ! "$gb" solve --mode full "$tr" >"$log" 2>&1; then
  fail "sscanf_hex: glassbox solve failed: $(tail -n 3 "$log")"
else
  q=$(grep '^full: queries' "$log")
  z3t=$(sed -n 's/.* timeout \([0-9]*\) bit-blasted.*/\1/p' <<<"$q")
  bb=$(sed -n 's/.* bit-blasted \([0-9]*\)).*/\1/p' <<<"$q")
  if [ -z "$bb" ] || [ "$bb" -lt 50 ] || [ "$z3t" -gt 10 ]; then
    fail "sscanf_hex: want at least 50 answers bit-blasted and at most 10 Z3 timeouts: $q"
  else
    echo "ok   sscanf_hex seed trace solved: $bb answers bit-blasted, $z3t Z3 timeouts"
  fi
fi
[ "$fails" -eq 0 ] || { echo "$fails failures"; exit 1; }
