#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A lone afl-fuzz beside a Glassbox worker (--afl 1 --workers 1) runs as
# -S, not -M: in AFL++ 4.04c -M forces the sequential queue walk and turns
# trimming off. With no -M in the sync dir, the -S makes itself main
# (is_main_node, removed again when it exits) at its first sync and must
# then import the worker's finds: on magiccrc (a 4-byte magic and a CRC,
# which AFL++ alone does not pass) its queue gets sync:glassbox entries.
. "$(dirname "$0")/lib.sh"
budget=${GB_LONE_BUDGET:-45}
S=$WORK/sync
"$BIN/glassbox" campaign -i "$SRC/harnesses/magiccrc/seeds" -o "$S" --afl 1 --workers 1 \
  -V "$budget" -- "$H/magiccrc.trace" "$H/magiccrc.cov" 2>"$WORK/status.txt" ||
  fail "campaign exited $?: $(tail -2 "$WORK/status.txt")"
F=$S/main/fuzzer_stats
[ -f "$F" ] || fail "afl-fuzz wrote no fuzzer_stats: $(tail -3 "$S/.logs/main.log")"
cl=$(stat_of "$F" command_line)
case "$cl" in
  *" -S main "*) ;;
  *) fail "the lone afl-fuzz is not -S main: $cl" ;;
esac
n_gb=$(count_ids "$S/glassbox/queue")
n_sync=$(count_ids "$S/main/queue" 'sync:glassbox')
[ "$n_sync" -ge 1 ] || fail "afl-fuzz -S imported none of the worker's $n_gb inputs in ${budget} s"
pass "lone afl-fuzz runs -S main and imported $n_sync of the worker's $n_gb inputs"
