#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# --resume over a campaign directory others wrote to (issue 34), one hole
# per round: symlinks planted at the instance's own files are never
# written through; a FIFO in queue/ is skipped instead of blocking past
# -V; a damaged fuzzer_stats number ("run_time : -5") is ignored with one
# note, never wrapped to 2^64 - 5. Every round runs, then any failure is
# reported.
. "$(dirname "$0")/lib.sh"
T=$H/top.trace
C=$H/top.cov
OUT=$WORK/out
D=$OUT/glassbox
bad=0
soft_fail() { echo "FAIL: $*" >&2; bad=1; }

# resume_for SECS: a --resume that must end by itself within SECS + 30 s;
# its status in $rc, stderr in $WORK/err.
resume_for() {
  rc=0
  timeout $(($1 + 30)) "$BIN/glassbox" fuzz -q -V "$1" --resume -o "$OUT" -- "$T" "$C" \
    2>"$WORK/err" || rc=$?
}

# 0. The first run, with a symlink planted at the search's scratch files:
# removed, never written through, and the search still expands.
echo keep >"$WORK/victim"
mkdir -p "$D"
ln -s "$WORK/victim" "$D/.cur_trace_input"
ln -s "$WORK/victim" "$D/.cur_trace.gbt"
"$BIN/glassbox" fuzz -q -V 2 -i "$SRC/harnesses/top/seeds" -o "$OUT" -- "$T" "$C" 2>/dev/null ||
  fail "the first run failed"
if [ "$(cat "$WORK/victim")" != keep ]; then soft_fail "a scratch file was written through its planted link"
elif ! [ "$(stat_of "$D/fuzzer_stats" traces_done)" -gt 0 ] 2>/dev/null; then
  soft_fail "no trace was taken beside a planted .cur_trace_input (traces_done $(stat_of "$D/fuzzer_stats" traces_done))"
else pass "links planted at .cur_trace_input and .cur_trace.gbt: removed, the search traced"; fi

# 1. Symlinks at .cur_input, plot_data, .expanded and fuzzer_stats.
echo keep >"$WORK/victim"
for f in .cur_input plot_data .expanded fuzzer_stats; do
  rm -f "$D/$f"
  ln -s "$WORK/victim" "$D/$f"
done
resume_for 2
if [ "$rc" -ne 0 ]; then soft_fail "planted symlinks: the run stopped ($rc): $(cat "$WORK/err")"
elif [ "$(cat "$WORK/victim")" != keep ]; then soft_fail "a symlink planted in OUT/NAME was written through"
elif [ -L "$D/.cur_input" ] || [ -L "$D/fuzzer_stats" ]; then soft_fail "a planted symlink is still in use"
else pass "planted symlinks at .cur_input, plot_data, .expanded, fuzzer_stats: not followed"; fi

# 2. A FIFO among the queue entries.
mkfifo "$D/queue/id:999990,planted-fifo"
resume_for 2
if [ "$rc" -eq 124 ]; then soft_fail "a FIFO in queue/: the run did not end within -V 2 (+30 s)"
elif [ "$rc" -ne 0 ]; then soft_fail "a FIFO in queue/: the run stopped ($rc): $(cat "$WORK/err")"
elif ! grep -q 'queue skipped' "$WORK/err" && ! grep -q 'queue.* skipped' "$WORK/err"; then
  soft_fail "the FIFO in queue/ was not reported: $(cat "$WORK/err")"
elif [ ! -p "$D/queue/id:999990,planted-fifo" ]; then soft_fail "the FIFO in queue/ was replaced"
else pass "a FIFO in queue/: skipped with one note, the run ended within -V"; fi
rm -f "$D/queue/id:999990,planted-fifo"

# 3. run_time : -5.
sed -i 's/^run_time *: .*/run_time          : -5/' "$D/fuzzer_stats"
grep -q 'run_time *: -5' "$D/fuzzer_stats" || fail "could not damage fuzzer_stats"
resume_for 2
rt=$(stat_of "$D/fuzzer_stats" run_time)
if [ "$rc" -ne 0 ]; then soft_fail "run_time -5: the run stopped ($rc): $(cat "$WORK/err")"
elif ! [ -n "$rt" ] || [ "${#rt}" -gt 7 ]; then soft_fail "run_time after '-5': '$rt'"
elif [ "$(grep -c 'fuzzer_stats.*run_time' "$WORK/err")" -ne 1 ]; then
  soft_fail "the bad run_time was not noted once: $(cat "$WORK/err")"
else pass "run_time : -5 ignored with one note (now $rt s)"; fi
[ "$bad" -eq 0 ] || exit 1
