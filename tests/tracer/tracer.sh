#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks what the tracer records for small programs, that the trace and cov
# builds name the same blocks, and that instrumented programs behave like
# plain ones. Args: build dir, this test's build dir, O0 or O2.
set -euo pipefail
BIN=$1/bin
P=$2
OPT=$3
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-tracer.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL ($OPT): $*" >&2; exit 1; }

# trace PROG INPUT_BYTES: writes $W/t.gbt and $W/t.smt2. The checks below
# count entries over input bytes, so the length variable is off unless
# LEN=1 (it is checked on its own after "branch").
trace() {
  printf "$2" >"$W/in"
  GLASSBOX_LENGTH=${LEN:-0} "$BIN/glassbox" trace "$W/in" -o "$W/t.gbt" -t 10000 -- \
    "$P/t-$1-$OPT.trace" >"$W/trace.log"
  "$BIN/glassbox" show "$W/t.gbt" >"$W/t.smt2"
}
count() { grep -c "$1" "$W/t.smt2" || true; }
# branch_terms: the assertions after the branch entries' comments, without
# the comments, whose hex site ids can spell a byte name ("site 0x2b537b47").
branch_terms() { grep -A1 ';; pc .* branch' "$W/t.smt2" | grep -v '^;;' || true; }

trace branch 'A'
[ "$(count ';; pc .* branch')" -eq 1 ] || fail "branch: want 1 branch entry: $(cat "$W/t.smt2")"
grep -qw 'b0' "$W/t.smt2" || fail "branch: no b0 in the constraint"
# With the length variable, `n > 0` is a branch too, over len0..len2.
LEN=1 trace branch 'A'
[ "$(count ';; pc .* branch')" -eq 2 ] || fail "length: want 2 branch entries: $(cat "$W/t.smt2")"
grep -q '(declare-const len0 ' "$W/t.smt2" && grep -q 'len2' "$W/t.smt2" ||
  fail "length: the size compare does not read the length variable: $(cat "$W/t.smt2")"

trace magic 'MAGIC\x34\x12'
grep -q 'length matched' "$W/trace.log" || true
[ "$(count ';; pc .* branch')" -ge 2 ] || fail "magic: want >= 2 branch entries"
for b in b0 b1 b2 b3 b4 b5 b6; do grep -q "$b " "$W/t.smt2" || grep -q "$b)" "$W/t.smt2" || fail "magic: $b missing"; done

trace switch 'q'
if [ "$OPT" = O0 ]; then
  [ "$(count ';; pc .* switch')" -eq 3 ] || fail "switch: want 3 switch entries: $(grep ';; pc' "$W/t.smt2")"
  grep -q 'switch site .* taken 1' "$W/t.smt2" || fail "switch: the taken case is not marked"
else
  [ "$(count ';; pc ')" -ge 1 ] || fail "switch: no entries at -O2"
fi

trace table '\x03'
grep -q ';; pc .* pin' "$W/t.smt2" || fail "table: no pin for the symbolic index"
grep -q ';; pc .* check' "$W/t.smt2" || fail "table: no bounds check entry"

# Inline shadow tests and lazy addresses: the word's one symbolic byte
# is its last, so a test of its first shadow alone loses the branch; the
# store and the load at symbolic indices each record a pin.
trace mem 'A\x03\x05'
grep -q 'word matched' "$W/trace.log" || true
branch_terms | grep -qw 'b0' ||
  fail "mem: no branch over b0 (a word with one symbolic byte read as concrete): $(cat "$W/t.smt2")"
[ "$(count ';; pc .* pin')" -ge 2 ] ||
  fail "mem: want 2 pins (the symbolic indices' addresses): $(cat "$W/t.smt2")"
for b in b1 b2; do
  grep -q "$b" "$W/t.smt2" || fail "mem: $b missing"
done

