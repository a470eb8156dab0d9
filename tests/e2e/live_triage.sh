#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Live triage: glassbox campaign --triage buckets every engine's crashes
# into SYNC/triage/ while it runs; progs/twobugs.c has exactly two bugs, so
# however many crash files AFL++ and Glassbox save, there are two buckets,
# and the status and the worker's crash_buckets say 2. glassbox fuzz
# --triage does the same on its own.
. "$(dirname "$0")/lib.sh"
"$BIN/glassbox" build -o "$WORK/b" "$SRC/tests/e2e/progs/twobugs.c" >/dev/null || fail "glassbox build failed"
mkdir -p "$WORK/seeds"
printf 'zz' >"$WORK/seeds/a"
"$BIN/glassbox" campaign -i "$WORK/seeds" -o "$WORK/sync" --afl 1 --workers 1 -V 15 \
  --triage "$WORK/b/twobugs.asan" -- "$WORK/b/twobugs.trace" "$WORK/b/twobugs.cov" \
  2>"$WORK/status.txt" || fail "campaign exited $?: $(tail -2 "$WORK/status.txt")"
T=$WORK/sync/triage
[ -s "$T/summary.json" ] || fail "no SYNC/triage/summary.json"
nb=$(find "$T" -mindepth 2 -maxdepth 2 -name crash.json | wc -l)
crashes=$(find "$WORK/sync"/*/crashes -name 'id:*' | wc -l)
[ "$crashes" -ge 2 ] || fail "only $crashes crash files: nothing to triage"
expect_eq "buckets for $crashes crash files" "$nb" 2
expect_eq crash_buckets "$(stat_of "$WORK/sync/glassbox/fuzzer_stats" crash_buckets)" 2
grep -q "distinct bugs: 2" "$WORK/status.txt" || fail "the status does not show 2 distinct bugs"
# Every engine's crashes are triaged, AFL++'s too: each crash file's bytes
# are in the report's index (REPORT/.seen; byte-identical files are one).
for f in "$WORK/sync"/*/crashes/id:*; do
  h=$(sha1sum <"$f" | cut -c1-40)
  grep -q "\"sha1\":\"$h\"" "$T/.seen" || fail "not triaged: $f"
done

"$BIN/glassbox" fuzz -q -i "$WORK/seeds" -o "$WORK/solo" --triage "$WORK/b/twobugs.asan" \
  -- "$WORK/b/twobugs.trace" "$WORK/b/twobugs.cov" || fail "glassbox fuzz --triage exited $?"
expect_eq "fuzz --triage crash_buckets" "$(stat_of "$WORK/solo/glassbox/fuzzer_stats" crash_buckets)" 2
[ -x "$(find "$WORK/solo/triage" -name repro.sh | head -1)" ] || fail "no repro.sh in the live report"
pass "live triage: $crashes crash files, 2 buckets"
