#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# glassbox trace -o never deletes or writes through what is at -o: a
# device, a FIFO, a symlink or the input file itself is refused before the
# run, with one line, and left as it was; a regular file is replaced.
. "$(dirname "$0")/lib.sh"
T=$H/top.trace
IN=$SRC/harnesses/top/seeds/good
[ -f "$IN" ] || IN=$(find "$SRC/harnesses/top/seeds" -type f | head -1)
cp "$IN" "$WORK/in"

# Every case runs; failures are counted and reported at the end.
bad=0
soft_fail() { echo "FAIL: $*" >&2; bad=1; }

# refused NAME PATH: trace -o PATH fails with one stderr line naming it.
refused() {
  set +e
  timeout 20 "$BIN/glassbox" trace "$WORK/in" -o "$2" -- "$T" >/dev/null 2>"$WORK/err.txt"
  local rc=$?
  set -e
  if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
    soft_fail "$1: exit status $rc (want 1 or 2): $(cat "$WORK/err.txt")"
  elif [ "$(wc -l <"$WORK/err.txt")" -ne 1 ]; then
    soft_fail "$1: want one line on stderr, got: $(cat "$WORK/err.txt")"
  else
    pass "$1 refused: $(cat "$WORK/err.txt")"
  fi
}

# A symlink: the link stays a link, its target keeps its bytes.
echo keep >"$WORK/victim"
ln -s "$WORK/victim" "$WORK/link.gbt"
refused symlink "$WORK/link.gbt"
[ -L "$WORK/link.gbt" ] || soft_fail "the symlink at -o was replaced"
[ "$(cat "$WORK/victim")" = keep ] || soft_fail "the symlink's target was changed"

# A FIFO stays a FIFO (and nothing blocks on it: timeout above).
mkfifo "$WORK/fifo.gbt"
refused fifo "$WORK/fifo.gbt"
[ -p "$WORK/fifo.gbt" ] || soft_fail "the FIFO at -o was replaced"

# A character device stays a device: one of our own where we may make it
# (root, who could delete any), else /dev/null.
DEV=/dev/null
mknod "$WORK/dev.gbt" c 1 3 2>/dev/null && DEV=$WORK/dev.gbt
refused device "$DEV"
[ -c "$DEV" ] || soft_fail "$DEV is no longer a character device"

# The input itself, by name and by a hard link: kept, byte for byte.
refused input "$WORK/in"
cmp -s "$IN" "$WORK/in" || soft_fail "the input file was changed or deleted"
cp "$IN" "$WORK/in"
ln "$WORK/in" "$WORK/in-hard.gbt"
refused input-hardlink "$WORK/in-hard.gbt"
cmp -s "$IN" "$WORK/in" || soft_fail "the input file was changed through its hard link"
[ "$bad" -eq 0 ] || exit 1

# A regular file is replaced by the trace; no private name is left over.
echo old >"$WORK/t.gbt"
"$BIN/glassbox" trace "$WORK/in" -o "$WORK/t.gbt" -- "$T" >/dev/null || fail "trace to a regular file failed"
"$BIN/glassbox" show "$WORK/t.gbt" | grep -q '(check-sat)' || fail "the trace written is not a trace"
[ -z "$(find "$WORK" -name '.gb-*')" ] || fail "left behind: $(find "$WORK" -name '.gb-*')"
pass "a regular file at -o is replaced by the trace"
