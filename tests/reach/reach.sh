#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# reach.truth: glassbox reach's verdicts against ground truth on programs
# written for the project (progs/), at -O0 and -O2. Every check names the
# verdict and the numbers that must hold; each would fail on a search that
# said "unreachable" without a proof, missed a reachable line, or walked
# every path of the diamonds.
#   reach.sh BUILD SRC BINDIR
. "$(dirname "$0")/../e2e/lib.sh"
T=$3
PROGS=$SRC/tests/reach/progs
mkdir -p "$WORK/seeds"
printf 'AAAAAAAA' >"$WORK/seeds/a"

# target_line PROG: the line marked TARGET in progs/PROG.c.
target_line() { grep -n 'TARGET' "$PROGS/$1.c" | head -1 | cut -d: -f1; }

# reach TAG NAME PROG OPT [ARGS...]: runs glassbox reach on build
# reach-NAME-OPT for PROG's target; its stdout line in $WORK/TAG-OPT.line,
# reach.json in $WORK/TAG-OPT/reach.json; the exit status in $rc.
declare -A build_of
reach() {
  local tag=$1 name=$2 prog=$3 opt=$4
  shift 4
  local out=$WORK/$tag-$opt
  build_of[$tag-$opt]=$name-$opt
  set +e
  "$BIN/glassbox" reach -q --target "$prog.c:$(target_line "$prog")" -i "$WORK/seeds" \
    -o "$out" "$@" -- "$T/reach-$name-$opt.trace" "$T/reach-$name-$opt.cov" \
    >"$out.line" 2>"$out.err"
  rc=$?
  set -e
  echo "$tag -$opt $*: $(cat "$out.line")"
}

# json_num FILE KEY: the number after "KEY": (the first one).
json_num() { sed -n "s/^ *\"$2\": *\([0-9][0-9]*\).*/\1/p" "$1" | head -1; }
json_str() { sed -n "s/^ *\"$2\": *\"\([^\"]*\)\".*/\1/p" "$1" | head -1; }

# verdict NAME OPT WANT: the line and reach.json both say WANT.
verdict() {
  local f=$WORK/$1-$2
  expect_eq "$1 -$2 exit status" "$rc" 0
  grep -q "^[^ ]*: $3[: ]" "$f.line" || fail "$1 -$2: want $3, got: $(cat "$f.line")"
  expect_eq "$1 -$2 reach.json verdict" "$(json_str "$f/reach.json" verdict)" "$3"
}

# reached NAME OPT: the saved input reaches the target again: the cov
# build run on it covers one of its blocks (replayed by glassbox reach
# itself, seeded with only that input, in at most one run).
reached() {
  local f=$WORK/$1-$2 input line
  verdict "$1" "$2" reached
  input=$(json_str "$f/reach.json" input)
  [ -f "$input" ] || fail "$1 -$2: no input at '$input'"
  rm -rf "$f.again" && mkdir -p "$f.again/seeds" && cp "$input" "$f.again/seeds/"
  line=$("$BIN/glassbox" reach -q --target "$(sed -n 's/^\([^ ]*\): .*/\1/p' "$f.line")" \
    -i "$f.again/seeds" -o "$f.again/out" -V 30 -- "$T/reach-${build_of[$1-$2]}.trace" "$T/reach-${build_of[$1-$2]}.cov")
  grep -q ': reached after [0-9.]* s and 1 runs' <<<"$line" ||
    fail "$1 -$2: the saved input does not reach the target on its own: $line"
}

# Constant folding never takes an uninitialised local for a constant: the
# target behind one is not "no CFG path" (it may run, by the stack's
# garbage); the branch on a real constant is.
reach uninit uninit uninit O0 -V 30
grep -q ': unreachable-no-cfg-path' "$WORK/uninit-O0.line" &&
  fail "uninit: an uninitialised local was folded as a constant"
out=$WORK/uninit-folded
"$BIN/glassbox" reach -q --target "uninit.c:$(grep -n FOLDED "$PROGS/uninit.c" | cut -d: -f1)" \
  -i "$WORK/seeds" -o "$out" -V 30 -- "$T/reach-uninit-O0.trace" "$T/reach-uninit-O0.cov" \
  >"$out.line"
grep -q ': unreachable-no-cfg-path: no run reaches its blocks' "$out.line" ||
  fail "uninit: the constant branch is not folded: $(cat "$out.line")"

