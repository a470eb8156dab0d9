#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# glassbox campaign: afl-fuzz -M, a libFuzzer job and two Glassbox workers
# on one sync dir stop by themselves after -V, or on SIGINT, leaving no
# process behind; the two workers never expand the same input.
. "$(dirname "$0")/lib.sh"
S=$WORK/sync
leftovers() { pgrep -f -- "$1" | grep -v "^$$\$" || true; }

"$BIN/glassbox" campaign -i "$SRC/harnesses/demo/seeds" -o "$S" --afl 1 --libfuzzer 1 \
  --workers 2 -V 15 -- "$H/demo.trace" "$H/demo.cov" "$H/demo.lf" 2>"$WORK/status.txt" ||
  fail "campaign exited with status $?"
for inst in main glassbox1 glassbox2; do
  [ -f "$S/$inst/fuzzer_stats" ] || fail "no fuzzer_stats for $inst"
done
[ "$(find "$S/libfuzzer" -type f | wc -l)" -gt 0 ] || fail "the libFuzzer job left an empty corpus"
grep -q "glassbox1" "$WORK/status.txt" && grep -q "main" "$WORK/status.txt" || fail "no combined status"
# demo.cov has no demo.afl beside it: AFL++ runs on the cov build, and says so.
grep -q "note: afl-fuzz runs on the Glassbox cov build" "$WORK/status.txt" ||
  fail "no note that afl-fuzz runs without its own build"
[ -z "$(leftovers "$S")" ] || fail "processes left after the campaign: $(leftovers "$S")"
# AFL++ 4.04c reports once a minute: until then its row says "starting"
# rather than the run time 0 and the calibration's execs of its first
# fuzzer_stats; the corpus column's meaning per engine is said under it.
grep -Eq '^ main +afl\+\+ +starting ' "$WORK/status.txt" || fail "no 'starting' row for main: $(grep '^ main' "$WORK/status.txt" | head -2)"
! grep -Eq '^ main +afl\+\+ +live +0s ' "$WORK/status.txt" || fail "main shown live at 0s: $(grep '^ main' "$WORK/status.txt" | head -2)"
grep -q '^ corpus: queue/ entries; AFL++ keeps' "$WORK/status.txt" || fail "no line says what the corpus column counts"
# Each worker's log holds its status lines (workers once ran with -q).
for w in glassbox1 glassbox2; do
  grep -q "^\[$w\].*execs" "$S/.logs/$w.log" || fail "$w's log has no status line"
done

# The same sync dir again without --resume: the workers refuse, and so must
# the campaign, at once and with their reason (it used to exit 0).
t0=$(date +%s)
if "$BIN/glassbox" campaign -i "$SRC/harnesses/demo/seeds" -o "$S" --afl 0 --workers 2 -V 30 \
  -- "$H/demo.trace" "$H/demo.cov" 2>"$WORK/again.txt"; then
  fail "a campaign over a finished one without --resume exited 0"
fi
grep -q "use --resume" "$WORK/again.txt" || fail "the refusal does not say why: $(tail -1 "$WORK/again.txt")"
[ $(( $(date +%s) - t0 )) -le 10 ] || fail "the refused campaign took more than 10 s to fail"

# Expanded inputs, by content, per worker: no overlap.
expanded() { # expanded WORKER_DIR: sha1 of every input in its journal (none without one)
  [ -f "$1/.expanded" ] || return 0
  while read -r kind id; do
    d=queue; [ "$kind" = c ] && d=crashes
    f=$(find "$1/$d" -maxdepth 1 -name "id:$(printf %06d "$id"),*" | head -1)
    [ -n "$f" ] && sha1sum <"$f" | cut -c1-40
  done < <(finished_expansions "$1") | sort -u
}
a=$(expanded "$S/glassbox1")
b=$(expanded "$S/glassbox2")
[ -n "$a" ] && [ -n "$b" ] || fail "a worker expanded nothing"
both=$(comm -12 <(echo "$a") <(echo "$b") | wc -l)
[ "$both" -eq 0 ] || fail "$both inputs were expanded by both workers"
pass "campaign: 4 jobs stopped after -V; workers expanded $(echo "$a" | wc -l) and $(echo "$b" | wc -l) inputs, none twice"

