#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The demo campaign finds the planted GBOX bug from its seed. libFuzzer on
# the same harness with the same time budget is run beside it and reported
# (not asserted).
. "$(dirname "$0")/lib.sh"
budget=${GB_DEMO_BUDGET:-60}
"$BIN/glassbox" fuzz -q -V "$budget" -i "$SRC/harnesses/demo/seeds" -o "$WORK/out" -- \
  "$H/demo.trace" "$H/demo.cov"
S=$WORK/out/glassbox/fuzzer_stats
found=$(stat_of "$S" first_crash_ms)
[ "$(stat_of "$S" saved_crashes)" -ge 1 ] || fail "demo: no crash in ${budget} s ($(stat_of "$S" execs_done) execs, $(stat_of "$S" blocks_covered) blocks)"
replay_crashes "$WORK/out/glassbox/crashes" "$H/demo.cov"
pass "demo: glassbox found the planted bug after ${found} ms ($(stat_of "$S" execs_done) execs)"
# expansions.tsv: one row per expansion (or part of one), whose yields add
# up to the campaign's counters.
X=$WORK/out/glassbox/expansions.tsv
[ "$(head -1 "$X" | cut -f1-3)" = "$(printf 'time_s\tms\tinput')" ] || fail "expansions.tsv: bad header"
rows=$(($(wc -l <"$X") - 1))
[ "$rows" -ge "$(stat_of "$S" inputs_expanded)" ] || fail "expansions.tsv: $rows rows, $(stat_of "$S" inputs_expanded) expansions"
sum() { awk -F'\t' -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } NR > 1 { t += $k } END { print t + 0 }' "$X"; }
[ "$(sum children)" = "$(stat_of "$S" children_generated)" ] || fail "expansions.tsv: children add up to $(sum children), fuzzer_stats says $(stat_of "$S" children_generated)"
[ "$(sum own_blocks)" = "$(stat_of "$S" own_blocks)" ] && [ "$(stat_of "$S" own_blocks)" -gt 0 ] || fail "expansions.tsv: own_blocks add up to $(sum own_blocks), fuzzer_stats says $(stat_of "$S" own_blocks)"
pass "demo: expansions.tsv has $rows rows; children and own blocks add up"
mkdir -p "$WORK/lf" && cp "$SRC"/harnesses/demo/seeds/* "$WORK/lf/"
t0=$(date +%s%N)
if "$H/demo.lf" -max_total_time="$budget" -artifact_prefix="$WORK/" "$WORK/lf" >"$WORK/lf.log" 2>&1; then
  echo "libFuzzer (same harness, ${budget} s): no crash; $(grep -c NEW "$WORK/lf.log" || true) new units"
else
  echo "libFuzzer (same harness, ${budget} s): crash after $(( ($(date +%s%N) - t0) / 1000000 )) ms"
fi