for opt in O0 O2; do
  # Reachable: the magic "RCH" is solved.
  reach reachable reachable reachable $opt -V 60
  reached reachable $opt
  [ "$(head -c 3 "$(json_str "$WORK/reachable-$opt/reach.json" input)")" = RCH ] ||
    fail "reachable -$opt: the input does not start with RCH"

  # Unreachable: contradictory checks in two functions. Proved, not
  # guessed: the flip into the second check is refuted exactly.
  reach unreachable unreachable unreachable $opt -V 60
  verdict unreachable $opt unreachable-within-bound
  f=$WORK/unreachable-$opt/reach.json
  [ "$(json_num "$f" refuted)" -ge 1 ] || fail "unreachable -$opt: no refuted flip"
  expect_eq "unreachable -$opt holes" "$(json_num "$f" holes)" 0
  expect_eq "unreachable -$opt pending" "$(json_num "$f" pending)" 0
  grep -q 'K=8' "$WORK/unreachable-$opt.line" || fail "unreachable -$opt: the line names no bound"

  # The CDSE thesis's abs/difference: violable under 32-bit wrap-around.
  reach absdiff absdiff absdiff $opt -V 60
  reached absdiff $opt

  # Reachable only beyond the bound: four 'x' need the loop's test at
  # least five times. Never "unreachable" without the bound named; with
  # K=8 reached. At -O2 the loop is unrolled (its test runs once per four
  # bytes), so K=3 may already reach it there: the ground truth allows it.
  reach loop3 loop loop $opt -V 120 --unroll 3
  if [ "$opt" = O0 ] || ! grep -q ': reached' "$WORK/loop3-$opt.line"; then
    verdict loop3 $opt unreachable-within-bound
    grep -q 'at most K=3 times' "$WORK/loop3-$opt.line" || fail "loop -$opt K=3: bound not named"
    f=$WORK/loop3-$opt/reach.json
    [ "$(json_num "$f" bound_pruned)" -ge 1 ] || fail "loop -$opt K=3: no flip cut by the bound"
    grep -q '"bound_cut": *true' "$f" || fail "loop -$opt K=3: bound_cut is not true"
  fi
  reach loop8 loop loop $opt -V 120 --unroll 8
  reached loop8 $opt

  # No proof from pinned traces, nor past a call outside the instrumented
  # code: the same unreachable target is then unknown, and says why.
  reach pinned pinned pinned $opt -V 60
  verdict pinned $opt unknown
  grep -q 'PIN entry' "$WORK/pinned-$opt.line" || fail "pinned -$opt: the pin is not named"
  reach outside outside pinned $opt -V 60
  verdict outside $opt unknown
  grep -q 'calls getenv' "$WORK/outside-$opt.line" || fail "outside -$opt: getenv is not named"

  # --target asserts: each failing assert and trap is a target of its own.
  out=$WORK/asserts-$opt
  set +e
  "$BIN/glassbox" reach -q --target asserts -i "$WORK/seeds" -o "$out" -V 120 -- \
    "$T/reach-asserts-$opt.trace" "$T/reach-asserts-$opt.cov" >"$out.line" 2>"$out.err"
  rc=$?
  set -e
  echo "asserts -$opt: $(cat "$out.line")"
  expect_eq "asserts -$opt exit status" "$rc" 0
  expect_eq "asserts -$opt targets" "$(wc -l <"$out.line")" 3
  expect_eq "asserts -$opt reached" "$(grep -c ': reached after' "$out.line")" 2
  expect_eq "asserts -$opt proved" "$(grep -c ': unreachable-within-bound' "$out.line")" 1
  grep ': unreachable-within-bound' "$out.line" | grep -q "asserts.c:$(grep -n 'assert(!same' \
    "$PROGS/asserts.c" | cut -d: -f1) (assert)" || fail "asserts -$opt: the wrong assert is proved"

  # DASH's Figure 5.2: lock is 1 on all 32 paths. At -O0 glassbox-cc folds
  # the branch on the constant lock (UNREACHED), so no path is expanded;
  # at -O2 the compiler removed the line.
  reach diamonds diamonds diamonds $opt -V 60
  if [ "$opt" = O0 ]; then
    verdict diamonds $opt unreachable-no-cfg-path
    grep -q 'test constants' "$WORK/diamonds-$opt.line" || fail "diamonds -O0: not folded"
    n=$(json_num "$WORK/diamonds-$opt/reach.json" paths)
    [ "$n" -lt 32 ] || fail "diamonds -O0: $n paths enumerated"
  else
    expect_eq "diamonds -O2 exit status" "$rc" 2
    grep -q ': no-block: line' "$WORK/diamonds-$opt.line" || fail "diamonds -O2: not no-block"
  fi

  # DASH's diamonds with a lock byte: the directed search goes for the
  # lock's branch first and reaches the assertion in far fewer than the
  # 32 paths of the diamonds.
  reach diamonds_lock diamonds_lock diamonds $opt -V 60
  reached diamonds_lock $opt
  n=$(json_num "$WORK/diamonds_lock-$opt/reach.json" paths)
  [ "$n" -lt 4 ] || fail "diamonds_lock -$opt: $n paths expanded before the target"

  # Bit tests before byte compares, and a helper called near the target
  # and far from it: reached in at most 100 runs. At -O0 it took 61 runs;
  # without the relaxed children of refuted flips the search was still
  # walking the bit tests' paths after 20 s (2,000 runs), and with them
  # but distances through the helper's returns into any caller it took
  # 143 runs.
  reach bitgate bitgate bitgate $opt -V 60
  reached bitgate $opt
  n=$(json_num "$WORK/bitgate-$opt/reach.json" execs)
  [ "$n" -le 100 ] || fail "bitgate -$opt: $n runs before the target"
done
