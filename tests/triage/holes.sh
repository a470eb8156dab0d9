#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 34's holes in triage, replay, tmin and cmin, one regression per
# part: symlinks planted in a report dir are never written through; a
# damaged .seen or crash.json is rebuilt, not silently dropped or counted
# twice; JSON stays UTF-8 with the exact bytes beside; repro.sh ends when
# the binary's name holds a '"'; names reach the terminal escaped; tmin
# and cmin refuse an output that is not theirs to replace.
# Usage: holes.sh BUILD_DIR BUGS_ASAN PART   (GB_CMIN_T for the cmin part)
set -euo pipefail
BUILD=$1 ASAN=$2 PART=$3
GB=$BUILD/bin/glassbox
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gb-holes.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "PASS: $*"; }
# jsonfile FILE: valid JSON and valid UTF-8 (strict decoding), or fail.
jsonfile() {
  python3 -c 'import json,sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1" \
    2>"$WORK/py.err" || fail "$1 is not valid UTF-8 JSON: $(tail -1 "$WORK/py.err")"
}
# jq_py FILE EXPR: EXPR evaluated in python with d = the JSON in FILE.
jq_py() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8")); print(eval(sys.argv[2]))' "$1" "$2"
}
# The input of bugs.c's heap read (H) and use after free (U).
crash_inputs() {
  mkdir -p "$1"
  printf 'Hxxxxxxxx' >"$1/h1"; printf 'Hyyyyyyyyyyyy' >"$1/h2"
  printf 'Uxxxx' >"$1/u1"; printf 'Uzzzzzzzzz' >"$1/u2"
}
triage() { "$GB" triage --no-minimise "$@" -- "$ASAN"; }

part_symlinks() {
  crash_inputs "$WORK/in"
  printf 'precious' >"$WORK/victim1"; printf 'precious' >"$WORK/victim2"
  mkdir -p "$WORK/elsewhere"
  # Learn the buckets' ids from a first report.
  triage -i "$WORK/in" -o "$WORK/first" >/dev/null 2>&1 || fail "first triage failed"
  ids=$(cd "$WORK/first" && ls -d [0-9a-f]*/ | tr -d /)
  [ "$(wc -w <<<"$ids")" = 2 ] || fail "want 2 buckets, got: $ids"
  R=$WORK/report
  mkdir -p "$R/.work/main"
  ln -s "$WORK/victim1" "$R/.work/job0.jsonl"
  ln -s "$WORK/victim2" "$R/.work/main/input"
  one=$(head -1 <<<"$ids")
  ln -s "$WORK/elsewhere" "$R/$one"
  set +e
  triage -i "$WORK/in" -o "$R" >"$WORK/out" 2>"$WORK/err"; st=$?
  set -e
  [ "$(cat "$WORK/victim1")" = precious ] || fail ".work/job0.jsonl was written through its symlink"
  [ "$(cat "$WORK/victim2")" = precious ] || fail ".work/main/input was written through its symlink"
  [ -z "$(ls -A "$WORK/elsewhere")" ] || fail "the symlinked bucket dir received $(ls -A "$WORK/elsewhere")"
  [ -L "$R/$one" ] || fail "the symlinked bucket dir was replaced"
  [ "$st" = 0 ] || fail "triage exited $st: $(cat "$WORK/err")"
  grep -q "$one.*symbolic link" "$WORK/err" || fail "no warning about the symlinked bucket dir: $(cat "$WORK/err")"
  # The other bucket is written as usual.
  two=$(tail -1 <<<"$ids")
  jsonfile "$R/$two/crash.json"
  # A symlinked .work: a one-line error, nothing written through it.
  R2=$WORK/report2
  mkdir -p "$R2" "$WORK/elsewhere2"
  ln -s "$WORK/elsewhere2" "$R2/.work"
  if triage -i "$WORK/in" -o "$R2" >/dev/null 2>"$WORK/err2"; then fail "triage wrote through a symlinked .work"; fi
  [ -z "$(ls -A "$WORK/elsewhere2")" ] || fail "the symlinked .work received $(ls -A "$WORK/elsewhere2")"
  [ "$(wc -l <"$WORK/err2")" = 1 ] || fail "not one line of error: $(cat "$WORK/err2")"
  pass "symlinks in the report dir are refused, never written through"
}

