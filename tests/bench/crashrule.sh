#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.magma_crashrule (issue 36): bench/magma/crashrule.sh on a made-up
# Magma build: NAME.plain a script that "triggers" the canary a map names
# for each file, NAME.edge the cmin tests' afl-clang-fast target. The
# stream is built so that the two rules part: a new edge set whose pairs
# were all seen (kept by the fine rule only), the same edge set with a new
# hit-count bucket (kept by AFL++'s rule only), a copy (kept by neither),
# and a bug whose first file is a copy (its first kept file comes later).
# Usage: crashrule.sh SOURCE_DIR, with GB_CMIN_T naming the target's builds.
set -euo pipefail
SRC=$(cd "$1" && pwd)
T=${GB_CMIN_T:?GB_CMIN_T names the cmin tests target}.afl
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-crashrule.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL bench.magma_crashrule: $*" >&2; exit 1; }
[ -x "$T" ] || fail "no afl-clang-fast build $T (scripts/build installs afl++)"
T=$(realpath "$T")
export AFL_QUIET=1 AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1

mkdir -p "$W/b" "$W/sync/main/crashes" "$W/sync/w/crashes"
ln -s "$T" "$W/b/t.edge"
cat >"$W/b/t.plain" <<EOF
#!/usr/bin/env bash
for f in "\$@"; do
  echo "file \$f" >>"\$GB_MAGMA_LOG"
  bug=\$(awk -v n="\$(cat "\$f")" '\$1 == n { print \$2 }' "$W/map")
  [ -z "\$bug" ] || echo "triggered \$bug" >>"\$GB_MAGMA_LOG"
  echo "end signal 6" >>"\$GB_MAGMA_LOG"
done
EOF
chmod +x "$W/b/t.plain"
START=1700000000
k=0
# add INSTANCE CONTENT BUG: a crash file saved at START + 10 k s, labelled
# BUG by its content (so a copy of a map is a content the target reads the
# same: "Laa" runs as "La" does)
add() {
  local f
  f=$(printf '%s/sync/%s/crashes/id:%06d,sig:06' "$W" "$1" $k)
  printf '%s' "$2" >"$f"
  touch -d "@$((START + 10 * k))" "$f"
  echo "$2 $3" >>"$W/map"
  k=$((k + 1))
}
ones() { printf 'D'; head -c "$1" /dev/zero | tr '\0' 1; }
add main La A                 # 0 s: new
add main Dx1 A                # 10 s: new
add main D1 'B|1'             # 20 s: new edges
add main Dx 'B|1'             # 30 s: a new set, every pair seen before
add main "$(ones 17)" C       # 40 s: new
add main "$(ones 33)" C       # 50 s: the same set, counts in a higher bucket
add main Laa D                # 60 s: the map of La
add w Lab E                   # 70 s: the map of La again
add w Lb E                    # 80 s: new
"$SRC/bench/magma/crashrule.sh" "$W/b" "$W/sync" --start $START >"$W/md" 2>"$W/err" ||
  fail "crashrule.sh failed: $(cat "$W/err")"
cat "$W/md"
row() { grep -F "| $1 |" "$W/md" || true; }
[ "$(row A)" = "| A | 2 | 0.0 | 2 | 0.0 | 2 | 0.0 |" ] || fail "A: '$(row A)'"
[ "$(row 'B\|1')" = "| B\|1 | 2 | 20.0 | 2 | 20.0 | 1 | 20.0 |" ] ||
  fail "B|1 (a new set of seen pairs: kept by the fine rule only; the name escaped): '$(row 'B\|1')'"
[ "$(row C)" = "| C | 2 | 40.0 | 1 | 40.0 | 2 | 40.0 |" ] ||
  fail "C (a higher bucket: kept by AFL++'s rule only): '$(row C)'"
[ "$(row D)" = "| D | 1 | 60.0 | 0 | - | 0 | - |" ] || fail "D (a copy of A's map): '$(row D)'"
[ "$(row E)" = "| E | 2 | 70.0 | 1 | 80.0 | 1 | 80.0 |" ] || fail "E (its first file a copy): '$(row E)'"
[ "$(row all)" = "| all | 9 | | 6 | | 6 | |" ] || fail "totals: '$(row all)'"

"$SRC/bench/magma/crashrule.sh" "$W/b" "$W/sync" --start $START --instance w >"$W/md2" 2>"$W/err" ||
  fail "--instance w failed: $(cat "$W/err")"
grep -qF '| E | 2 | 70.0 | 2 | 70.0 | 2 | 70.0 |' "$W/md2" && ! grep -qF '| A |' "$W/md2" ||
  fail "--instance w is not w's stream alone: $(cat "$W/md2")"
for bad in "--instance a/b" "--instance nope" "--start soon"; do
  # shellcheck disable=SC2086 # the words are the arguments
  if msg=$("$SRC/bench/magma/crashrule.sh" "$W/b" "$W/sync" $bad 2>&1); then fail "'$bad' was accepted"; fi
  [ "$(wc -l <<<"$msg")" = 1 ] || fail "'$bad' gave more than one line: $msg"
done
# A second harness, first by name, that triggers nothing: without --name
# refused, with --name t the same stream as above.
printf '#!/bin/sh\nfor f; do printf "file %%s\\nend exit 0\\n" "$f" >>"$GB_MAGMA_LOG"; done\n' >"$W/b/a.plain"
chmod +x "$W/b/a.plain" && ln -s "$T" "$W/b/a.edge"
if msg=$("$SRC/bench/magma/crashrule.sh" "$W/b" "$W/sync" --start $START 2>&1); then fail "two harnesses and no --name accepted"; fi
[ "$(wc -l <<<"$msg")" = 1 ] && grep -qF 'holds 2 harnesses' <<<"$msg" || fail "two harnesses without --name: $msg"
"$SRC/bench/magma/crashrule.sh" "$W/b" "$W/sync" --start $START --name t >"$W/md3" 2>"$W/err" ||
  fail "--name t failed: $(cat "$W/err")"
cmp -s "$W/md" "$W/md3" || fail "--name t is not t's stream: $(diff "$W/md" "$W/md3")"
echo "PASS bench.magma_crashrule: the two rules part where they should, per bug, in time order; --name picks the harness"
