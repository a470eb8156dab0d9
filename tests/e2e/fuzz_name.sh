#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# fuzz -n NAME: an empty name, one with '/' or a control byte is a bad
# option (one line, exit 2, nothing written), not the default quietly
# used in its place while the summary looks in OUT//crashes (issue 34).
. "$(dirname "$0")/lib.sh"
T=$H/top.trace
C=$H/top.cov
for n in "" "a/b" $'a\nb' $'a\tb' "."; do
  set +e
  "$BIN/glassbox" fuzz -q -V 2 -n "$n" -i "$SRC/harnesses/top/seeds" -o "$WORK/out" -- "$T" "$C" \
    >/dev/null 2>"$WORK/err"
  rc=$?
  set -e
  shown=$(printf '%q' "$n")
  [ "$rc" -eq 2 ] || fail "-n $shown: exit status $rc (want 2): $(cat "$WORK/err")"
  [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "-n $shown: want one line on stderr, got: $(cat "$WORK/err")"
  grep -q 'bad campaign name' "$WORK/err" || fail "-n $shown: $(cat "$WORK/err")"
  [ ! -e "$WORK/out" ] || fail "-n $shown: OUT was created"
  pass "-n $shown refused: $(cat "$WORK/err")"
done
