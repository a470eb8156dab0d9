#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Two workers on one sync dir share learned clauses: the first learns them
# on the crackme, the second (another name, run after it, from a seed the
# first never ran) loads OUT/w1/clauses/ and refutes queries with them.
. "$2/tests/e2e/lib.sh"
"$BIN/glassbox" fuzz -q -V 5 -n w1 -i "$SRC/harnesses/crackme/seeds" -o "$WORK/sync" -- \
  "$H/crackme.trace" "$H/crackme.cov"
[ -s "$WORK/sync/w1/clauses/clauses.gbc" ] || fail "w1 wrote no clauses"
learned=$(stat_of "$WORK/sync/w1/fuzzer_stats" clauses_learned)
[ "$learned" -gt 0 ] || fail "w1 learned no clause"
mkdir -p "$WORK/seeds2"
(cat "$SRC"/harnesses/crackme/seeds/*; printf 'X') >"$WORK/seeds2/longer"
"$BIN/glassbox" fuzz -q -V 5 -n w2 -i "$WORK/seeds2" -o "$WORK/sync" -- \
  "$H/crackme.trace" "$H/crackme.cov"
S=$WORK/sync/w2/fuzzer_stats
loaded=$(stat_of "$S" clauses_loaded)
cut=$(stat_of "$S" queries_cut_clause)
[ "$loaded" -gt 0 ] || fail "w2 loaded no clause"
[ "$cut" -gt 0 ] || fail "w2 cut no query with a clause ($(grep queries "$S" | tr '\n' ' '))"
# a corrupted peer file is skipped, not fatal
printf 'garbage' >"$WORK/sync/w1/clauses/bad.gbc"
"$BIN/glassbox" fuzz -q -V 2 -n w3 -i "$WORK/seeds2" -o "$WORK/sync" -- \
  "$H/crackme.trace" "$H/crackme.cov" || fail "w3 failed on a corrupted peer clause file"
# --solver-budget reaches the solver: with 1 ms per expansion, flips of
# sites that never paid are skipped instead of sent to Z3 (its own sync
# dir; the demo, whose CRCs and lengths need Z3: the crackme's one- and
# two-byte queries are all answered before it)
"$BIN/glassbox" fuzz -q -V 3 -n w4 --solver-budget 1 -i "$SRC/harnesses/demo/seeds" \
  -o "$WORK/sync4" -- "$H/demo.trace" "$H/demo.cov" || fail "w4 (--solver-budget 1) failed"
skips=$(stat_of "$WORK/sync4/w4/fuzzer_stats" queries_budget_skip)
[ "$skips" -gt 0 ] || fail "--solver-budget 1 skipped no query ($(grep queries "$WORK/sync4/w4/fuzzer_stats" | tr "\n" " "))"
[ "$(stat_of "$S" queries_budget_skip)" -eq 0 ] || fail "w2 skipped queries with the default budget"
"$BIN/glassbox" fuzz -q --solver-budget 0 -i "$WORK/seeds2" -o "$WORK/sync5" -- \
  "$H/crackme.trace" "$H/crackme.cov" 2>/dev/null && fail "--solver-budget 0 accepted"
pass "share: w1 learned $learned clauses, w2 loaded $loaded and cut $cut queries with them; budget 1 ms skipped $skips"