# Integers wider than 64 bits: at -O2 the loop's closed form is computed
# in i65, whose halves keep the sum symbolic; before, the i65 pinned the
# bound (three pins over b0 b1) and the gate on the sum could not move.
if [ "$OPT" = O2 ]; then
  trace loopsum '\x05\x00'
  [ "$(count ';; pc .* pin')" -eq 0 ] && [ "$(count ';; pc .* branch')" -ge 2 ] ||
    fail "loopsum: the i65 closed form was pinned: $(cat "$W/t.smt2")"
fi

# A function returning an __int128 called through a pointer to one
# returning uint64_t (undefined in C) hands the caller the i128's pair as
# a 64-bit shadow: the run must not crash in the runtime, the entry over
# the pair is dropped and the one over the input bytes stays.
trace mismatch 'AAAAAAAA'
grep -q 'exited (status 0)' "$W/trace.log" || fail "mismatch: the run did not exit: $(cat "$W/trace.log")"
[ "$(count ';; pc .* branch')" -eq 1 ] && grep -qw 'b7' "$W/t.smt2" ||
  fail "mismatch: want one branch, over the input: $(cat "$W/t.smt2")"

head -c 100000 /dev/zero | tr '\0' ' ' >"$W/spaces"
"$BIN/glassbox" trace "$W/spaces" -o "$W/t.gbt" -- "$P/t-loop-$OPT.trace" >"$W/trace.log"
"$BIN/glassbox" show "$W/t.gbt" >"$W/t.smt2"
n=$(count ';; pc ')
[ "$n" -gt 0 ] && [ "$n" -lt 200 ] || fail "loop: back-off should keep 100000 compares to a few dozen entries, got $n"

# Back-off by calling context: check() is called from two loops over 64
# spaces, 32 bytes each. Its branch keeps 16 entries per context, then
# powers of two; so bytes 32..47 (the second caller's first hits) are in
# the trace. Keyed by site alone (GLASSBOX_BACKOFF_CTX=0) the second loop
# continues the first one's count, and only byte 63 (hit 64) is kept.
ctx_bytes() { # the input bytes the branch entries of $W/t.smt2 read
  branch_terms | grep -ow 'b[0-9]*' | sort -u | tr '\n' ' '
}
spaces64=$(printf '%64s' '')
trace ctx "$spaces64"
for b in 0 15 32 40 47; do
  ctx_bytes | grep -qw "b$b" || fail "ctx: no entry for byte $b under its own context: $(ctx_bytes)"
done
GLASSBOX_BACKOFF_CTX=0 trace ctx "$spaces64"
ctx_bytes | grep -qw b0 || fail "ctx: site-only keying lost byte 0"
for b in 32 40 47; do
  ! ctx_bytes | grep -qw "b$b" || fail "ctx: byte $b recorded with site-only keying (the test cannot tell the keys apart)"
done

trace calls 'xx\xef\xbe\xad\xde'
grep -q 'size matched' "$W/trace.log" || true
[ "$(count ';; pc .* branch')" -ge 1 ] || fail "calls: the compare through a call and a struct was lost"
for b in b2 b3 b4 b5; do grep -q "$b" "$W/t.smt2" || fail "calls: $b missing"; done

trace crash 'CR'
grep -q 'crashed (signal 11)' "$W/trace.log" || fail "crash: $(cat "$W/trace.log")"
[ "$(count ';; pc .* branch')" -ge 2 ] || fail "crash: the trace lost its prefix"
grep -q 'incomplete\|signal 11' "$W/t.smt2" || fail "crash: show does not say how the run ended"

# GLASSBOX_TABLES=auto, the default (issue 37): a CRC-8's chain reads its
# 256-byte table once symbolically (the first lookup, whose index is an
# input byte); every read indexed by an earlier read is pinned. =1 keeps
# them all, =0 none.
for mode in auto 1 0; do
  if [ "$mode" = auto ]; then unset GLASSBOX_TABLES; else export GLASSBOX_TABLES=$mode; fi
  trace chain8 'ABCD'
  n=$(count '(select t1')
  case $mode in
  auto) [ "$n" -eq 1 ] || fail "chain8: want 1 table read by default, got $n: $(grep -v store "$W/t.smt2")" ;;
  1) [ "$n" -ge 3 ] || fail "chain8: want every table read with GLASSBOX_TABLES=1, got $n" ;;
  0) [ "$n" -eq 0 ] || fail "chain8: want no table read with GLASSBOX_TABLES=0, got $n" ;;
  esac
  [ "$(count ';; pc .* pin')" -ge 1 ] || fail "chain8 ($mode): the pins are gone"
