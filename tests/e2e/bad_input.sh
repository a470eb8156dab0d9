#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Bad input: each case must give exactly one line on stderr that names the
# problem, a non-zero exit that is not a crash, and leave OUT untouched.
. "$(dirname "$0")/lib.sh"
T=$H/top.trace
C=$H/top.cov
SEEDS=$SRC/harnesses/top/seeds

# expect_error NAME PATTERN CMD...: fails unless CMD exits 1 or 2 with one
# stderr line matching PATTERN.
expect_error() {
  local name=$1 pat=$2
  shift 2
  set +e
  "$@" >"$WORK/out.txt" 2>"$WORK/err.txt"
  local rc=$?
  set -e
  [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || fail "$name: exit status $rc (want 1 or 2); stderr: $(cat "$WORK/err.txt")"
  [ "$(wc -l <"$WORK/err.txt")" -eq 1 ] || fail "$name: want one line on stderr, got: $(cat "$WORK/err.txt")"
  grep -q -- "$pat" "$WORK/err.txt" || fail "$name: stderr '$(cat "$WORK/err.txt")' does not match '$pat'"
  pass "$name: $(cat "$WORK/err.txt")"
}

mkdir -p "$WORK/empty" "$WORK/seeds"
cp "$SEEDS"/* "$WORK/seeds/"
head -c 200 /dev/zero | tr '\0' 'x' >"$WORK/plain.txt"
printf '#!/bin/sh\nexit 0\n' >"$WORK/noexec.sh"
touch "$WORK/afile"

expect_error missing-trace-bin "/nonexistent/h.trace" \
  "$BIN/glassbox" fuzz -i "$WORK/seeds" -o "$WORK/o1" -- /nonexistent/h.trace "$C"
expect_error non-executable "$WORK/plain.txt" \
  "$BIN/glassbox" fuzz -i "$WORK/seeds" -o "$WORK/o1" -- "$WORK/plain.txt" "$C"
expect_error not-instrumented "not a Glassbox trace build" \
  "$BIN/glassbox" fuzz -i "$WORK/seeds" -o "$WORK/o1" -- /bin/true "$C"
expect_error cov-not-instrumented "not a Glassbox cov build" \
  "$BIN/glassbox" fuzz -i "$WORK/seeds" -o "$WORK/o1" -- "$T" "$T"
expect_error empty-seed-dir "no seed files" \
  "$BIN/glassbox" fuzz -i "$WORK/empty" -o "$WORK/o1" -- "$T" "$C"
expect_error missing-seed-dir "$WORK/nope" \
  "$BIN/glassbox" fuzz -i "$WORK/nope" -o "$WORK/o1" -- "$T" "$C"
expect_error unwritable-out "$WORK/afile" \
  "$BIN/glassbox" fuzz -i "$WORK/seeds" -o "$WORK/afile/out" -- "$T" "$C"
expect_error usage-no-binaries "TRACE_BIN COV_BIN" \
  "$BIN/glassbox" fuzz -i "$WORK/seeds" -o "$WORK/o1"
expect_error bad-timeout "non-negative number" \
  "$BIN/glassbox" fuzz -i "$WORK/seeds" -o "$WORK/o1" -t abc -- "$T" "$C"
expect_error resume-missing "does not exist" \
  "$BIN/glassbox" fuzz -q --resume -o "$WORK/o1" -- "$T" "$C"
[ ! -e "$WORK/o1" ] || fail "a refused campaign created $WORK/o1"

# A finished campaign is never overwritten.
"$BIN/glassbox" fuzz -q -i "$WORK/seeds" -o "$WORK/o2" -- "$T" "$C"
before=$(cd "$WORK/o2" && find . -type f ! -name fuzzer_stats ! -name plot_data | sort | xargs sha1sum)
expect_error existing-campaign "use --resume" \
  "$BIN/glassbox" fuzz -i "$WORK/seeds" -o "$WORK/o2" -- "$T" "$C"
after=$(cd "$WORK/o2" && find . -type f ! -name fuzzer_stats ! -name plot_data | sort | xargs sha1sum)
[ "$before" = "$after" ] || fail "refusing an existing campaign changed its files"
pass "existing campaign untouched ($(echo "$before" | wc -l) files)"

# Traces: a good one, then truncated and corrupted copies.
"$BIN/glassbox" trace "$SEEDS/good" -o "$WORK/t.gbt" -- "$T" >/dev/null
"$BIN/glassbox" show "$WORK/t.gbt" | grep -q '(check-sat)' || fail "show printed no SMT-LIB"
size=$(stat -c %s "$WORK/t.gbt")
head -c $((size - 5)) "$WORK/t.gbt" >"$WORK/trunc.gbt"
expect_error truncated-trace "truncated" "$BIN/glassbox" show "$WORK/trunc.gbt"
head -c 20 "$WORK/t.gbt" >"$WORK/short.gbt"
expect_error short-header "header" "$BIN/glassbox" show "$WORK/short.gbt"
cp "$WORK/t.gbt" "$WORK/bad.gbt"
printf '\xff' | dd of="$WORK/bad.gbt" bs=1 seek=$((size - 10)) conv=notrunc status=none
expect_error corrupted-trace "checksum" "$BIN/glassbox" show "$WORK/bad.gbt"
expect_error not-a-trace "magic" "$BIN/glassbox" show "$WORK/plain.txt"
expect_error missing-trace "$WORK/none.gbt" "$BIN/glassbox" show "$WORK/none.gbt"
expect_error trace-uninstrumented "not a glassbox-cc --mode=trace build" \
  "$BIN/glassbox" trace "$SEEDS/good" -o "$WORK/x.gbt" -- /bin/true
expect_error unknown-command "unknown command" "$BIN/glassbox" frobnicate

# --help everywhere, exit 0.
# (Read whole: grep -q stops at the first line, and a help longer than
# one pipe write would then die of SIGPIPE, a failure under pipefail.)
for c in fuzz trace show; do
  help=$("$BIN/glassbox" "$c" --help) || fail "glassbox $c --help: exit $?"
  grep -q "usage: glassbox $c" <<<"$help" || fail "glassbox $c --help"
done
help=$("$BIN/glassbox" --help) || fail "glassbox --help: exit $?"
grep -q "commands:" <<<"$help" || fail "glassbox --help"
help=$("$BIN/glassbox-cc" --help) || fail "glassbox-cc --help: exit $?"
grep -q "usage: glassbox-cc" <<<"$help" || fail "glassbox-cc --help"
pass "--help on every command"