part_seen() {
  crash_inputs "$WORK/in"
  R=$WORK/report
  triage -i "$WORK/in" -o "$R" >/dev/null 2>&1 || fail "first triage failed"
  [ "$(jq_py "$R/summary.json" 'd["totals"]["crashing_inputs"]')" = 4 ] || fail "want 4 crashing inputs"
  head -c 3000 /dev/urandom >"$R/.seen"
  triage -i "$WORK/in" -o "$R" >"$WORK/out" 2>"$WORK/err" || fail "second triage failed: $(cat "$WORK/err")"
  jsonfile "$R/summary.json"
  got=$(jq_py "$R/summary.json" '[b["count"] for b in d["buckets"]]')
  [ "$got" = "[2, 2]" ] || fail "after a damaged .seen the counts are $got, want [2, 2]"
  [ "$(jq_py "$R/summary.json" 'd["totals"]["crashing_inputs"]')" = 4 ] || fail "crashing inputs counted twice"
  grep -q '\.seen' "$WORK/err" || fail "no warning about the damaged .seen: $(cat "$WORK/err")"
  # Rebuilt: every line is one of ours again.
  python3 -c 'import json,sys
for l in open(sys.argv[1], encoding="utf-8"): json.loads(l)["sha1"]' "$R/.seen" || fail ".seen not rebuilt"
  pass "a damaged .seen is rebuilt from the buckets, nothing counted twice"
}

part_crashjson() {
  crash_inputs "$WORK/in"
  R=$WORK/report
  triage -i "$WORK/in" -o "$R" >/dev/null 2>&1 || fail "first triage failed"
  ids=$(cd "$R" && ls -d [0-9a-f]*/ | tr -d /)
  one=$(head -1 <<<"$ids") two=$(tail -1 <<<"$ids")
  printf '{"id": "%s", "type": garbage\xff' "$one" >"$R/$one/crash.json"
  rm "$R/$two/crash.json"
  # The original inputs are gone: the buckets' own reproducers rebuild them.
  mkdir "$WORK/none"; printf 'fine' >"$WORK/none/ok"
  triage -i "$WORK/none" -o "$R" >"$WORK/out" 2>"$WORK/err" || fail "second triage failed: $(cat "$WORK/err")"
  [ "$(jq_py "$R/summary.json" 'len(d["buckets"])')" = 2 ] ||
    fail "a bucket with a damaged or missing crash.json was dropped: $(jq_py "$R/summary.json" '[b["id"] for b in d["buckets"]]')"
  for b in $one $two; do
    jsonfile "$R/$b/crash.json"
    [ "$(jq_py "$R/$b/crash.json" 'd["id"]')" = "$b" ] || fail "$b/crash.json not rebuilt"
    grep -q "bucket $b" "$WORK/err" || fail "no warning about bucket $b: $(cat "$WORK/err")"
  done
  pass "a damaged or missing crash.json is reported and rebuilt"
}

part_utf8() {
  mkdir -p "$WORK/in"
  name=$'H\xff\xfe-crash'
  printf 'Hxxxxxxxxx' >"$WORK/in/$name"
  R=$WORK/report
  triage -i "$WORK/in" -o "$R" >/dev/null 2>"$WORK/err" || fail "triage failed: $(cat "$WORK/err")"
  C=$(ls "$R"/[0-9a-f]*/crash.json)
  for f in "$C" "$R/summary.json" "$R/summary.sarif"; do jsonfile "$f"; done
  python3 -c 'import json,sys
for l in open(sys.argv[1], encoding="utf-8"): json.loads(l)' "$R/.seen" || fail ".seen is not UTF-8 JSON lines"
  # The exact bytes are recoverable from the _hex field.
  want=$(printf '%s' "$WORK/in/$name" | od -An -tx1 | tr -d ' \n')
  got=$(jq_py "$C" 'd["inputs"][0]["path_hex"]')
  [ "$got" = "$want" ] || fail "inputs[0].path_hex is $got, want $want"
  [ "$(jq_py "$C" 'd["reproducer"]["from_hex"]')" = "$want" ] || fail "no reproducer.from_hex"
  # A second run reads the name back exactly: nothing is run again.
  triage -i "$WORK/in" -o "$R" >"$WORK/out2" 2>&1 || fail "second triage failed"
  grep -q "0 run, 1 already triaged" "$WORK/out2" || fail "second run: $(cat "$WORK/out2")"
  pass "JSON output is UTF-8 with the raw bytes in _hex fields"
}

part_repro() {
  D=$WORK/'bin "quoted" $(x)'
  mkdir -p "$D" "$WORK/in"
  cp "$ASAN" "$D/bugs.asan"
  printf 'Hxxxxxxxxx' >"$WORK/in/h"
  R=$WORK/report
  "$GB" triage --no-minimise -i "$WORK/in" -o "$R" -- "$D/bugs.asan" >/dev/null 2>"$WORK/err" ||
    fail "triage failed: $(cat "$WORK/err")"
  S=$(ls "$R"/[0-9a-f]*/repro.sh)
  grep -q '^timeout ' "$S" || fail "repro.sh has no time limit"
  set +e
  timeout -s KILL 100 env -i sh "$S" >"$WORK/repro.out" 2>&1; st=$?
  set -e
  [ "$st" != 137 ] || fail "repro.sh did not end in 100 s"
  [ "$st" -ge 128 ] || fail "repro.sh exited $st: $(tail -3 "$WORK/repro.out")"
  grep -q "repro.sh: crashed" "$WORK/repro.out" || fail "repro.sh did not reproduce: $(tail -3 "$WORK/repro.out")"
  pass "repro.sh quotes a binary name with '\"' and ends (status $st)"
}

