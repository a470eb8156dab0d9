#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Names with a line break in a campaign directory (issue 34): a peer
# directory and a seed file so named are skipped with one warning each
# and the campaign goes on, on --resume too (they used to stop the worker
# with "no '/' or line breaks", every time).
. "$(dirname "$0")/lib.sh"
T=$H/top.trace
C=$H/top.cov
OUT=$WORK/out
D=$OUT/glassbox
NL=$'\n'
mkdir -p "$WORK/seeds"
cp "$SRC/harnesses/top/seeds/"* "$WORK/seeds/"
printf 'zz' >"$WORK/seeds/bad${NL}seed"
mkdir -p "$OUT/evil${NL}peer/queue"
printf 'hello' >"$OUT/evil${NL}peer/queue/id:000000,orig:x"

# fuzz_for SECS ARGS...: a run that must end by itself, with status 0.
fuzz_for() {
  local secs=$1 rc=0
  shift
  timeout $((secs + 30)) "$BIN/glassbox" fuzz -q -V "$secs" "$@" -o "$OUT" -- "$T" "$C" \
    2>"$WORK/err" || rc=$?
  [ "$rc" -eq 0 ] || fail "the run stopped (status $rc): $(cat "$WORK/err")"
}

fuzz_for 3 -i "$WORK/seeds"
[ "$(grep -c 'skipped seed' "$WORK/err")" -eq 1 ] || fail "seed warning: $(cat "$WORK/err")"
[ "$(grep -c "peer directory 'evil?peer' skipped" "$WORK/err")" -eq 1 ] ||
  fail "peer warning not said exactly once: $(cat "$WORK/err")"
[ "$(count_ids "$D/queue")" -gt 0 ] || fail "nothing queued"
[ -z "$(find "$D/queue" -name "*${NL}*")" ] || fail "a queue name holds a line break"
fuzz_for 2 --resume
[ "$(grep -c "peer directory 'evil?peer' skipped" "$WORK/err")" -eq 1 ] ||
  fail "--resume: peer warning not said exactly once: $(cat "$WORK/err")"
pass "a peer dir and a seed named with a line break: skipped, one warning each, the run and its --resume went on"
