# SPDX-License-Identifier: Apache-2.0
# The check every Debian-source harness gets (sourced by tests/harnesses/
# LIB.sh, with $1 = build dir, $2 = source dir):
#   gb_harness_check LIB_DIR FUZZED...
# builds the library of LIB_DIR (harnesses/LIB, or a folder of the same
# shape elsewhere) with its fetch-build.sh (from the cache after the
# first run; exit 77 when the archive is unreachable and nothing is cached),
# runs every seed on every build kind of every harness (none may fail or
# crash, the ASan build included), traces one seed per harness, and gives
# each FUZZED harness a 20-second glassbox fuzz that must reach blocks its
# seeds alone do not.
. "$2/tests/e2e/lib.sh"

KINDS="trace cov afl cmplog asan lf"

# seeds_run OUT H: every seed of H on every kind, 10 s each at most.
seeds_run() {
  local out=$1 h=$2 k s rc n=0
  for k in $KINDS; do
    [ -x "$out/$h.$k" ] || fail "$h.$k was not built"
    for s in "$out/seeds/$h"/*; do
      rc=0
      timeout 10 "$out/$h.$k" "$s" >"$WORK/run.log" 2>&1 || rc=$?
      [ "$rc" -eq 0 ] || fail "$h.$k exited $rc on seed ${s##*/}: $(grep -m1 -E 'ERROR|runtime error|Sanitizer' "$WORK/run.log" || tail -1 "$WORK/run.log")"
      n=$((n + 1))
    done
  done
  [ "$n" -ge 6 ] || fail "$h: no seeds in $out/seeds/$h"
}

# trace_one OUT H: the trace build writes a trace with a path constraint.
trace_one() {
  local out=$1 h=$2 s info entries
  s=$(ls "$out/seeds/$h"/* | head -1)
  info=$("$BIN/glassbox" trace "$s" -o "$WORK/$h.gbt" -- "$out/$h.trace" 2>&1) ||
    fail "glassbox trace $h.trace ${s##*/}: $info"
  entries=$(sed -n 's/.* \([0-9]*\) path constraint entries.*/\1/p' <<<"$info")
  [ "${entries:-0}" -gt 0 ] || fail "$h.trace: the trace of ${s##*/} has no path constraint ($info)"
  "$BIN/glassbox" show "$WORK/$h.gbt" >"$WORK/$h.smt2" || fail "glassbox show $h's trace failed"
  grep -q '^(assert' "$WORK/$h.smt2" || fail "glassbox show: no assertion in $h's trace"
  echo "$h: ${s##*/} traced, $entries path constraint entries"
}

# fuzz_one OUT H: 20 s of glassbox fuzz reach more blocks than the seeds.
fuzz_one() {
  local out=$1 h=$2 base frc=0 S blocks
  AFL_QUIET=1 afl-showmap -q -C -i "$out/seeds/$h" -o "$WORK/$h.map" -- "$out/$h.cov" \
    >"$WORK/showmap.log" 2>&1 || fail "afl-showmap on $h's seeds failed: $(tail -1 "$WORK/showmap.log")"
  base=$(wc -l <"$WORK/$h.map")
  "$BIN/glassbox" fuzz -q -V 20 -i "$out/seeds/$h" -o "$WORK/fz-$h" -- \
    "$out/$h.trace" "$out/$h.cov" 2>"$WORK/fuzz.err" || frc=$?
  [ "$frc" -eq 0 ] || fail "glassbox fuzz on $h exited $frc: $(tail -1 "$WORK/fuzz.err")"
  S=$WORK/fz-$h/glassbox/fuzzer_stats
  blocks=$(stat_of "$S" blocks_covered)
  [ "${blocks:-0}" -gt "$base" ] ||
    fail "$h: 20 s of glassbox fuzz reached $blocks blocks, the seeds alone $base"
  expect_eq "$h: crashes found in 20 s" "$(stat_of "$S" saved_crashes)" 0
  echo "$h: blocks_covered $blocks after 20 s (seeds alone $base), $(stat_of "$S" execs_done) execs"
}

gb_harness_check() {
  local dir=$1 lib rc=0 start h
  lib=$(basename "$dir")
  local out=$BUILD/harnesses-deb/$lib
  shift
  start=$(date +%s)
  GLASSBOX_SRC=$SRC "$dir/fetch-build.sh" "$out" "$BIN" || rc=$?
  [ "$rc" -eq 77 ] && exit 77
  [ "$rc" -eq 0 ] || fail "$dir/fetch-build.sh exited $rc"
  echo "$lib: $(cat "$out/VERSION"), fetch-build $(($(date +%s) - start)) s"
  for h in "$out"/seeds/*/; do
    h=$(basename "$h")
    seeds_run "$out" "$h"
    trace_one "$out" "$h"
  done
  for h in "$@"; do fuzz_one "$out" "$h"; done
  pass "$lib: every seed runs clean on $KINDS for $(ls "$out/seeds" | tr '\n' ' ')"
}
