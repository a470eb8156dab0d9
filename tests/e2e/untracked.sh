#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Values the tracer does not track are concretised with recorded pins,
# never silently: an int-to-long-double conversion of an input byte and an
# i128 division each leave a PIN entry over those bytes in `glassbox show`.
# Floats and doubles are tracked (their IEEE bits, trace version 3): a
# float loaded from input bytes is not pinned, and its compare is an FP
# branch on those bytes. Uses the conformance suite's builds.
. "$(dirname "$0")/lib.sh"
C=$BUILD/tests/conformance
for opt in O0 O2; do
  printf '\x64\x00' >"$WORK/in1"
  "$BIN/glassbox" trace "$WORK/in1" -o "$WORK/t1.gbt" -- "$C/c-float_pin-$opt.trace" >/dev/null
  "$BIN/glassbox" show "$WORK/t1.gbt" >"$WORK/t1.smt2"
  # The pin says b0 (widened) equals 100, its value on this run.
  grep -q ';; pc .* pin' "$WORK/t1.smt2" && grep -q 'b0.*(_ bv100 ' "$WORK/t1.smt2" ||
    fail "float_pin-$opt: no pin b0 == 100 at the int-to-long-double conversion: $(cat "$WORK/t1.smt2")"
  printf '\x00\x00\xc0\x3f\x41\x41' >"$WORK/in2"
  "$BIN/glassbox" trace "$WORK/in2" -o "$WORK/t2.gbt" -- "$C/c-float_bytes-$opt.trace" >/dev/null
  "$BIN/glassbox" show "$WORK/t2.gbt" >"$WORK/t2.smt2"
  "$BIN/glassbox" show --inputs "$WORK/t2.gbt" >"$WORK/t2.in"
  # No pin on the float's bytes; a branch on them views them as a binary32.
  if grep ' pin ' "$WORK/t2.in" | grep -q 'b3'; then
    fail "float_bytes-$opt: the float load is pinned: $(cat "$WORK/t2.in")"
  fi
  grep ' branch .*b0 b1 b2 b3' "$WORK/t2.in" >/dev/null && grep -q '(_ to_fp 8 24)' "$WORK/t2.smt2" ||
    fail "float_bytes-$opt: no FP branch on the float's bytes: $(cat "$WORK/t2.smt2")"
done
pass "untracked: long double is pinned, floats are tracked without pins, at -O0 and -O2"

# i128 arithmetic is tracked as two 64-bit halves, i128 division is not:
# after i128_mul's gate (a branch on the product's halves, over a's bytes
# b0..b7 and b's b8 b9), the remainder it prints pins the product, so a
# PIN over the same bytes follows the branch.
for opt in O0 O2; do
  printf '\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00' >"$WORK/in4"
  "$BIN/glassbox" trace "$WORK/in4" -o "$WORK/t4.gbt" -- "$C/c-i128_mul-$opt.trace" >/dev/null
  "$BIN/glassbox" show --inputs "$WORK/t4.gbt" >"$WORK/t4.txt"
  grep -qE '^[0-9]+ branch taken 0: b0 .*b7 b8 b9$' "$WORK/t4.txt" ||
    fail "i128_mul-$opt: no branch over the product's bytes: $(cat "$WORK/t4.txt")"
  grep -qE '^[0-9]+ pin taken 1: b0 .*b7 b8 b9$' "$WORK/t4.txt" ||
    fail "i128_mul-$opt: the i128 remainder is not pinned: $(cat "$WORK/t4.txt")"
done
pass "untracked: i128 products are tracked, an i128 remainder is pinned, at -O0 and -O2"

# External calls clear the shadows of what they were given: after
# clock_gettime overwrites a struct that held input bytes 0..7, the
# compare on its tv_sec is not a constraint on those bytes.
for opt in O0 O2; do
  printf '\x01\x02\x03\x04\x05\x06\x07\x08AA' >"$WORK/in3"
  "$BIN/glassbox" trace "$WORK/in3" -o "$WORK/t3.gbt" -- "$C/c-ext_clear-$opt.trace" >/dev/null
  "$BIN/glassbox" show "$WORK/t3.gbt" >"$WORK/t3.smt2"
  grep -q 'b8' "$WORK/t3.smt2" || fail "ext_clear-$opt: the gate on b8 is missing: $(cat "$WORK/t3.smt2")"
  if grep -qE '[ (]b[0-7][ )]' "$WORK/t3.smt2"; then
    fail "ext_clear-$opt: a stale shadow survived clock_gettime: $(cat "$WORK/t3.smt2")"
  fi
done
pass "untracked: memory an external call writes loses its stale shadows"
