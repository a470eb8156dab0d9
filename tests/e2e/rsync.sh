#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The multi-machine scheme of docs/scaling.md on one machine: two sync dirs
# ("hosts") each run a Glassbox instance; rsync pushes each host's own
# instance dir to the other; on the next run each instance imports the
# other's queue.
. "$(dirname "$0")/lib.sh"
command -v rsync >/dev/null || fail "rsync is not installed (scripts/build installs it)"
A=$WORK/host1
B=$WORK/host2
run() { # run SYNC NAME SEEDS [--resume]
  local sync=$1 name=$2 seeds=$3
  shift 3
  "$BIN/glassbox" fuzz -q "$@" ${seeds:+-i "$seeds"} -o "$sync" -n "$name" -V 4 -- \
    "$H/demo.trace" "$H/demo.cov"
}
run "$A" gb-host1 "$SRC/harnesses/demo/seeds"
mkdir -p "$WORK/seeds2" && printf 'GBOX' >"$WORK/seeds2/other"
run "$B" gb-host2 "$WORK/seeds2"
push() { rsync -a --delay-updates --exclude '.cur_*' --exclude '.tmp/' "$1" "$2/"; }
push "$A/gb-host1" "$B"
push "$B/gb-host2" "$A"
[ "$(count_ids "$B/gb-host1/queue")" -eq "$(count_ids "$A/gb-host1/queue")" ] || fail "rsync copied a partial queue"
run "$A" gb-host1 "" --resume
run "$B" gb-host2 "" --resume
n_a=$(count_ids "$A/gb-host1/queue" 'sync:gb-host2')
n_b=$(count_ids "$B/gb-host2/queue" 'sync:gb-host1')
[ "$n_b" -ge 1 ] || fail "host2 imported nothing from host1's pushed instance"
[ "$n_a" -ge 1 ] || fail "host1 imported nothing from host2's pushed instance"
pass "rsync exchange: host1 imported $n_a of host2's inputs, host2 imported $n_b of host1's"
