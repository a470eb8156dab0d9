#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Triage against ground truth (issue 38): the seven known bugs of
# truth/truth.c, each reached by six inputs of different sizes (and bug N
# through both harness entry points), must give exactly one bucket per
# bug, with the type that names it, on the -O0 and the -O2 build:
#   - no bucket holds inputs of two bugs, no bug's inputs are in two
#     buckets, and every bug has its bucket;
#   - bug C (every other run) is a flaky bucket;
#   - I and A (one helper, two callers) are two buckets and one likely
#     bug: 7 buckets, 6 likely bugs.
# Then on the -O0 report: --state-frames 1 retires every bucket to
# .retired and rebuckets, and I and A become one bucket.
# Usage: truth_test.sh BUILD_DIR TRUTH_O0 TRUTH_O2
set -euo pipefail
BUILD=$1 O0=$2 O2=$3
GB=$BUILD/bin/glassbox
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gb-truth.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
js() { node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const r = eval(process.argv[2]); console.log(typeof r === "object" ? JSON.stringify(r) : r);' "$1" "$2"; }
command -v node >/dev/null || fail "node is needed to read the JSON (scripts/build installs it)"

# ---- inputs: BUG-K, six per bug -------------------------------------------------
byte() { printf "\\$(printf %03o "$1")"; }
bytes() { for b in "$@"; do byte "$b"; done; }
fill() { head -c "$1" /dev/zero | tr '\0' "$2"; }
IN=$WORK/in
mkdir -p "$IN"
for k in 0 1 2 3 4 5; do
  entry=M; [ $((k % 2)) = 1 ] && entry=S
  pad=$((k * 5))                 # a harmless chunk first: other lengths, other offsets
  pre() { printf '%s' "$entry"; printf 'X'; byte $pad; fill $pad p; }
  n=$((9 + k * 6))
  { pre; printf 'N'; byte $n; fill $n a; } >"$IN/N-$k"
  { pre; printf 'P'; byte 0; printf 'R'; byte 0; printf 'L'; byte 2; bytes $((k * 3)) $k; } >"$IN/L-$k"
  if [ "$k" = 0 ] || [ "$k" = 3 ]; then
    { pre; printf 'W'; byte 3; bytes 0 $((k + 1)) 0; } >"$IN/W-$k"      # the zero page
  else
    { pre; printf 'W'; byte 3; bytes 1 $((k * 40)) $k; } >"$IN/W-$k"     # far away
  fi
  { pre; printf 'D'; byte 8; bytes 0 1 0 $k 0 1 $k 0; } >"$IN/D-$k"
  { pre; printf 'I'; byte 1; byte $((10 + k * 37)); } >"$IN/I-$k"
  { pre; printf 'A'; byte 1; byte $((5 + k * 19)); } >"$IN/A-$k"
  { pre; printf 'C'; byte $((3 + k)); byte $k; fill $((2 + k)) c; } >"$IN/C-$k"
done
printf 'MX' >"$IN/fine"; byte 0 >>"$IN/fine"

declare -A TYPE=(
  [N]="heap-buffer-overflow WRITE" [L]="heap-use-after-free READ"
  [W]="SEGV on unknown address READ" [D]="UBSan signed-integer-overflow"
  [I]="heap-buffer-overflow WRITE" [A]="heap-buffer-overflow WRITE"
  [C]="heap-buffer-overflow READ")
declare -A TOP=([N]=copy_name [L]=palette_lookup [W]=seek_table [D]=scale_dims
  [I]=fill_row [A]=fill_row [C]=verify_crc)

# check BIN REPORT: one bucket per bug.
check() {
  local bin=$1 r=$2 label=$3
  echo 0 >"$WORK/counter"
  GB_TEST_FLAKY_COUNTER=$WORK/counter "$GB" triage -i "$IN" -o "$r" -- "$bin" \
    >"$WORK/out" 2>"$WORK/err" || fail "$label: triage failed: $(cat "$WORK/err")"
  cat "$WORK/out"
  local s=$r/summary.json
  # bucket id -> the bugs of its inputs (file names' first letter).
  local part
  part=$(for id in $(js "$s" 'd.buckets.map(b => b.id).join(" ")'); do
    printf '%s %s\n' "$id" "$(js "$r/$id/crash.json" \
      '[...new Set(d.inputs.map(i => i.path.split("/").pop()[0]))].sort().join("")')"
  done)
  echo "$part"
  for bug in N L W D I A C; do
    local ids
    ids=$(printf '%s\n' "$part" | awk -v b="$bug" 'index($2, b) { print $1 }')
    [ "$(printf '%s\n' "$ids" | grep -c .)" = 1 ] ||
      fail "$label: bug $bug is in $(printf '%s\n' "$ids" | grep -c .) buckets"
    local id=$ids c=$r/$ids/crash.json
    [ "$(js "$c" 'd.inputs.map(i => i.path.split("/").pop()[0]).join("")')" = "$bug$bug$bug$bug$bug$bug" ] ||
      fail "$label: bucket $id of bug $bug holds $(js "$c" 'd.inputs.map(i => i.path.split("/").pop()).join(" ")')"
    [ "$(js "$c" 'd.type')" = "${TYPE[$bug]}" ] ||
      fail "$label: bug $bug's type is '$(js "$c" 'd.type')', want '${TYPE[$bug]}'"
    [ "$(js "$c" 'd.state[0]')" = "${TOP[$bug]}" ] ||
      fail "$label: bug $bug's state is $(js "$c" 'd.state'), want ${TOP[$bug]} on top"
    [ "$(js "$c" 'd.flaky')" = "$([ "$bug" = C ] && echo true || echo false)" ] ||
      fail "$label: bug $bug: flaky is $(js "$c" 'd.flaky')"
  done
  [ "$(js "$s" 'd.buckets.length')" = 7 ] || fail "$label: $(js "$s" 'd.buckets.length') buckets, want 7"
  [ "$(js "$s" 'd.totals.likely_bugs')" = 6 ] ||
    fail "$label: $(js "$s" 'd.totals.likely_bugs') likely bugs, want 6"
  # The one group of two: I's and A's buckets, joined by their top frame.
  [ "$(js "$s" 'd.likely_bugs.length')" = 1 ] || fail "$label: groups $(js "$s" 'd.likely_bugs')"
  local i a
  i=$(printf '%s\n' "$part" | awk '$2 == "I" { print $1 }')
  a=$(printf '%s\n' "$part" | awk '$2 == "A" { print $1 }')
  [ "$(js "$s" 'd.likely_bugs[0].buckets.sort().join(" ")')" = "$(printf '%s\n' "$i" "$a" | sort | tr '\n' ' ' | sed 's/ $//')" ] ||
    fail "$label: the group is $(js "$s" 'd.likely_bugs[0]'), want $i and $a"
  [ "$(js "$s" 'd.likely_bugs[0].why.join()')" = "same type and top frame" ] ||
    fail "$label: why $(js "$s" 'd.likely_bugs[0].why')"
  # The sizes the key leaves out are kept as details.
  local nc
  nc=$(printf '%s\n' "$part" | awk '$2 == "N" { print $1 }')
  [ "$(js "$r/$nc/crash.json" 'new Set(d.details.map(x => x.split(" at ")[0])).size')" = 6 ] ||
    fail "$label: bug N's details: $(js "$r/$nc/crash.json" 'd.details')"
  grep -q ' 7 buckets (7 new), 6 likely bugs, in ' "$WORK/out" || fail "$label: totals line"
}

check "$O0" "$WORK/r0" -O0
check "$O2" "$WORK/r2" -O2

# ---- another rule: --state-frames 1 ---------------------------------------------
echo 0 >"$WORK/counter"
GB_TEST_FLAKY_COUNTER=$WORK/counter "$GB" triage -i "$IN" -o "$WORK/r0" --state-frames 1 -- "$O0" \
  >"$WORK/out" 2>"$WORK/err" || fail "--state-frames 1: $(cat "$WORK/err")"
cat "$WORK/out" "$WORK/err"
[ "$(grep -c 'made by another bucket rule' "$WORK/err")" = 7 ] || fail "want 7 retired buckets warned"
[ "$(find "$WORK/r0/.retired" -mindepth 1 -maxdepth 1 -type d | wc -l)" = 7 ] || fail "want 7 dirs in .retired"
S=$WORK/r0/summary.json
[ "$(js "$S" 'd.buckets.length')" = 6 ] || fail "--state-frames 1: $(js "$S" 'd.buckets.length') buckets, want 6"
[ "$(js "$S" 'd.buckets.every(b => b.state.length === 1)')" = true ] || fail "states of more than one frame"
[ "$(js "$S" 'd.bucket_rule.state_frames')" = 1 ] || fail "bucket_rule: $(js "$S" 'd.bucket_rule')"
[ "$(js "$S" 'd.buckets.filter(b => b.state[0] === "fill_row")[0].count')" = 12 ] ||
  fail "I and A are not one bucket at one frame"
for x in 0 9; do
  set +e; "$GB" triage -i "$IN" -o "$WORK/bad" --state-frames $x -- "$O0" >/dev/null 2>"$WORK/err"; rc=$?; set -e
  [ "$rc" = 2 ] && grep -q 'state-frames' "$WORK/err" || fail "--state-frames $x: exit $rc, $(cat "$WORK/err")"
done
echo "truth: one bucket per bug at -O0 and -O2"