# Ctrl-C stops everything, promptly.
"$BIN/glassbox" campaign -i "$SRC/harnesses/demo/seeds" -o "$WORK/sync2" --afl 1 --workers 1 \
  -V 300 -- "$H/demo.trace" "$H/demo.cov" 2>/dev/null &
pid=$!
sleep 5
kill -INT "$pid"
t0=$(date +%s)
wait "$pid" || fail "campaign exited non-zero after SIGINT"
[ $(( $(date +%s) - t0 )) -le 20 ] || fail "campaign took more than 20 s to stop"
[ -z "$(leftovers "$WORK/sync2")" ] || fail "processes left after SIGINT: $(leftovers "$WORK/sync2")"
[ -f "$WORK/sync2/glassbox/fuzzer_stats" ] && [ -f "$WORK/sync2/main/fuzzer_stats" ] || fail "no stats after SIGINT"
pass "campaign: SIGINT stopped every job within $(( $(date +%s) - t0 )) s"

# The stopped campaign continues without -i: the worker resumes its own dir,
# its counters going on from where they were.
execs0=$(stat_of "$WORK/sync2/glassbox/fuzzer_stats" execs_done)
"$BIN/glassbox" campaign --resume -o "$WORK/sync2" --afl 1 --workers 1 -V 4 -- \
  "$H/demo.trace" "$H/demo.cov" 2>"$WORK/resume.txt" ||
  fail "campaign --resume without -i failed: $(tail -3 "$WORK/resume.txt")"
execs1=$(stat_of "$WORK/sync2/glassbox/fuzzer_stats" execs_done)
[ "$execs1" -gt "$execs0" ] || fail "the worker did not continue its counters ($execs0 -> $execs1)"
pass "campaign --resume without -i: the worker continued ($execs0 -> $execs1 execs)"

# Plots of a Glassbox and an AFL++ instance of the first campaign.
for inst in glassbox1 main; do
  "$BIN/glassbox" plot "$S/$inst" -o "$WORK/plots-$inst" >/dev/null || fail "glassbox plot $inst failed"
  for p in coverage execs queue crashes; do
    head -c 8 "$WORK/plots-$inst/$p.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "$inst: $p.png is not a PNG"
  done
  grep -q 'coverage.png' "$WORK/plots-$inst/index.html" || fail "$inst: index.html does not show the plots"
done
pass "glassbox plot: PNGs and index.html for a Glassbox and an AFL++ instance"

# A whole program that takes its input as "-x FILE": the target arguments
# after a second -- reach afl-fuzz (its command line) and the Glassbox
# worker, which finds the abort behind the bytes read from that file.
C=$BUILD/tests/conformance
if [ ! -x "$C/c-io_args-O2.trace" ] && sanitized_build; then
  echo "SKIP: target arguments after -- (no conformance programs in a sanitized build)"
  exit 0
fi
mkdir -p "$WORK/argseeds"
printf '\x00\x00\x00\x00' >"$WORK/argseeds/seed"
"$BIN/glassbox" campaign -i "$WORK/argseeds" -o "$WORK/sync3" --afl 1 --workers 1 -V 8 -- \
  "$C/c-io_args-O2.trace" "$C/c-io_args-O2.cov" -- -x @@ 2>/dev/null || fail "campaign with ARGS failed"
grep -q -- '-x @@' "$WORK/sync3/main/fuzzer_stats" ||
  fail "afl-fuzz did not get the target arguments: $(grep command_line "$WORK/sync3/main/fuzzer_stats")"
[ "$(count_ids "$WORK/sync3/glassbox/crashes")" -gt 0 ] ||
  fail "the Glassbox worker found no crash in the -x @@ program: $(tail -3 "$WORK/sync3/.logs/glassbox.log")"
for f in "$WORK"/sync3/glassbox/crashes/id:*; do
  if "$C/c-io_args-O2.plain" -x "$f" >/dev/null 2>&1; then fail "crash $f does not replay"; fi
done
pass "campaign: target arguments after a second -- reach afl-fuzz and the worker"
