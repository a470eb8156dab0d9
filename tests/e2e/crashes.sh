#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 11, crashes: every fuzz and campaign run ends with a crash summary
# whose counts are the files on disk; --exit-on-crash stops at the first
# crash with status 77 (libFuzzer's) while without it a run goes on to -V
# and exits 0; a campaign's libFuzzer job is started again after each
# crash (libFuzzer stops at its first) and gets -timeout= and -dict=.
. "$(dirname "$0")/lib.sh"
P=$BUILD/tests/e2e

# summary_count FILE CMD: the N of "glassbox CMD: N crash(es) saved" in FILE.
summary_count() { sed -n "s/^glassbox $2: \([0-9]*\) crash\(es\)\? saved.*/\1/p" "$1"; }

# --- fuzz --exit-on-crash on top (its 'bad!' abort is a few runs away).
# A lone worker stops when its worklist runs dry, which top's does within
# a second; beside a peer (here an empty libFuzzer corpus dir) it waits for
# the peer's finds until -V, so -V is what ends the run without the flag.
t0=$(date +%s)
rc=0
"$BIN/glassbox" fuzz -i "$SRC/harnesses/top/seeds" -o "$WORK/x" --libfuzzer-dir "$WORK/x-lf" \
  --exit-on-crash -V 60 -- "$H/top.trace" "$H/top.cov" 2>"$WORK/x.err" || rc=$?
took=$(($(date +%s) - t0))
expect_eq "fuzz --exit-on-crash exit status" "$rc" 77
[ "$took" -le 20 ] || fail "fuzz --exit-on-crash took $took s to stop (-V 60)"
D=$WORK/x/glassbox/crashes
n=$(count_ids "$D")
[ "$n" -ge 1 ] || fail "fuzz --exit-on-crash exited 77 with no crash in $D"
expect_eq "fuzz summary count" "$(summary_count "$WORK/x.err" fuzz)" "$n"
grep -q "^glassbox fuzz: $n crash\(es\)\? saved: $n in $D/\$" "$WORK/x.err" ||
  fail "the summary does not name $D: $(grep 'glassbox fuzz' "$WORK/x.err")"
grep -qF "glassbox replay $D/id:* -- " "$WORK/x.err" || fail "the summary says no replay command"
grep -q "stopped at a new crash (--exit-on-crash)" "$WORK/x.err" || fail "no line says why it stopped"
replay_crashes "$D" "$H/top.cov"
pass "fuzz --exit-on-crash: status 77 after $took s with $n crash(es); the summary counts them"

# Without the flag: the same run goes on to -V and exits 0; under -q the
# summary is one line.
t0=$(date +%s)
"$BIN/glassbox" fuzz -q -i "$SRC/harnesses/top/seeds" -o "$WORK/y" --libfuzzer-dir "$WORK/y-lf" \
  -V 6 -- "$H/top.trace" "$H/top.cov" 2>"$WORK/y.err" || fail "fuzz without --exit-on-crash exited $?"
took=$(($(date +%s) - t0))
[ "$took" -ge 5 ] || fail "fuzz without --exit-on-crash stopped after $took s, before -V 6"
D=$WORK/y/glassbox/crashes
n=$(count_ids "$D")
[ "$n" -ge 1 ] || fail "no crash in $D"
expect_eq "fuzz -q summary count" "$(summary_count "$WORK/y.err" fuzz)" "$n"
expect_eq "fuzz -q stderr lines" "$(wc -l <"$WORK/y.err")" 1
pass "fuzz without --exit-on-crash: ran $took s to -V, exit 0, one summary line under -q ($n crash files)"

# No crash: one line that says so (factor.c's gates are factoring problems).
mkdir -p "$WORK/fseeds"
head -c 192 /dev/zero | tr '\0' A >"$WORK/fseeds/a"
"$BIN/glassbox" fuzz -q --solver-timeout 300 -V 2 -i "$WORK/fseeds" -o "$WORK/z" --exit-on-crash \
  -- "$P/factor.trace" "$P/factor.cov" 2>"$WORK/z.err" || fail "fuzz without a crash exited $?"