done
unset GLASSBOX_TABLES

# Constant tables (GLASSBOX_TABLES=1): the crackme's CRC-32 table reads are
# READ nodes over the table's bytes, shown as selects next to their pins,
# and the CRC is solved exactly: the child that crashes needs no repair
# (without tables the CRC is only fixed by repairing an optimistic child).
if [ "$OPT" = O2 ]; then
  printf '\x89GBX\r\n\x1a\n\0\0\0\0\0\0\0\0\0\0\0\0' >"$W/in"
  GLASSBOX_TABLES=1 "$BIN/glassbox" trace "$W/in" -o "$W/t.gbt" -- "$1/harnesses/crackme.trace" >/dev/null
  "$BIN/glassbox" show "$W/t.gbt" >"$W/t.smt2"
  grep -q 'QF_ABV' "$W/t.smt2" || fail "tables: show does not declare the array logic"
  grep -q '(define-fun t1 () (Array' "$W/t.smt2" || fail "tables: no table array in show"
  grep -q '(select t1' "$W/t.smt2" || fail "tables: no array read in show"
  grep -q ';; pc .* pin' "$W/t.smt2" || fail "tables: the pins are gone"
  [ "$(od -An -tu2 -j8 -N2 "$W/t.gbt" | tr -d ' ')" = 2 ] || fail "tables: trace is not version 2"
  # By default (auto) a table of 32-bit values (a CRC's, not a code table)
  # stays pinned: the exact CRC queries were ~50x slower.
  "$BIN/glassbox" trace "$W/in" -o "$W/t.gbt" -- "$1/harnesses/crackme.trace" >/dev/null
  "$BIN/glassbox" show "$W/t.gbt" >"$W/t.smt2"
  ! grep -q '(select' "$W/t.smt2" || fail "tables: the CRC-32 table is read symbolically by default"
  grep -q ';; pc .* pin' "$W/t.smt2" || fail "tables: no pin on the CRC-32 table's index by default"
  # The exact CRC query takes about a second of Z3: give it room, so a loaded
  # machine (CI runs tests in parallel) cannot turn it into a timeout.
  GLASSBOX_TABLES=1 "$BIN/glassbox" fuzz -q -V 60 --solver-timeout 30000 \
    -i "$(dirname "$0")/../../harnesses/crackme/seeds" -o "$W/cm" -- \
    "$1/harnesses/crackme.trace" "$1/harnesses/crackme.cov"
  grep -q '^saved_crashes *: [1-9]' "$W/cm/glassbox/fuzzer_stats" ||
    fail "tables: the CRC was not solved exactly ($(grep -E 'execs_done|queries_timeout' "$W/cm/glassbox/fuzzer_stats" | tr '\n' ' '))"
  grep -q '^children_repaired *: 0' "$W/cm/glassbox/fuzzer_stats" || fail "tables: the CRC needed a repair"
fi

# The trace's visited blocks are the cov build's map entries, same ids.
for p in branch magic switch table calls; do
  printf 'MAGIC\x34\x12q' >"$W/in"
  "$BIN/glassbox" trace "$W/in" -o "$W/t.gbt" -- "$P/t-$p-$OPT.trace" >/dev/null
  "$BIN/glassbox" show --blocks "$W/t.gbt" | sort -n >"$W/tb"
  afl-showmap -q -o "$W/map" -- "$P/t-$p-$OPT.cov" "$W/in" >/dev/null 2>&1 || true
  sed 's/:.*//' "$W/map" | sed 's/^0*\([0-9]\)/\1/' | sort -n >"$W/cb"
  [ -s "$W/tb" ] || fail "$p: no blocks in the trace"
  diff -q "$W/tb" "$W/cb" >/dev/null || fail "$p: trace blocks and cov map differ: $(diff "$W/tb" "$W/cb" | head -5)"
