#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# AFL++'s own tools on a Glassbox instance: afl-whatsup reads a live
# worker's fuzzer_stats (it once failed with "arithmetic expression:
# expecting primary" on missing keys), afl-plot draws its plot_data, and
# every key AFL++ 4.04c writes is there but the two Glassbox does not
# measure (docs/campaign.md).
. "$(dirname "$0")/lib.sh"
command -v afl-whatsup >/dev/null && command -v afl-plot >/dev/null || fail "AFL++'s tools are missing"
"$BIN/glassbox" fuzz -q -V 8 -i "$SRC/harnesses/demo/seeds" -o "$WORK/sync" \
  -- "$H/demo.trace" "$H/demo.cov" &
pid=$!
S=$WORK/sync/glassbox/fuzzer_stats
for _ in $(seq 50); do [ -s "$S" ] && break; sleep 0.1; done
[ -s "$S" ] || fail "no fuzzer_stats after 5 s"
TERM=dumb afl-whatsup "$WORK/sync" >"$WORK/whatsup.txt" 2>"$WORK/whatsup.err" ||
  fail "afl-whatsup exited $?: $(head -3 "$WORK/whatsup.err")"
! grep -Eq "expecting|unexpected|syntax|bad number" "$WORK/whatsup.err" ||
  fail "afl-whatsup: $(head -3 "$WORK/whatsup.err")"
grep -Eq "Fuzzers alive : 1" "$WORK/whatsup.txt" || fail "afl-whatsup did not see the live worker"
wait "$pid" || fail "glassbox fuzz exited $?"

for key in start_time last_update run_time fuzzer_pid cycles_done cycles_wo_finds execs_done \
  execs_per_sec execs_ps_last_min corpus_count corpus_favored corpus_found corpus_imported \
  max_depth cur_item pending_favs pending_total bitmap_cvg saved_crashes saved_hangs last_find \
  last_crash last_hang execs_since_crash exec_timeout slowest_exec_ms peak_rss_mb cpu_affinity \
  edges_found total_edges var_byte_count havoc_expansion auto_dict_entries testcache_size \
  testcache_count testcache_evict afl_banner afl_version target_mode command_line; do
  grep -q "^$key *: " "$S" || fail "fuzzer_stats has no $key"
done
# top's search runs dry at once: one cycle, no find after it, and its
# deepest input is a child's child's child (four tests, one flip each).
"$BIN/glassbox" fuzz -q -i "$SRC/harnesses/top/seeds" -o "$WORK/top" -- "$H/top.trace" "$H/top.cov"
T=$WORK/top/glassbox/fuzzer_stats
expect_eq cycles_done "$(stat_of "$T" cycles_done)" 1
expect_eq cycles_wo_finds "$(stat_of "$T" cycles_wo_finds)" 0
[ "$(stat_of "$T" max_depth)" -ge 3 ] || fail "max_depth is $(stat_of "$T" max_depth)"
[ "$(stat_of "$T" last_crash)" -ge "$(stat_of "$T" start_time)" ] || fail "last_crash before the start"

afl-plot "$WORK/sync/glassbox" "$WORK/plot" >"$WORK/plot.txt" 2>&1 || fail "afl-plot failed: $(tail -3 "$WORK/plot.txt")"
[ -s "$WORK/plot/index.html" ] || fail "afl-plot wrote no index.html"
head -c 8 "$WORK/plot/edges.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "edges.png is not a PNG"
pass "afl-whatsup and afl-plot read Glassbox's files"
