#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Targets that misbehave, each contained and the run goes on (issue 13):
# one that signals its own process group (its forkserver with it), one
# that leaves a child running, one that writes to and closes the
# forkserver's descriptors, floods its output and changes directory, and
# a whole program that deletes its input file.
. "$(dirname "$0")/lib.sh"
P=$BUILD/tests/e2e
mkdir -p "$WORK/seeds" && printf 'A' >"$WORK/seeds/a" && printf 'xy' >"$WORK/seeds/b"
fuzz() { # fuzz NAME OUT [TARGET ARGS...]: 6 s of glassbox fuzz; stderr in OUT.err
  local name=$1 out=$2
  shift 2
  "$BIN/glassbox" fuzz -q -V 6 -i "$WORK/seeds" -o "$WORK/$out" -- "$P/$name.trace" \
    "$P/$name.cov" "$@" 2>"$WORK/$out.err" || fail "$name: the run stopped: $(cat "$WORK/$out.err")"
}

# kill(0, SIGTERM) on 'A': the forkserver dies on that input, twice; said
# once, the input dropped, the run goes on with a new forkserver and still
# finds the crash behind "xQ!".
fuzz mb_pgkill pg
[ "$(grep -c 'kill its own forkserver' "$WORK/pg.err")" -eq 1 ] ||
  fail "mb_pgkill: not reported exactly once: $(cat "$WORK/pg.err")"
[ "$(count_ids "$WORK/pg/glassbox/crashes")" -ge 1 ] || fail "mb_pgkill: the run found nothing after it"
pass "a target that kills its forkserver: reported once, the run went on and found the crash"

# A child that sleeps for minutes, from the trace and the cov build alike.
fuzz mb_orphan orphan
sleep 0.5
left=$(pgrep -af -- "$P/mb_orphan\." || true)
[ -z "$left" ] || fail "mb_orphan: the target's children outlive the run: $left"
pass "a target's children do not outlive the run"

fuzz mb_noise noise
[ "$(count_ids "$WORK/noise/glassbox/crashes")" -ge 1 ] || fail "mb_noise: the run found nothing"
[ ! -s "$WORK/noise.err" ] || ! grep -q xxxxxxxx "$WORK/noise.err" ||
  fail "mb_noise: the target's output reached the fuzzer's stderr"
pass "fds 198/199 written and closed, 8 MiB of output, a chdir: the run went on and found the crash"

# Deleting the input file must not blind every later run.
printf 'q' >"$WORK/seeds/a" && rm -f "$WORK/seeds/b"
fuzz mb_unlink unlink @@
[ "$(count_ids "$WORK/unlink/glassbox/crashes")" -ge 1 ] ||
  fail "mb_unlink: 'Z' not found after the target deleted its input file: $(cat "$WORK/unlink.err")"
pass "a program that deletes its input file: the file is made again, the crash found"
