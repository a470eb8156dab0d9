#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A real library: zlib from its Debian source package, built by its own
# ./configure && make with glassbox-cc. Its minigzip round-trips a file, and
# a campaign on the inflate harness finds blocks its seeds do not reach.
# Exit 77 (skip) when the Debian archive is unreachable.
. "$(dirname "$0")/lib.sh"
Z=$BUILD/zlib # the fetched source stays here across runs
start=$(date +%s)
rc=0
"$SRC/harnesses/zlib/fetch-build.sh" "$Z" "$BIN" || rc=$?
[ "$rc" -eq 77 ] && exit 77
[ "$rc" -eq 0 ] || fail "harnesses/zlib/fetch-build.sh exited $rc"
built=$(($(date +%s) - start))

# (a) 200 KiB of text, pseudo-random bytes and a repeated line: dynamic,
# stored and long-match deflate blocks. Compressed bytes must equal the
# plain clang build's, and -d must give the input back.
in=$WORK/in
{
  LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 3000; i++) { n = int(rand() * 12) + 1;
    for (j = 0; j < n; j++) printf "w%d ", int(rand() * rand() * 500); printf "\n" } }'
  LC_ALL=C awk 'BEGIN { srand(11); for (i = 0; i < 65536; i++) printf "%c", int(rand() * 255) + 1 }'
  yes 'glassbox zlib round trip' 2>/dev/null || true
} | head -c 204800 >"$in"
expect_eq "input size" "$(wc -c <"$in")" 204800
"$Z/plain/minigzip" <"$in" >"$WORK/plain.gz" || fail "plain minigzip failed"
for v in trace cov; do
  "$Z/$v/minigzip" <"$in" >"$WORK/$v.gz" || fail "$v minigzip: compression failed"
  cmp -s "$WORK/$v.gz" "$WORK/plain.gz" || fail "$v minigzip: compressed bytes differ from the plain build's"
  "$Z/$v/minigzip" -d <"$WORK/$v.gz" >"$WORK/$v.out" || fail "$v minigzip -d failed"
  cmp "$in" "$WORK/$v.out" || fail "$v minigzip: round trip changed the file"
done

# (b) The seeds' own coverage, measured on the cov build, against what a
# 30 s campaign reaches. A crash would mean instrumentation broke inflate.
seeds=$SRC/harnesses/zlib/seeds
AFL_QUIET=1 afl-showmap -q -C -i "$seeds" -o "$WORK/seeds.map" -- "$Z/zlib_inflate.cov" \
  >"$WORK/showmap.log" 2>&1 || fail "afl-showmap on the seeds failed: $(tail -1 "$WORK/showmap.log")"
base=$(wc -l <"$WORK/seeds.map")
[ "$base" -gt 50 ] || fail "the seeds cover only $base blocks of zlib_inflate.cov"
frc=0
"$BIN/glassbox" fuzz -q -V 30 -i "$seeds" -o "$WORK/out" -- \
  "$Z/zlib_inflate.trace" "$Z/zlib_inflate.cov" 2>"$WORK/fuzz.err" || frc=$?
[ "$frc" -eq 0 ] || fail "glassbox fuzz exited $frc: $(tail -1 "$WORK/fuzz.err")"
S=$WORK/out/glassbox/fuzzer_stats
blocks=$(stat_of "$S" blocks_covered)
expanded=$(stat_of "$S" inputs_expanded)
got="blocks_covered $blocks (seeds alone $base), $expanded inputs expanded, $(stat_of "$S" execs_done) execs"
[ "$expanded" -ge 1 ] || fail "no input expanded: $got"
# Every new input comes from a solved flip, so one new block already shows
# symbolic state flowing through the instrumented libz.a (a trace build
# linked against the plain libz.a stays at exactly the seeds' count).
# Unloaded, 30 s reach about +25%; under a 2x CPU load, about +10%.
[ "$blocks" -gt "$base" ] || fail "no new block: $got"
expect_eq "crashes in zlib inflate" "$(stat_of "$S" saved_crashes)" 0
# The median expansion: every one traces inflate and runs children, so it
# takes time, and none can take longer than the run.
med=$(stat_of "$S" expansion_ms_median)
[[ $med =~ ^[0-9]+$ ]] && [ "$med" -gt 0 ] && [ "$med" -le 30000 ] ||
  fail "expansion_ms_median '$med' is not a time within the 30 s run: $got"
pass "zlib: fetch-build.sh ${built} s, minigzip round trip ok, $got, median expansion $med ms"
