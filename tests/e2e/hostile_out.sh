#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A campaign directory others can write to (issue 34): names with a line
# break among the peers and the seeds are skipped with one warning and the
# campaign goes on; on --resume a FIFO in queue/ is skipped instead of
# blocking past -V, a symlink planted at .cur_input, fuzzer_stats or
# plot_data is never written through, and a damaged fuzzer_stats number
# ("run_time : -5") is ignored with one line, never wrapped.
. "$(dirname "$0")/lib.sh"
T=$H/top.trace
C=$H/top.cov
OUT=$WORK/out
D=$OUT/glassbox
NL=$'\n'
mkdir -p "$WORK/seeds"
cp "$SRC/harnesses/top/seeds/"* "$WORK/seeds/"
printf 'zz' >"$WORK/seeds/bad${NL}seed"

# A peer whose directory name holds a line break, with a queue entry.
mkdir -p "$OUT/evil${NL}peer/queue"
printf 'hello' >"$OUT/evil${NL}peer/queue/id:000000,orig:x"

# fuzz_for SECS ARGS...: a run that must end by itself within SECS + 30 s.
fuzz_for() {
  local secs=$1 rc=0
  shift
  timeout $((secs + 30)) "$BIN/glassbox" fuzz -q -V "$secs" "$@" -o "$OUT" -- "$T" "$C" \
    2>"$WORK/err" || rc=$?
  [ "$rc" -ne 124 ] || fail "the run did not end within -V $secs (+30 s): $(cat "$WORK/err")"
  [ "$rc" -eq 0 ] || fail "the run stopped (status $rc): $(cat "$WORK/err")"
}

fuzz_for 3 -i "$WORK/seeds"
[ "$(grep -c 'skipped seed' "$WORK/err")" -eq 1 ] || fail "seed warning: $(cat "$WORK/err")"
[ "$(grep -c "peer directory 'evil?peer' skipped" "$WORK/err")" -eq 1 ] ||
  fail "peer warning not said exactly once: $(cat "$WORK/err")"
[ "$(count_ids "$D/queue")" -gt 0 ] || fail "nothing queued"
[ -z "$(find "$D/queue" -name "*${NL}*")" ] || fail "a queue name holds a line break"
pass "a peer dir and a seed named with a line break: skipped, one warning each, the run went on"

# --resume over planted files.
echo keep >"$WORK/victim"
for f in .cur_input plot_data .expanded; do
  rm -f "$D/$f"
  ln -s "$WORK/victim" "$D/$f"
done
mkfifo "$D/queue/id:999990,planted-fifo"
sed -i 's/^run_time *: .*/run_time          : -5/' "$D/fuzzer_stats"
grep -q 'run_time *: -5' "$D/fuzzer_stats" || fail "could not damage fuzzer_stats"
fuzz_for 3 --resume
[ "$(cat "$WORK/victim")" = keep ] || fail "a symlink planted in OUT was written through"
[ -p "$D/queue/id:999990,planted-fifo" ] || fail "the FIFO in queue/ was replaced"
grep -q 'queue.* skipped' "$WORK/err" || fail "the FIFO in queue/ was not reported: $(cat "$WORK/err")"
grep -q 'fuzzer_stats.*run_time' "$WORK/err" || fail "the bad run_time was not reported: $(cat "$WORK/err")"
rt=$(stat_of "$D/fuzzer_stats" run_time)
[ -n "$rt" ] && [ "$rt" -lt 1000000 ] || fail "run_time after a damaged fuzzer_stats: '$rt'"
[ -f "$D/.cur_input" ] && [ ! -L "$D/.cur_input" ] || fail ".cur_input is not a fresh regular file"
pass "--resume: FIFO skipped within -V, planted symlinks not followed, run_time -5 ignored ($rt s)"