done

# A call to a function of another file: instrumented there, the bytes it
# copied keep their shadows (a branch over b0); built plain, what it wrote
# is concrete (no branch, and never a stale b4).
X=$(cd "$(dirname "$0")/progs" && pwd)
"$BIN/glassbox-cc" --mode=trace -"$OPT" -g "$X/xtu_main.c" "$X/xtu_fill.c" -o "$W/t-xtu-$OPT.trace"
clang-14 -"$OPT" -g -c "$X/xtu_fill.c" -o "$W/fill.o"
"$BIN/glassbox-cc" --mode=trace -"$OPT" -g "$X/xtu_main.c" "$W/fill.o" -o "$W/t-xtuext-$OPT.trace"
cp "$W/t-xtu-$OPT.trace" "$W/t-xtuext-$OPT.trace" "$P/"
trace xtu 'abcdefghijkl'
[ "$(count ';; pc .* branch')" -eq 1 ] && grep -qw 'b0' "$W/t.smt2" && ! grep -qw 'b4' "$W/t.smt2" ||
  fail "xtu: the bytes an instrumented function of another file copied lost their shadows: $(cat "$W/t.smt2")"
trace xtuext 'abcdefghijkl'
[ "$(count ';; pc .* branch')" -eq 0 ] ||
  fail "xtu: bytes written by uninstrumented code kept shadows: $(cat "$W/t.smt2")"

# Instrumented programs behave like plain ones (output and exit status).
for p in branch magic switch table loop calls crash ctx mem loopsum mismatch; do
  for input in '' 'A' 'X' 'MAGIC\x34\x12' 'q' 'z' '\x1f' 'CR' 'xx\xef\xbe\xad\xde' 'hello world'; do
    printf "$input" >"$W/in"
    for v in plain trace; do
      set +e
      GLASSBOX_TRACE_OUT="$W/eq.gbt" "$P/t-$p-$OPT.$v" "$W/in" >"$W/$v.out" 2>/dev/null
      echo "status $?" >>"$W/$v.out"
      set -e
    done
    cmp -s "$W/plain.out" "$W/trace.out" || fail "$p on '$input': plain and trace builds differ"
  done
done

# A failed build leaves no temporary directory behind (glassbox-cc's bitcode
# goes to $TMPDIR/glassbox-cc.XXXXXX, removed at exit: a compile error used
# to exit before the removal, and /tmp filled with them).
mkdir -p "$W/cctmp"
printf 'int main(void) { return 0; }\n' >"$W/good.c"
TMPDIR=$W/cctmp GLASSBOX_CC_KEEP=1 "$BIN/glassbox-cc" --mode=cov -$OPT "$W/good.c" -o "$W/good.out" ||
  fail "glassbox-cc could not build good.c"
ls "$W/cctmp" | grep -q '^glassbox-cc\.' || fail "glassbox-cc with GLASSBOX_CC_KEEP=1 kept nothing in TMPDIR"
rm -rf "$W/cctmp" && mkdir "$W/cctmp"
printf 'int main( { return 0; }\n' >"$W/bad.c"
printf 'int undefined_fn(void);\nint main(void) { return undefined_fn(); }\n' >"$W/unlinked.c"
for src in bad unlinked; do
  for mode in trace cov; do
    if TMPDIR=$W/cctmp "$BIN/glassbox-cc" --mode=$mode -$OPT "$W/$src.c" -o "$W/$src.out" \
      >/dev/null 2>&1; then
      fail "glassbox-cc --mode=$mode built $src.c"
    fi
    [ -z "$(ls -A "$W/cctmp")" ] || fail "glassbox-cc --mode=$mode left $(ls "$W/cctmp") after $src.c"
  done
done
echo "PASS: tracer programs at -$OPT"
