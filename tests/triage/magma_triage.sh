#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/magma/triage.sh on a made-up Magma build (issue 38): NAME.plain is
# a script that "triggers" the canary a map names for each file, NAME.asan
# the ground-truth target (truth/truth.c). The map labels bug N's inputs
# with two canaries (so their one bucket merges two "bugs") and bugs I and
# A with one (so that "bug" splits over two buckets): the summary must say
# 1 split, 1 merged, and count the unlabelled file as no canary.
# Usage: magma_triage.sh BUILD_DIR SOURCE_DIR TRUTH_ASAN
set -euo pipefail
BUILD=$(cd "$1" && pwd) SRC=$(cd "$2" && pwd) ASAN=$3
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-magma-triage.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL triage.magma: $*" >&2; exit 1; }
byte() { printf "\\$(printf %03o "$1")"; }

mkdir -p "$W/b" "$W/sync/main/crashes" "$W/sync/main/queue"
ln -s "$ASAN" "$W/b/t.asan"
cat >"$W/b/t.plain" <<EOF
#!/usr/bin/env bash
# Magma's replay protocol: "file PATH", the canary's lines, "end STATUS".
for f in "\$@"; do
  echo "file \$f" >>"\$GB_MAGMA_LOG"
  bug=\$(awk -v n="\${f##*/}" '\$1 == n { print \$2 }' "$W/map")
  [ -z "\$bug" ] || echo "triggered \$bug" >>"\$GB_MAGMA_LOG"
  echo "end \$([ -n "\$bug" ] && echo signal 6 || echo exit 0)" >>"\$GB_MAGMA_LOG"
done
EOF
chmod +x "$W/b/t.plain"
# A second harness, first by name, that triggers nothing (as Magma's
# tiff_read_rgba_fuzzer beside tiff_read_rgba_mem): --name picks t.
printf '#!/bin/sh\nfor f; do printf "file %%s\\nend exit 0\\n" "$f" >>"$GB_MAGMA_LOG"; done\n' >"$W/b/a.plain"
chmod +x "$W/b/a.plain"
C=$W/sync/main/crashes
: >"$W/map"
id=0
add() { # add LABEL: $W/in becomes a crash file labelled LABEL (not in a pipe: id counts)
  local name
  name=$(printf 'id:%06d,sig:06,src:000000,time:%d,execs:1,op:havoc,rep:1' $id $id)
  mv "$W/in" "$C/$name"
  [ "$1" = - ] || echo "$name $1" >>"$W/map"
  id=$((id + 1))
}
for k in 0 1 2 3 4 5; do
  n=$((9 + k * 5))
  { printf 'MN'; byte $n; head -c $n /dev/zero | tr '\0' a; } >"$W/in"; add "$([ $k -lt 3 ] && echo TIFA || echo TIFB)"
done
for k in 0 1 2; do
  { printf 'MI'; byte 1; byte $((20 + k * 9)); } >"$W/in"; add TIFC
  { printf 'SA'; byte 1; byte $((9 + k * 7)); } >"$W/in"; add TIFC
  { printf 'MP'; byte 0; printf 'R'; byte 0; printf 'L'; byte 2; byte $k; byte $k; } >"$W/in"; add TIFD
done
{ printf 'MX'; byte 0; } >"$W/in"; add -
printf 'q' >"$W/sync/main/queue/id:000000,orig:seed"

GLASSBOX=$BUILD/bin/glassbox "$SRC/bench/magma/triage.sh" "$W/b" "$W/sync" --name t -o "$W/out" --jobs 1 \
  >"$W/md" 2>"$W/err" || fail "triage.sh failed: $(cat "$W/err")"
cat "$W/md"
grep -qF '4 buckets, 3 likely bugs; 4 bugs triggered by the files; **1 split, 1 merged**' "$W/md" ||
  fail "the totals line: $(grep -F 'buckets' "$W/md" | head -1)"
grep -qF '| TIFC | 6 | 6 | 2 |' "$W/md" || fail "TIFC's row: $(grep TIFC "$W/md" | head -1)"
grep -qF '| TIFA | 3 | 3 | 1 |' "$W/md" || fail "TIFA's row"
grep -qF '| (no canary) | 1 | 0 | 0 |' "$W/md" || fail "the unlabelled file's row"
grep -qE '\| heap-buffer-overflow WRITE \| copy\\_name \\< read\\_chunk \\< decode\\_image \| TIF(A: 3, TIFB|B: 3, TIFA): 3 \|' "$W/md" ||
  fail "the merged bucket's row: $(grep copy "$W/md")"
[ "$(wc -l <"$W/out/labels.tsv")" = 16 ] || fail "labels.tsv: $(wc -l <"$W/out/labels.tsv") lines, want 16"
# A second run into the same OUT is refused: a report adds up.
set +e
"$SRC/bench/magma/triage.sh" "$W/b" "$W/sync" --name t -o "$W/out" >/dev/null 2>"$W/err"
rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'exists' "$W/err" || fail "a second run into OUT: exit $rc, $(cat "$W/err")"
# Two harnesses and no --name: refused, not the first by name.
set +e
"$SRC/bench/magma/triage.sh" "$W/b" "$W/sync" -o "$W/out2" >/dev/null 2>"$W/err"
rc=$?
set -e
[ "$rc" = 2 ] && [ "$(wc -l <"$W/err")" = 1 ] && grep -q 'holds 2 harnesses' "$W/err" ||
  fail "two harnesses without --name: exit $rc, $(cat "$W/err")"
echo "triage.magma: ok"
