#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The SAGE lecture example: from "good", generational search with
# child.bound = j + 1 runs the program exactly 16 times on 16 distinct
# inputs, and 5 of them abort (--no-cfg: the lecture's search, every flip
# solved). A crash is saved when it covers a block no saved crash covered
# (AFL++'s rule): the first abort covers three of the four tests' blocks,
# the second the fourth, and the other three nothing new, so 2 are saved. The lecture's input has a fixed length, so that run turns the
# length variable off (GLASSBOX_LENGTH=0); with it on, the harness's
# `size >= 4` is one more flip: a 17th run on a shorter input. With the
# static CFG, flips that can only reach covered blocks are skipped: fewer
# runs, the same blocks, the abort still found.
. "$(dirname "$0")/lib.sh"
GLASSBOX_LENGTH=0 "$BIN/glassbox" fuzz -q --no-cfg -i "$SRC/harnesses/top/seeds" -o "$WORK/out" \
  -- "$H/top.trace" "$H/top.cov"
S=$WORK/out/glassbox/fuzzer_stats
# The whole command line, however long (it was once cut at 63 characters).
expect_eq command_line "$(stat_of "$S" command_line)" \
  "glassbox fuzz -q --no-cfg -i $SRC/harnesses/top/seeds -o $WORK/out -- $H/top.trace $H/top.cov"
expect_eq execs_done "$(stat_of "$S" execs_done)" 16
expect_eq traces_done "$(stat_of "$S" traces_done)" 16
expect_eq crashes_seen "$(stat_of "$S" crashes_seen)" 5
expect_eq saved_crashes "$(stat_of "$S" saved_crashes)" 2
expect_eq children_duplicate "$(stat_of "$S" children_duplicate)" 0
# No flip was backed off, so no retry round: the search ends on its own.
expect_eq retry_rounds "$(stat_of "$S" retry_rounds)" 0
expect_eq search_state "$(stat_of "$S" search_state)" done
# 13 distinct inputs kept: 11 in the queue, 2 in crashes, no two alike.
distinct=$(for f in "$WORK"/out/glassbox/queue/id:* "$WORK"/out/glassbox/crashes/id:*; do
  sha1sum < "$f"; done | sort -u | wc -l)
expect_eq distinct_inputs "$distinct" 13
# Exactly the inputs with three or four matches of "bad!" abort.
for f in "$WORK"/out/glassbox/crashes/id:*; do
  b=$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')
  m=0
  [ "${b:0:2}" = 62 ] && m=$((m + 1))
  [ "${b:2:2}" = 61 ] && m=$((m + 1))
  [ "${b:4:2}" = 64 ] && m=$((m + 1))
  [ "${b:6:2}" = 21 ] && m=$((m + 1))
  [ "$m" -ge 3 ] || fail "crash $f ($b) has only $m matches of bad!"
done
replay_crashes "$WORK/out/glassbox/crashes" "$H/top.cov"
pass "top: 16 runs, 16 distinct inputs, 5 aborts, 2 of them saved"

"$BIN/glassbox" fuzz -q --no-cfg -i "$SRC/harnesses/top/seeds" -o "$WORK/len" -- \
  "$H/top.trace" "$H/top.cov"
S=$WORK/len/glassbox/fuzzer_stats
expect_eq execs_done_with_length "$(stat_of "$S" execs_done)" 17
expect_eq crashes_with_length "$(stat_of "$S" crashes_seen)" 5
short=0
for f in "$WORK"/len/glassbox/queue/id:*; do
  [ "$(wc -c <"$f")" -lt 4 ] && short=$((short + 1))
done
expect_eq inputs_shorter_than_4 "$short" 1
pass "top with the length variable: 17 runs, one of them on a shorter input"

"$BIN/glassbox" fuzz -q -i "$SRC/harnesses/top/seeds" -o "$WORK/cfg" -- "$H/top.trace" "$H/top.cov"
C=$WORK/cfg/glassbox/fuzzer_stats
expect_eq blocks_covered "$(stat_of "$C" blocks_covered)" "$(stat_of "$S" blocks_covered)"
[ "$(stat_of "$C" flips_skipped_cfg)" -gt 0 ] || fail "the CFG skipped no flip"
[ "$(stat_of "$C" execs_done)" -lt 17 ] || fail "the CFG saved no run: $(stat_of "$C" execs_done)"
[ "$(stat_of "$C" saved_crashes)" -ge 1 ] || fail "with the CFG, the abort was not found"
replay_crashes "$WORK/cfg/glassbox/crashes" "$H/top.cov"
pass "top with the CFG: $(stat_of "$C" execs_done) runs, $(stat_of "$C" flips_skipped_cfg) flips skipped, the same blocks, the abort found"

# A crashing seed: its children name it as src:crashNNNNNN (they once said
# src:-00001), and the queue stays numbered from 0.
mkdir -p "$WORK/cseed"
printf 'bad!' >"$WORK/cseed/bad"
"$BIN/glassbox" fuzz -q -i "$WORK/cseed" -o "$WORK/cs" -- "$H/top.trace" "$H/top.cov"
names=$(ls "$WORK/cs/glassbox/queue" "$WORK/cs/glassbox/crashes")
! grep -q 'src:-' <<<"$names" || fail "a negative src id: $(grep 'src:-' <<<"$names" | head -1)"
grep -q '^id:000000,src:crash000000,' <<<"$names" || fail "no child of the crashing seed in queue/: $names"
pass "children of a crashing seed name it"
