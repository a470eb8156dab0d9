#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# glassbox replay: one line per input saying how it ended, and an exit
# status that says whether any crashed (0 none, 1 some, 2 usage).
# Usage: replay_e2e.sh BUILD_DIR BUGS_ASAN
set -euo pipefail
BUILD=$1 ASAN=$2
GB=$BUILD/bin/glassbox
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gb-replay.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
printf 'H\x01abc' >"$WORK/heap"
printf 'O' >"$WORK/ovf"
printf 'fine' >"$WORK/fine"
printf 'T' >"$WORK/hang"

# status CMD...: runs it, output in $WORK/out, prints the exit status.
status() { set +e; "$@" >"$WORK/out" 2>"$WORK/err"; echo $?; set -e; }

[ "$(status "$GB" replay "$WORK/fine" -- "$ASAN")" = 0 ] || fail "a harmless input: exit not 0"
[ "$(cat "$WORK/out")" = "$WORK/fine: ok exit 0" ] || fail "ok line: $(cat "$WORK/out")"

[ "$(status "$GB" replay "$WORK/heap" -- "$ASAN")" = 1 ] || fail "a crashing input: exit not 1"
# The line says the access size and address (the bucket key leaves them out).
grep -qxE "$WORK/heap: crash SIGABRT heap-buffer-overflow READ @ heap_read < LLVMFuzzerTestOneInput \(heap-buffer-overflow READ 1 at 0x[0-9a-f]+\)" \
  "$WORK/out" || fail "crash line: $(cat "$WORK/out")"

# Several inputs (more than the option parser's positional slots), in order.
files=()
for i in 1 2 3 4 5 6 7 8 9 10; do cp "$WORK/fine" "$WORK/fine$i"; files+=("$WORK/fine$i"); done
[ "$(status "$GB" replay "${files[@]}" "$WORK/ovf" "$WORK/fine" -- "$ASAN")" = 1 ] || fail "mixed: exit not 1"
[ "$(wc -l <"$WORK/out")" = 12 ] || fail "mixed: want 12 lines: $(cat "$WORK/out")"
[ "$(sed -n 11p "$WORK/out")" = "$WORK/ovf: crash SIGABRT UBSan signed-integer-overflow @ add_overflow < LLVMFuzzerTestOneInput" ] ||
  fail "UBSan line: $(sed -n 11p "$WORK/out")"
[ "$(sed -n 12p "$WORK/out")" = "$WORK/fine: ok exit 0" ] || fail "order: $(cat "$WORK/out")"

# @@ in the arguments, and -t for a hang.
[ "$(status "$GB" replay -t 300 "$WORK/hang" "$WORK/fine" -- "$ASAN" @@)" = 1 ] || fail "hang: exit not 1"
[ "$(head -1 "$WORK/out")" = "$WORK/hang: timeout SIGKILL timeout" ] || fail "timeout line: $(cat "$WORK/out")"
[ "$(sed -n 2p "$WORK/out")" = "$WORK/fine: ok exit 0" ] || fail "after a hang: $(cat "$WORK/out")"

# The time limit as --timeout=MS and -tMS (getopt's forms), with the files around it.
[ "$(status "$GB" replay "$WORK/hang" --timeout=300 "$WORK/fine" -- "$ASAN" @@)" = 1 ] || fail "--timeout=300: exit not 1"
[ "$(cat "$WORK/out")" = "$WORK/hang: timeout SIGKILL timeout
$WORK/fine: ok exit 0" ] || fail "--timeout=300: $(cat "$WORK/out")"
[ "$(status "$GB" replay -t300 "$WORK/hang" -- "$ASAN" @@)" = 1 ] || fail "-t300: exit not 1"
[ "$(cat "$WORK/out")" = "$WORK/hang: timeout SIGKILL timeout" ] || fail "-t300: $(cat "$WORK/out")"

# An input that cannot be read: its line says so, the rest still run.
[ "$(status "$GB" replay "$WORK/nope" "$WORK/fine" -- "$ASAN")" = 1 ] || fail "missing input: exit not 1"
grep -q "^$WORK/nope: error " "$WORK/out" || fail "missing input line: $(cat "$WORK/out")"
grep -q "^$WORK/fine: ok exit 0" "$WORK/out" || fail "the input after a missing one did not run"

# A scratch dir whose path has ':' and a blank (the sanitizers' option
# separators) still gets the reports.
mkdir "$WORK/a:b c"
[ "$(TMPDIR="$WORK/a:b c" status "$GB" replay "$WORK/heap" -- "$ASAN")" = 1 ] || fail "TMPDIR with ':': exit not 1"
grep -q "heap-buffer-overflow READ @ heap_read" "$WORK/out" || fail "TMPDIR with ':': $(cat "$WORK/out")"

# Usage: exit 2 with one line.
for args in "-- $ASAN" "$WORK/fine" "$WORK/fine -- /nonexistent/bin"; do
  # shellcheck disable=SC2086
  st=$(status "$GB" replay $args)
  want=2; [ "$args" = "$WORK/fine -- /nonexistent/bin" ] && want=1
  [ "$st" = "$want" ] || fail "replay $args: exit $st, want $want"
  [ "$(wc -l <"$WORK/err")" = 1 ] || fail "replay $args: want one error line: $(cat "$WORK/err")"
done
echo "PASS: replay lines and exit status"
