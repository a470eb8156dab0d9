#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A target whose child calls setsid() and double-forks (a daemon) must not
# outlive 'glassbox fuzz' or 'glassbox trace': the process group kill does
# not reach it, so they kill what carries their targets' mark and reap
# what was handed to them as the targets' subreaper (issue 34).
. "$(dirname "$0")/lib.sh"
P=$BUILD/tests/e2e
mkdir -p "$WORK/seeds" && printf 'A' >"$WORK/seeds/a" && printf 'xy' >"$WORK/seeds/b"
# Leftovers of a failed check are this test's own: killed by pid.
cleanup() {
  local p
  for p in $(pgrep -f -- "$P/mb_setsid\." || true); do kill -KILL "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
"$BIN/glassbox" fuzz -q -V 4 -i "$WORK/seeds" -o "$WORK/out" -- "$P/mb_setsid.trace" \
  "$P/mb_setsid.cov" 2>"$WORK/err" || fail "the run stopped: $(cat "$WORK/err")"
sleep 0.5
left=$(pgrep -af -- "$P/mb_setsid\." || true)
[ -z "$left" ] || fail "a setsid() grandchild of the target outlives glassbox fuzz: $left"
pass "a target's setsid() grandchildren do not outlive the run"

# glassbox trace: the one run's setsid() grandchild ends with it too.
"$BIN/glassbox" trace "$WORK/seeds/a" -o "$WORK/a.gbt" -- "$P/mb_setsid.trace" >/dev/null 2>"$WORK/err" ||
  fail "glassbox trace failed: $(cat "$WORK/err")"
sleep 0.5
left=$(pgrep -af -- "$P/mb_setsid\." || true)
[ -z "$left" ] || fail "a setsid() grandchild of the target outlives glassbox trace: $left"
pass "a trace run's setsid() grandchildren do not outlive glassbox trace"
