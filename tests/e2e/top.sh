#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The SAGE lecture example: from "good", generational search with
# child.bound = j + 1 runs the program exactly 16 times on 16 distinct
# inputs, and 5 of them abort. The lecture's input has a fixed length, so
# that run turns the length variable off (GLASSBOX_LENGTH=0); with it on,
# the harness's `size >= 4` is one more flip: a 17th run on a shorter input.
. "$(dirname "$0")/lib.sh"
GLASSBOX_LENGTH=0 "$BIN/glassbox" fuzz -q -i "$SRC/harnesses/top/seeds" -o "$WORK/out" -- \
  "$H/top.trace" "$H/top.cov"
S=$WORK/out/glassbox/fuzzer_stats
expect_eq execs_done "$(stat_of "$S" execs_done)" 16
expect_eq traces_done "$(stat_of "$S" traces_done)" 16
expect_eq crashes_seen "$(stat_of "$S" crashes_seen)" 5
expect_eq saved_crashes "$(stat_of "$S" saved_crashes)" 5
expect_eq children_duplicate "$(stat_of "$S" children_duplicate)" 0
# 16 distinct inputs: 11 in the queue, 5 in crashes, no two alike.
distinct=$(for f in "$WORK"/out/glassbox/queue/id:* "$WORK"/out/glassbox/crashes/id:*; do
  sha1sum < "$f"; done | sort -u | wc -l)
expect_eq distinct_inputs "$distinct" 16
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

"$BIN/glassbox" fuzz -q -i "$SRC/harnesses/top/seeds" -o "$WORK/len" -- "$H/top.trace" "$H/top.cov"
S=$WORK/len/glassbox/fuzzer_stats
expect_eq execs_done_with_length "$(stat_of "$S" execs_done)" 17
expect_eq crashes_with_length "$(stat_of "$S" saved_crashes)" 5
short=0
for f in "$WORK"/len/glassbox/queue/id:*; do
  [ "$(wc -c <"$f")" -lt 4 ] && short=$((short + 1))
done
expect_eq inputs_shorter_than_4 "$short" 1
pass "top: 16 runs, 16 distinct inputs, 5 aborts; 17 runs with the length variable"