part_escape() {
  mkdir -p "$WORK/in"
  name=$'H\e[2J\a-name'
  printf 'Hxxxxxxxxx' >"$WORK/in/$name"
  "$GB" replay "$WORK/in/$name" -- "$ASAN" >"$WORK/out" 2>&1 || true
  grep -q $'\e' "$WORK/out" && fail "replay printed an ESC byte: $(od -c "$WORK/out" | head -3)"
  grep -q $'\a' "$WORK/out" && fail "replay printed a BEL byte"
  grep -qF 'H\x1b[2J\x07-name: crash' "$WORK/out" || fail "replay line: $(cat "$WORK/out")"
  # triage's own lines: a missing -i path and the report name.
  set +e
  "$GB" triage --no-minimise -i "$WORK/in" -i "$WORK/gone"$'\e]0;x\a' -o "$WORK/r"$'\e[1m' -- \
    "$ASAN" >"$WORK/tout" 2>"$WORK/terr"
  set -e
  grep -q $'[\e\a]' "$WORK/tout" "$WORK/terr" && fail "triage printed control bytes: $(od -c "$WORK/terr" | head)"
  grep -qF 'gone\x1b]0;x\x07' "$WORK/terr" || fail "the missing path is not escaped: $(cat "$WORK/terr")"
  grep -qF 'r\x1b[1m' "$WORK/tout" || fail "the report name is not escaped: $(cat "$WORK/tout")"
  pass "names reach the terminal escaped"
}

part_tmin() {
  printf 'Hxxxxxxxxxxxxxxxxxxxxx' >"$WORK/in"
  cp "$WORK/in" "$WORK/in.orig"
  printf 'precious' >"$WORK/victim"
  ln -s "$WORK/victim" "$WORK/link"
  mkfifo "$WORK/fifo"
  for o in "$WORK/link" "$WORK/fifo" "$WORK/in" /dev/null; do
    set +e
    timeout 60 "$GB" tmin -i "$WORK/in" -o "$o" -- "$ASAN" >"$WORK/out" 2>"$WORK/err"; st=$?
    set -e
    [ "$st" != 0 ] && [ "$st" != 124 ] || fail "tmin -o $o exited $st"
    [ "$(wc -l <"$WORK/err")" = 1 ] || fail "tmin -o $o: not one line of error: $(cat "$WORK/err")"
    grep -q -- "-o" "$WORK/err" || fail "tmin -o $o: the error does not name -o: $(cat "$WORK/err")"
    grep -q "tmin:" "$WORK/out" && fail "tmin -o $o did the work before refusing: $(cat "$WORK/out")"
  done
  [ -L "$WORK/link" ] && [ "$(cat "$WORK/victim")" = precious ] || fail "the symlink or its target changed"
  [ -p "$WORK/fifo" ] || fail "the FIFO was replaced"
  [ -c /dev/null ] || fail "/dev/null is no longer a device"
  cmp -s "$WORK/in" "$WORK/in.orig" || fail "the input was overwritten"
  # A regular file is still replaced.
  printf 'old' >"$WORK/out.bin"
  "$GB" tmin -i "$WORK/in" -o "$WORK/out.bin" -- "$ASAN" >/dev/null 2>&1 || fail "tmin to a regular file failed"
  [ "$(head -c1 "$WORK/out.bin")" = H ] || fail "tmin's output is not the minimised input"
  pass "tmin -o refuses a symlink, a FIFO and its input, before any work"
}

part_cmin() {
  T=${GB_CMIN_T:?}.cov
  mkdir -p "$WORK/corpus" "$WORK/elsewhere"
  printf 'a' >"$WORK/corpus/a"; printf 'bb' >"$WORK/corpus/b"
  ln -s "$WORK/elsewhere" "$WORK/out"
  set +e
  "$GB" cmin -i "$WORK/corpus" -o "$WORK/out" -- "$T" >"$WORK/o" 2>"$WORK/err"; st=$?
  set -e
  [ "$st" != 0 ] || fail "cmin wrote into a symlinked -o"
  [ -z "$(ls -A "$WORK/elsewhere")" ] || fail "the symlink's target received $(ls -A "$WORK/elsewhere")"
  grep -q "symbolic link" "$WORK/err" || fail "the error does not say why: $(cat "$WORK/err")"
  # A real (new) directory still works.
  "$GB" cmin -i "$WORK/corpus" -o "$WORK/real" -- "$T" >/dev/null 2>"$WORK/err" ||
    fail "cmin into a new dir failed: $(cat "$WORK/err")"
  [ -n "$(ls -A "$WORK/real")" ] || fail "cmin kept nothing"
  pass "cmin -o refuses a symlink"
}

"part_$PART"
