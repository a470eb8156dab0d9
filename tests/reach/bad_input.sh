#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# reach.bad_input: glassbox reach on bad input says what is wrong in one
# line, exits non-zero (2 for bad usage and for a line without code), and
# never crashes.
#   bad_input.sh BUILD SRC BINDIR
. "$(dirname "$0")/../e2e/lib.sh"
T=$3
mkdir -p "$WORK/seeds"
printf 'AAAA' >"$WORK/seeds/a"
bins=("$T/reach-reachable-O0.trace" "$T/reach-reachable-O0.cov")

# bad WANT_STATUS WANT_TEXT ARGS...: one line on stderr holding WANT_TEXT.
bad() {
  local want=$1 text=$2 got
  shift 2
  set +e
  "$BIN/glassbox" reach "$@" >"$WORK/out" 2>"$WORK/err"
  got=$?
  set -e
  expect_eq "reach $* status" "$got" "$want"
  [ "$got" -lt 128 ] || fail "reach $*: killed by a signal"
  grep -q -- "$text" "$WORK/err" "$WORK/out" || fail "reach $*: no '$text' in: $(cat "$WORK/err" "$WORK/out")"
  [ "$(wc -l <"$WORK/err")" -le 1 ] || fail "reach $*: more than one line on stderr"
}

o=(-i "$WORK/seeds" -o "$WORK/o")
bad 2 "expected FILE:LINE" --target nocolon "${o[@]}" -- "${bins[@]}"
bad 2 "expected FILE:LINE" --target reachable.c:0 "${o[@]}" -- "${bins[@]}"
bad 2 "expected FILE:LINE" --target reachable.c:x1 "${o[@]}" -- "${bins[@]}"
bad 2 "expected FILE:LINE" --target :3 "${o[@]}" -- "${bins[@]}"
bad 2 "at least one --target" "${o[@]}" -- "${bins[@]}"
bad 2 "no failing assert or trap" --target asserts "${o[@]}" -- "${bins[@]}"
bad 2 "--unroll must be" --target reachable.c:20 --unroll 0 "${o[@]}" -- "${bins[@]}"
bad 2 "--unroll must be" --target reachable.c:20 --unroll 17 "${o[@]}" -- "${bins[@]}"
bad 2 "-i SEEDS and -o OUT" --target reachable.c:20 -o "$WORK/o" -- "${bins[@]}"
bad 2 "TRACE_BIN COV_BIN" --target reachable.c:20 "${o[@]}" -- "${bins[0]}"
bad 1 "cannot open" --target reachable.c:20 "${o[@]}" -- "$WORK/none.trace" "$WORK/none.cov"
bad 1 "seed directory" --target reachable.c:20 -i "$WORK/noseeds" -o "$WORK/o" -- "${bins[@]}"
# a file the debug info does not know; a line without code (a comment)
bad 2 "no source file of" --target nosuch.c:3 "${o[@]}" -- "${bins[@]}"
bad 2 "line 2 has no code" --target reachable.c:2 "${o[@]}" -- "${bins[@]}"
# a build without -g has no lines to look up
cp "$SRC/tests/reach/progs/reachable.c" "$WORK/r.c"
"$BIN/glassbox-cc" --mode=cov -O0 "$WORK/r.c" -o "$WORK/r.cov"
bad 2 "build it with glassbox-cc -g" --target r.c:20 "${o[@]}" -- "${bins[0]}" "$WORK/r.cov"
pass "reach.bad_input"
