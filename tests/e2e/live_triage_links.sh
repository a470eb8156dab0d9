#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Live triage writes SYNC/triage, inside the sync dir its peers write to:
# a SYNC/triage that a peer replaced by a symlink is refused with a
# one-line error, and nothing lands where the link points (issue 34).
# (Links inside a report dir: tests/triage/holes.sh symlinks.)
. "$(dirname "$0")/lib.sh"
"$BIN/glassbox" build -o "$WORK/b" "$SRC/tests/e2e/progs/twobugs.c" >/dev/null || fail "glassbox build failed"
mkdir -p "$WORK/seeds" "$WORK/sync" "$WORK/elsewhere"
printf 'zz' >"$WORK/seeds/a"
ln -s "$WORK/elsewhere" "$WORK/sync/triage"
set +e
timeout 120 "$BIN/glassbox" campaign -i "$WORK/seeds" -o "$WORK/sync" --workers 1 -V 5 \
  --triage "$WORK/b/twobugs.asan" -- "$WORK/b/twobugs.trace" "$WORK/b/twobugs.cov" \
  >"$WORK/out.txt" 2>"$WORK/status.txt"
st=$?
set -e
[ -z "$(ls -A "$WORK/elsewhere")" ] || fail "SYNC/triage's link target received: $(ls -A "$WORK/elsewhere")"
[ "$st" != 0 ] || fail "the campaign ran with a symlinked SYNC/triage"
grep -q "triage.*symbolic link" "$WORK/status.txt" || fail "no error naming the link: $(tail -3 "$WORK/status.txt")"
[ -L "$WORK/sync/triage" ] || fail "SYNC/triage's link was replaced"
pass "live triage refuses a symlinked SYNC/triage"