expect_eq "no-crash summary" "$(cat "$WORK/z.err")" \
  "glassbox fuzz: no crashes saved in $WORK/z/glassbox/crashes/"
pass "fuzz without a crash: exit 0 (even with --exit-on-crash) and one line"

# --- campaign: a libFuzzer job on twobugs.c (two 2-byte bugs) crashes
# within seconds; it must be started again each time, with -t and -x.
"$BIN/glassbox" build -o "$WORK/b" "$SRC/tests/e2e/progs/twobugs.c" >/dev/null || fail "glassbox build failed"
mkdir -p "$WORK/seeds"
printf 'zz' >"$WORK/seeds/a"
printf 'bang="A!"\n' >"$WORK/dict"
S=$WORK/sync
L=$S/.logs/libfuzzer1.log
"$BIN/glassbox" campaign -i "$WORK/seeds" -o "$S" --afl 0 --workers 0 --libfuzzer 1 -t 1500 \
  -x "$WORK/dict" -V 20 -- "$WORK/b/twobugs.trace" "$WORK/b/twobugs.cov" "$WORK/b/twobugs.lf" \
  2>"$WORK/c.err" || fail "campaign exited $?: $(tail -2 "$WORK/c.err")"
units=$(grep -c "Test unit written to $S/libfuzzer-crashes/" "$L" || true)
[ "$units" -ge 2 ] || fail "libFuzzer saved $units crash(es): it was not restarted after its first: $(tail -3 "$L")"
grep -q "^glassbox campaign: restart 1 of libfuzzer1 after a crash" "$L" || fail "no restart in $L"
# Every run of the job had -timeout (1500 ms rounded up) and the dictionary.
runs=$(grep -c "^glassbox campaign: running " "$L")
expect_eq "runs with -timeout=2 -dict=" "$(grep "^glassbox campaign: running " "$L" |
  grep -- " -timeout=2 " | grep -c -- " -dict=$WORK/dict")" "$runs"
grep -q "^Dictionary: 1 entries" "$L" || fail "libFuzzer did not load the dictionary"
n=$(find "$S/libfuzzer-crashes" -name 'crash-*' | wc -l)
expect_eq "campaign summary count" "$(summary_count "$WORK/c.err" campaign)" "$n"
grep -qF "$n in $S/libfuzzer-crashes/crash-*" "$WORK/c.err" ||
  fail "the summary does not name libfuzzer-crashes: $(grep 'glassbox campaign' "$WORK/c.err")"
grep -qF "glassbox replay $S/libfuzzer-crashes/crash-* -- $WORK/b/twobugs.asan" "$WORK/c.err" ||
  fail "the summary's replay command is not on twobugs.asan"
for f in "$S"/libfuzzer-crashes/crash-*; do
  if "$WORK/b/twobugs.asan" "$f" >/dev/null 2>&1; then fail "$f does not crash twobugs.asan"; fi
done
pass "campaign: libFuzzer ran $runs times ($units crashes saved, $n distinct files), each with -timeout=2 and -dict"

# --exit-on-crash in a campaign: libFuzzer's crash (the only engine here)
# ends it with status 77.
t0=$(date +%s)
rc=0
"$BIN/glassbox" campaign -i "$WORK/seeds" -o "$WORK/sync2" --afl 0 --workers 0 --libfuzzer 1 \
  --exit-on-crash -V 120 -- "$WORK/b/twobugs.trace" "$WORK/b/twobugs.cov" "$WORK/b/twobugs.lf" \
  2>"$WORK/c2.err" || rc=$?
took=$(($(date +%s) - t0))
expect_eq "campaign --exit-on-crash exit status" "$rc" 77
[ "$took" -le 60 ] || fail "campaign --exit-on-crash took $took s"
n=$(find "$WORK/sync2/libfuzzer-crashes" -name 'crash-*' | wc -l)
expect_eq "campaign --exit-on-crash summary count" "$(summary_count "$WORK/c2.err" campaign)" "$n"
[ -z "$(pgrep -f -- "$WORK/sync2" || true)" ] || fail "processes left after --exit-on-crash"
pass "campaign --exit-on-crash: libFuzzer's crash ended it after $took s with status 77"
