#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Soundness of the solver's shortcuts on recorded traces: inputs from short
# campaigns on the top, crackme and demo harnesses are traced, then every
# entry of every trace is flipped in plain and full mode side by side
# (glassbox solve --mode=both --check): each UNSAT of the full pipeline must
# be UNSAT for plain Z3, each model must satisfy its query by Z3 and by
# concrete evaluation, and plain and full must agree on SAT/UNSAT.
# $1 = build dir, $2 = source dir.
. "$2/tests/e2e/lib.sh"
T=$WORK/traces
mkdir -p "$T"
n=0
record() { # harness input
  n=$((n + 1))
  local name; name=$(printf '%s-%03d' "$1" "$n")
  cp "$2" "$T/$name.gbt.input"
  "$BIN/glassbox" trace "$2" -o "$T/$name.gbt" -- "$H/$1.trace" >/dev/null 2>&1 ||
    fail "glassbox trace $1 $2"
}
campaign() { # harness seeds seconds
  "$BIN/glassbox" fuzz -q -V "$3" -i "$2" -o "$WORK/c-$1" -- "$H/$1.trace" "$H/$1.cov" >/dev/null
  local f k=0
  for f in "$WORK/c-$1"/glassbox/queue/id:* "$WORK/c-$1"/glassbox/crashes/id:*; do
    [ -e "$f" ] && [ "$k" -lt 12 ] || continue
    record "$1" "$f"
    k=$((k + 1))
  done
}
campaign top "$SRC/harnesses/top/seeds" 5
campaign crackme "$SRC/harnesses/crackme/seeds" 3
campaign demo "$SRC/harnesses/demo/seeds" 4
[ "$n" -ge 15 ] || fail "only $n traces recorded"
"$BIN/glassbox" solve --mode=both --check "$T" >"$WORK/solve.txt" 2>"$WORK/solve.err" ||
  { cat "$WORK/solve.txt" "$WORK/solve.err"; fail "glassbox solve --check"; }
cat "$WORK/solve.txt"
grep -q "^full: check: bad unsat 0, bad models 0, undecided [0-9]*, differ from plain 0" \
  "$WORK/solve.txt" || fail "check line"
# the shortcuts must actually have answered something, or this proves nothing
line=$(grep "^full: queries" "$WORK/solve.txt")
cuts=$(echo "$line" | sed -E 's/.*clause ([0-9]+) interval-unsat ([0-9]+) interval-sat ([0-9]+) \(enumerated [0-9]+ swept [0-9]+\) cache ([0-9]+).*/\1 \2 \3 \4/')
set -- $cuts
[ "$(( $1 + $2 + $3 + $4 ))" -gt 0 ] || fail "no query answered by a shortcut: $line"
pass "solve: $n traces, every shortcut answer confirmed by Z3 (clause $1, interval unsat $2, interval sat $3, cache $4)"
