#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Core lending (campaign --lend-after): a worker that found nothing for
# the given time pauses (it waits on SYNC/.lend/glassbox.pause, which the
# campaign makes) and its core goes to an extra afl-fuzz, -S lent1 on the
# plain build; the core comes back after that turn, and lent1 is held
# with SIGSTOP meanwhile. Checked with 3 s turns on a worker that stays
# busy without finding: the lines
# saying so, lent1's own sync dir and command line, the worker's pauses
# in its fuzzer_stats, no pause file and no afl-fuzz left at the end.
# With --lend-after 0 nothing is lent. And glassbox fuzz --pause-file
# alone: one wait to the end of -V is one pause.
. "$(dirname "$0")/lib.sh"
budget=${GB_LEND_BUDGET:-40}
P=$BUILD/tests/e2e
S=$WORK/sync
# stall.c (e2e.progress): every child takes a step further through blanks
# and zeros and none covers a new block, so the worker keeps adding
# children to its queue/ without a find; its finds are read from its
# fuzzer_stats (a count of its queue/ never stops growing).
mkdir -p "$WORK/seeds"
printf '  0012345678' >"$WORK/seeds/a"
GLASSBOX_SOLVER_TIMEOUT=5 "$BIN/glassbox" campaign -i "$WORK/seeds" -o "$S" --afl 1 --workers 1 \
  --lend-after 3 -V "$budget" -- "$P/stall.trace" "$P/stall.cov" 2>"$WORK/status.txt" ||
  fail "campaign exited $?: $(tail -2 "$WORK/status.txt")"
grep -q "at [0-9]* s, glassbox found nothing for 3 s: its core goes to afl-fuzz lent1" "$WORK/status.txt" ||
  fail "the worker's core was never lent: $(grep 'glassbox campaign' "$WORK/status.txt" | tail -3)"
grep -q "at [0-9]* s, lent1's turn is over (.*): the core goes back to glassbox" "$WORK/status.txt" ||
  fail "the core never came back to the worker"
F=$S/lent1/fuzzer_stats
[ -f "$F" ] || fail "lent1 wrote no fuzzer_stats: $(tail -3 "$S/.logs/lent1.log" 2>/dev/null)"
cl=$(stat_of "$F" command_line)
case "$cl" in
  *" -S lent1 "*) ;;
  *) fail "lent1 is not -S lent1: $cl" ;;
esac
G=$S/glassbox/fuzzer_stats
pauses=$(stat_of "$G" pauses)
paused=$(stat_of "$G" paused_s)
[ "${pauses:-0}" -ge 1 ] && [ "${paused:-0}" -ge 1 ] ||
  fail "the worker never paused: pauses=$pauses paused_s=$paused"
n_q=$(count_ids "$S/glassbox/queue")
[ "$n_q" -gt 20 ] || fail "the worker made only $n_q queue entries: not the busy worker this test needs"
[ ! -e "$S/.lend/glassbox.pause" ] || fail "the pause file outlived the campaign"
if pgrep -f -- "-o $S " >/dev/null; then fail "a process of the campaign outlived it: $(pgrep -af -- "-o $S ")"; fi
pass "the worker ($n_q queue entries, none a find) paused $pauses times ($paused s) and lent1 ran on its core"

S0=$WORK/sync0
"$BIN/glassbox" campaign -i "$SRC/harnesses/magiccrc/seeds" -o "$S0" --afl 1 --workers 1 \
  --lend-after 0 -V 12 -- "$H/magiccrc.trace" "$H/magiccrc.cov" 2>"$WORK/status0.txt" ||
  fail "campaign --lend-after 0 exited $?: $(tail -2 "$WORK/status0.txt")"
[ ! -e "$S0/lent1" ] || fail "--lend-after 0 lent the core"
expect_eq "pauses with --lend-after 0" "$(stat_of "$S0/glassbox/fuzzer_stats" pauses)" 0
pass "--lend-after 0 keeps the worker's core"

# glassbox fuzz --pause-file alone: a pause file there from the start
# holds the worker until -V ends it, and that one wait counts once.
S1=$WORK/solo
mkdir -p "$S1"
: >"$S1/pause"
"$BIN/glassbox" fuzz -i "$SRC/harnesses/magiccrc/seeds" -o "$S1/out" -V 3 --pause-file "$S1/pause" \
  -- "$H/magiccrc.trace" "$H/magiccrc.cov" >"$WORK/solo.txt" 2>&1 ||
  fail "fuzz --pause-file exited $?: $(tail -2 "$WORK/solo.txt")"
expect_eq "pauses of one wait to the end of -V" "$(stat_of "$S1/out/glassbox/fuzzer_stats" pauses)" 1
paused=$(stat_of "$S1/out/glassbox/fuzzer_stats" paused_s)
[ "${paused:-0}" -ge 2 ] || fail "the worker did not wait on its pause file: paused_s=$paused"
pass "a pause file held glassbox fuzz for $paused s, counted once"
