#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# glassbox campaign runs afl-fuzz on AFL++'s own builds from glassbox
# build: NAME.afl for the main, NAME.cmplog with -c 0 for cmplog. The
# form matters with Debian's AFL++ 4.04c: -c NAME.cmplog would run the
# plain target in the cmplog stage and never pass the 8-byte memcmp magic
# of progs/magic8.c; the cmplog build as the target with -c 0 passes it
# within seconds. Glassbox's worker is left out (--workers 0): the crash
# must be AFL++'s own.
. "$(dirname "$0")/lib.sh"
"$BIN/glassbox" build -o "$WORK/b" "$SRC/tests/e2e/progs/magic8.c" >/dev/null || fail "glassbox build failed"
for b in afl cmplog; do [ -x "$WORK/b/magic8.$b" ] || fail "no magic8.$b"; done
mkdir -p "$WORK/seeds"
printf 'AAAAAAAAAAAAAAAA' >"$WORK/seeds/a"
"$BIN/glassbox" campaign -i "$WORK/seeds" -o "$WORK/sync" --afl 1 --workers 0 -V 25 \
  -- "$WORK/b/magic8.trace" "$WORK/b/magic8.cov" 2>"$WORK/status.txt" ||
  fail "campaign exited $?: $(tail -2 "$WORK/status.txt")"
S=$WORK/sync/main/fuzzer_stats
[ -f "$S" ] || fail "afl-fuzz wrote no fuzzer_stats: $(tail -3 "$WORK/sync/.logs/main.log")"
cl=$(stat_of "$S" command_line)
grep -q -- "-c 0 " <<<"$cl" || fail "the main does not run cmplog with -c 0: $cl"
grep -q -- "magic8.cmplog" <<<"$cl" || fail "the main does not run the cmplog build: $cl"
! grep -q "note: afl-fuzz runs" "$WORK/status.txt" || fail "a note about a missing AFL++ build: $(grep note "$WORK/status.txt")"
n=$(find "$WORK/sync/main/crashes" -name 'id:*' | wc -l)
[ "$n" -ge 1 ] || fail "AFL++ with cmplog did not pass the 8-byte magic in 25 s"
# AFL++ 4.04c leaves the cmplog build's persistent child stopped (SIGSTOP
# between runs) when afl-fuzz exits by its -V: reparented to init, it
# would stay for good, one per campaign. The campaign adopts its jobs'
# orphans (a subreaper) and kills them.
left=$(pgrep -af -- "$WORK/b/magic8\." || true)
[ -z "$left" ] || fail "processes of the campaign's targets outlive it: $left"
pass "afl-fuzz with cmplog (-c 0 on the cmplog build) found the magic8 crash"
