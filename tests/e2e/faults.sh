#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Faults: a target that crashes at startup or never reaches its harness
# stops the run with one clear line; hangs and unbounded allocation are
# reported once and the run goes on; a full disk pauses writing, says so,
# and the run goes on once space is back, losing nothing.
. "$(dirname "$0")/lib.sh"
P=$BUILD/tests/e2e
mkdir -p "$WORK/seeds" && printf 'xx' >"$WORK/seeds/a"
one_line_error() { # one_line_error PATTERN CMD...
  local pat=$1
  shift
  set +e
  "$@" >/dev/null 2>"$WORK/err"
  local rc=$?
  set -e
  [ "$rc" -eq 1 ] || fail "$*: exit status $rc, want 1: $(cat "$WORK/err")"
  [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "$*: want one line: $(cat "$WORK/err")"
  grep -q "$pat" "$WORK/err" || fail "$*: '$(cat "$WORK/err")' lacks '$pat'"
  pass "$(cat "$WORK/err")"
}
one_line_error "crashed at startup" "$BIN/glassbox" fuzz -q -i "$WORK/seeds" -o "$WORK/o1" -- \
  "$P/startcrash.trace" "$P/startcrash.cov"
one_line_error "exits without reaching its input" "$BIN/glassbox" fuzz -q -i "$WORK/seeds" -o "$WORK/o2" -- \
  "$P/noharness.trace" "$P/noharness.cov"

# Hang and unbounded allocation: seeds that trigger both; the run goes on.
# The time limit leaves room for filling 256 MiB on a loaded machine (at
# 300 ms the allocation loop itself timed out under load and was a hang).
printf 'Hx' >"$WORK/seeds/hang"
printf 'Mx' >"$WORK/seeds/oom"
"$BIN/glassbox" fuzz -q -t 1000 -m 256 -i "$WORK/seeds" -o "$WORK/o3" -V 10 -- \
  "$P/hangoom.trace" "$P/hangoom.cov" 2>"$WORK/err3" || fail "the run stopped: $(cat "$WORK/err3")"
[ "$(grep -c 'time limit' "$WORK/err3")" -eq 1 ] || fail "the hang was not reported exactly once: $(cat "$WORK/err3")"
[ "$(count_ids "$WORK/o3/glassbox/hangs")" -ge 1 ] || fail "no hang saved"
[ "$(count_ids "$WORK/o3/glassbox/crashes")" -ge 1 ] || fail "the allocation under -m 256 was not caught"
[ "$(stat_of "$WORK/o3/glassbox/fuzzer_stats" execs_done)" -gt 3 ] || fail "the run did not go on"
pass "hang reported once and saved; unbounded allocation stopped by -m and saved; the run went on"

# A full disk: a 1 MiB tmpfs (skipped where mounting is not allowed).
mkdir -p "$WORK/tiny"
if ! mount -t tmpfs -o size=16m tmpfs "$WORK/tiny" 2>/dev/null; then
  echo "SKIP: cannot mount a tmpfs here; the disk-full case needs one"
  exit 0
fi
trap 'umount "$WORK/tiny" 2>/dev/null; rm -rf "$WORK"' EXIT
head -c $((16 * 1024 * 1024 - 96 * 1024)) /dev/zero >"$WORK/tiny/filler" 2>/dev/null || true
"$BIN/glassbox" fuzz -q -i "$SRC/harnesses/demo/seeds" -o "$WORK/tiny/out" -V 15 -- \
  "$H/demo.trace" "$H/demo.cov" 2>"$WORK/err4" &
pid=$!
for _ in $(seq 60); do grep -q 'full' "$WORK/err4" && break; sleep 0.5; done
grep -q 'full' "$WORK/err4" || { kill "$pid"; fail "a full disk was not reported: $(cat "$WORK/err4")"; }
before=$(count_ids "$WORK/tiny/out/glassbox/queue")
rm -f "$WORK/tiny/filler"
wait "$pid" || fail "the run failed after space came back: $(cat "$WORK/err4")"
after=$(count_ids "$WORK/tiny/out/glassbox/queue")
[ "$after" -gt "$before" ] || fail "no new inputs after space came back ($before, $after)"
[ "$(grep -c 'full' "$WORK/err4")" -eq 1 ] || fail "the full disk was reported more than once"
ids=$(find "$WORK/tiny/out/glassbox/queue" -name 'id:*' -printf '%f\n' | cut -c4-9 | sort -n | awk '{ if ($1 != NR - 1) bad = 1 } END { print bad ? "gap" : "ok" }')
[ "$ids" = ok ] || fail "queue ids have a gap after the full disk"
pass "full disk: reported once, paused, went on after space came back ($before -> $after queue entries)"
