#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.magma_bugs (issue 36): bench/magma/bugs.sh on a made-up Magma build
# and sync dir. NAME.plain is a script that "reaches" and "triggers" the
# canaries a map names for each file; the build holds a second harness,
# first by name, that triggers nothing (as Magma's tiff_read_rgba_fuzzer
# beside tiff_read_rgba_mem), so a replay on the wrong harness loses every
# trigger. Checked: per bug reached, triggered, the first trigger (the
# oldest triggering file, queue or crash, from the campaign's start) and
# the files; a crash with no canary counted; the harness refused when the
# build holds two and none is named, and bad names refused with one line.
set -euo pipefail
SRC=$(cd "$1" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-magma-bugs.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL bench.magma_bugs: $*" >&2; exit 1; }
B=$W/b S=$W/sync
mkdir -p "$B/magma-files/patches/bugs" "$S/main/queue" "$S/main/crashes" "$S/w/crashes"
for b in B1 B2 B3 B4; do : >"$B/magma-files/patches/bugs/$b.patch"; done
cat >"$B/t.plain" <<EOF2
#!/usr/bin/env bash
# Magma's replay protocol: "file PATH", the canaries' lines, "end STATUS".
for f in "\$@"; do
  echo "file \$f" >>"\$GB_MAGMA_LOG"
  st="exit 0"
  for b in \$(awk -v p="\$f" '\$1 == p { \$1 = ""; print }' "$W/map"); do
    echo "reached \${b#r:}" >>"\$GB_MAGMA_LOG"
    case \$b in r:*) ;; *) echo "triggered \$b" >>"\$GB_MAGMA_LOG"; st="signal 6" ;; esac
  done
  echo "end \$st" >>"\$GB_MAGMA_LOG"
done
EOF2
printf '#!/bin/sh\nfor f; do printf "file %%s\\nend exit 0\\n" "$f" >>"$GB_MAGMA_LOG"; done\n' >"$B/a.plain"
chmod +x "$B/t.plain" "$B/a.plain"
START=1700000000
printf 'start_time        : %d\n' $START >"$S/main/fuzzer_stats"
printf 'start_time        : %d\n' $((START + 5)) >"$S/w/fuzzer_stats"
: >"$W/map"
# put PATH SECONDS CANARY...: a file saved at START + SECONDS
put() {
  local f=$S/$1
  echo "$f" >"$f"
  touch -d "@$((START + $2))" "$f"
  shift 2
  echo "$f $*" >>"$W/map"
}
put main/queue/id:000000,orig:seed 0 r:B1 r:B3
put main/queue/id:000001,src:000000 40 r:B1
put main/crashes/id:000000,sig:06 100 B1
put main/crashes/id:000001,sig:06 50 B1
put w/crashes/id:000000,sig:06 30 B2
put w/crashes/id:000001,sig:06 70
G=$SRC/bench/magma/bugs.sh
"$G" "$B" "$S" --name t -o "$W/t.tsv" 2>"$W/err" || fail "bugs.sh --name t failed: $(cat "$W/err")"
row() { awk -F'\t' -v b="$1" '$1 == b { print $2, $3, $4, $5 }' "$W/t.tsv"; }
[ "$(head -1 "$W/t.tsv")" = "$(printf 'bug\treached\ttriggered\tfirst_trigger_s\ttrigger_files\tfirst_file')" ] ||
  fail "header: $(head -1 "$W/t.tsv")"
[ "$(row B1)" = "yes yes 50.0 2" ] || fail "B1 (two crashes, the older first): '$(row B1)'"
[ "$(row B2)" = "yes yes 30.0 1" ] || fail "B2: '$(row B2)'"
[ "$(row B3)" = "yes no NA 0" ] || fail "B3 (reached only): '$(row B3)'"
[ "$(row B4)" = "no no NA 0" ] || fail "B4 (a patch no file reached): '$(row B4)'"
awk -F'\t' '$1 == "B1" { exit !($6 ~ /main\/crashes\/id:000001,sig:06$/) }' "$W/t.tsv" || fail "B1's first file"
tail -1 "$W/err" | grep -qF '4 bugs, 3 reached, 2 triggered; 4 crash files, 1 with no canary' ||
  fail "summary: $(tail -1 "$W/err")"
grep -qF "no canary: $S/w/crashes/id:000001,sig:06 (exit 0)" "$W/err" || fail "the crash with no canary: $(cat "$W/err")"
# --start moves the clock: 20 s later, B2 at 10 s.
"$G" "$B" "$S" --name t --start $((START + 20)) -o "$W/t2.tsv" 2>/dev/null
[ "$(awk -F'\t' '$1 == "B2" { print $4 }' "$W/t2.tsv")" = 10.0 ] || fail "--start: $(grep B2 "$W/t2.tsv")"
# The other harness: every crash without a canary.
"$G" "$B" "$S" --name a -o "$W/a.tsv" 2>"$W/err" || fail "bugs.sh --name a failed"
tail -1 "$W/err" | grep -qF '0 triggered; 4 crash files, 4 with no canary' || fail "--name a: $(tail -1 "$W/err")"
# Refusals: one line and exit 2.
# refused WHY ARG...
refused() {
  local why=$1 msg rc=0
  shift
  msg=$("$G" "$@" 2>&1) || rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l <<<"$msg")" = 1 ] && grep -qF -- "$why" <<<"$msg" || fail "refusal of $*: exit $rc, '$msg'"
}
refused 'holds 2 harnesses' "$B" "$S"
refused 'no nope.plain' "$B" "$S" --name nope
refused '--name needs a harness name' "$B" "$S" --name ../t
refused '--start needs Unix seconds' "$B" "$S" --name t --start soon
refused 'no sync dir' "$B" "$W/none" --name t
# One harness: no --name needed.
rm "$B/a.plain"
"$G" "$B" "$S" -o "$W/one.tsv" 2>/dev/null || fail "one harness without --name failed"
cmp -s "$W/t.tsv" "$W/one.tsv" || fail "one harness without --name differs from --name t"
echo "PASS bench.magma_bugs: per bug reached, triggered, first trigger and files, on the harness named"
