#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# glassbox cmin against afl-showmap and afl-cmin on cmin_target.c.
# Usage: cmin.sh BUILD SRC PART, PART one of coverage, vs_afl, verify,
# inputs, usage. GB_CMIN_T names the target's builds without the suffix
# (.cov: glassbox-cc, .afl: afl-clang-fast).
. "$2/tests/e2e/lib.sh"
PART=$3
G=$BIN/glassbox
TCOV=${GB_CMIN_T:?}.cov
TAFL=$GB_CMIN_T.afl
[ -x "$TCOV" ] || fail "no cov build $TCOV"
[ -x "$TAFL" ] || fail "no afl-clang-fast build $TAFL (scripts/build installs afl++)"
export AFL_QUIET=1 AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1
# afl-cmin refuses any path under /tmp (its awk temp files) unless told:
# a build or a work dir there is ours and private (mktemp -d).
export AFL_ALLOW_TMP=1

# corpus DIR N SEED: N small inputs for cmin_target.c, pseudo-random from
# SEED: a branch letter, then letters and digits (duplicates come with it).
corpus() {
  mkdir -p "$1"
  LC_ALL=C awk -v dir="$1" -v n="$2" -v seed="$3" 'BEGIN {
    srand(seed); split("L D X Q", p, " "); cs = "abc0123456789xyz"
    for (i = 0; i < n; i++) {
      s = p[int(rand() * 4) + 1]; len = int(rand() * rand() * 40)
      for (j = 0; j < len; j++) s = s substr(cs, int(rand() * length(cs)) + 1, 1)
      f = sprintf("%s/in%04d", dir, i); printf "%s", s > f; close(f)
    } }'
}

# elements DIR: the (edge, hit bucket) pairs of every file in DIR on the
# afl-clang-fast build, one "edge:bucket" per line (buckets 1..8), sorted.
# afl-showmap gives raw counts (-r) and the buckets are made here: its own
# classified output (4.04c) leaves out some entries of this target's map
# that the raw map has (docs/cmin.md).
elements() {
  local tr=$WORK/showmap.$RANDOM
  afl-showmap -r -i "$1" -o "$tr" -t 1000 -- "$TAFL" @@ >/dev/null 2>&1 || true
  cat "$tr"/* | awk -F: '{ c = $2 + 0
    b = c <= 3 ? c : c < 8 ? 4 : c < 16 ? 5 : c < 32 ? 6 : c < 128 ? 7 : 8; print $1 ":" b }' |
    sort -u
  rm -rf "$tr"
}

# kept OUTPUT_OF_GLASSBOX: the N of "kept N files".
kept() { sed -n 's/^glassbox cmin: kept \([0-9]*\) files.*/\1/p' "$1"; }

# one_line CODE FILE WHAT: the command exited CODE with one line on stderr.
one_line() {
  [ "$(wc -l <"$3")" -eq 1 ] || fail "$4: stderr is not one line: $(cat "$3")"
  [ "$1" -eq "$2" ] || fail "$4: exit $1, want $2 ($(cat "$3"))"
}

# run_g CODE WHAT ARGS...: glassbox cmin ARGS, which must exit CODE; its
# stdout in $WORK/g.out, stderr in $WORK/g.err.
run_g() {
  local want=$1 what=$2 rc=0
  shift 2
  "$G" cmin "$@" >"$WORK/g.out" 2>"$WORK/g.err" || rc=$?
  [ "$rc" -eq "$want" ] || fail "$what: exit $rc, want $want: $(cat "$WORK/g.err")"
}

part_coverage() {
  corpus "$WORK/in" 300 1
  run_g 0 "cmin on the afl build" -i "$WORK/in" -o "$WORK/out" -- "$TAFL" @@
  local n
  n=$(kept "$WORK/g.out")
  [ "$n" -gt 3 ] && [ "$n" -lt 300 ] || fail "kept $n of 300 files"
  elements "$WORK/in" >"$WORK/in.el"
  elements "$WORK/out" >"$WORK/out.el"
  [ -s "$WORK/in.el" ] || fail "afl-showmap saw no coverage"
  diff "$WORK/in.el" "$WORK/out.el" >"$WORK/diff" ||
    fail "output covers other (edge, bucket) pairs than the input: $(head -5 "$WORK/diff")"
  expect_eq "elements found by cmin and afl-showmap" \
    "$(sed -n 's/^glassbox cmin: \([0-9]*\) coverage elements.*/\1/p' "$WORK/g.out")" \
    "$(wc -l <"$WORK/in.el")"
  pass "afl build: $n of 300 files keep all $(wc -l <"$WORK/in.el") (edge, bucket) pairs (afl-showmap)"

  # The cov build, input on stdin (no @@), verified by cmin itself.
  run_g 0 "cmin --verify on the cov build" -i "$WORK/in" -o "$WORK/out2" --verify -- "$TCOV"
  grep -q "verify: .* 0 missing, 0 extra: ok" "$WORK/g.out" || fail "no verify line: $(cat "$WORK/g.out")"
  pass "cov build over stdin: kept $(kept "$WORK/g.out"), --verify ok"

  # -e: edges only, no hit counts: the same edges, no more files.
  run_g 0 "cmin -e" -e -i "$WORK/in" -o "$WORK/out3" -- "$TAFL" @@
  local ne
  ne=$(kept "$WORK/g.out")
  [ "$ne" -le "$n" ] || fail "-e kept $ne files, more than the $n with hit counts"
  diff <(cut -d: -f1 "$WORK/in.el" | sort -u) <(elements "$WORK/out3" | cut -d: -f1 | sort -u) \
    >/dev/null || fail "-e output lost edges"
  pass "-e: $ne files keep every edge"
}

part_vs_afl() {
  corpus "$WORK/in" 400 2
  local a g g2 ae ge
  (cd "$WORK" && afl-cmin -i in -o acm -t 1000 -- "$TAFL" @@ >"$WORK/acm.log" 2>&1) ||
    fail "afl-cmin failed: $(tail -3 "$WORK/acm.log")"
  a=$(find "$WORK/acm" -type f | wc -l)
  [ "$a" -gt 0 ] || fail "afl-cmin kept nothing"
  run_g 0 "cmin" -i "$WORK/in" -o "$WORK/gcm" -- "$TAFL" @@
  g=$(kept "$WORK/g.out")
  [ "$g" -le "$a" ] || fail "glassbox cmin kept $g files, afl-cmin $a"
  # Everything afl-cmin's output covers, ours covers too (afl-cmin may
  # cover less: it sees the map through afl-showmap's classified output).
  elements "$WORK/acm" >"$WORK/acm.el"
  elements "$WORK/gcm" >"$WORK/gcm.el"
  elements "$WORK/in" >"$WORK/in.el"
  [ -z "$(comm -23 "$WORK/acm.el" "$WORK/gcm.el")" ] ||
    fail "afl-cmin's output covers pairs glassbox cmin's does not: $(comm -23 "$WORK/acm.el" "$WORK/gcm.el" | head -3)"
  diff "$WORK/in.el" "$WORK/gcm.el" >/dev/null || fail "glassbox cmin's output lost coverage"
  pass "400 inputs: glassbox cmin $g files ($(cat "$WORK"/gcm/* | wc -c) B), afl-cmin $a files" \
    "($(cat "$WORK"/acm/* | wc -c) B); pairs of the input $(wc -l <"$WORK/in.el"), of glassbox's" \
    "$(wc -l <"$WORK/gcm.el"), of afl-cmin's $(wc -l <"$WORK/acm.el")"

  # -T 2: the same files as one forkserver.
  run_g 0 "cmin -T 2" -T 2 -i "$WORK/in" -o "$WORK/gcm2" -- "$TAFL" @@
  diff <(ls "$WORK/gcm") <(ls "$WORK/gcm2") >/dev/null || fail "-T 2 kept other files than -T 1"
  pass "-T 2 keeps exactly the files -T 1 keeps"

  (cd "$WORK" && afl-cmin -e -i in -o acme -t 1000 -- "$TAFL" @@ >"$WORK/acme.log" 2>&1) ||
    fail "afl-cmin -e failed: $(tail -3 "$WORK/acme.log")"
  ae=$(find "$WORK/acme" -type f | wc -l)
  run_g 0 "cmin -e" -e -i "$WORK/in" -o "$WORK/gcme" -- "$TAFL" @@
  ge=$(kept "$WORK/g.out")
  [ "$ge" -le "$ae" ] || fail "glassbox cmin -e kept $ge files, afl-cmin -e $ae"
  pass "-e: glassbox cmin $ge files, afl-cmin -e $ae"
}

part_verify() {
  corpus "$WORK/in" 200 3
  run_g 0 "cmin" -i "$WORK/in" -o "$WORK/out" -- "$TCOV" @@
  run_g 0 "--verify on an intact output" --verify -i "$WORK/in" -o "$WORK/out" -- "$TCOV" @@
  grep -q "verify: .*: ok" "$WORK/g.out" || fail "intact output not verified: $(cat "$WORK/g.out")"
  if grep -q "^glassbox cmin: kept" "$WORK/g.out"; then fail "--verify on an existing OUT wrote files"; fi
  # Every kept file holds an element no other kept file has: removing any
  # one must fail the check.
  local victim
  victim=$(ls "$WORK/out" | head -1)
  rm "$WORK/out/$victim"
  local rc=0
  "$G" cmin --verify -i "$WORK/in" -o "$WORK/out" -- "$TCOV" @@ >"$WORK/g.out" 2>"$WORK/g.err" || rc=$?
  one_line "$rc" 1 "$WORK/g.err" "--verify after removing $victim"
  grep -q "verify failed: .* lacks [1-9][0-9]* of the input's" "$WORK/g.err" ||
    fail "--verify reason: $(cat "$WORK/g.err")"
  pass "--verify: ok on the output, fails once $victim is removed ($(cat "$WORK/g.err"))"
}

part_inputs() {
  local A=$WORK/A B=$WORK/B
  mkdir -p "$A/.state" "$B" "$WORK/outside"
  printf 'La' >"$A/a1"
  printf 'La' >"$A/zz_dup"           # byte-identical to a1
  printf 'Lb' >"$B/a1"               # same name, other dir
  printf 'D12' >"$A/digits"
  printf 'CRASH' >"$A/crash"
  printf 'HANG' >"$A/hang"
  printf 'Lcc' >"$WORK/outside/cc"   # unique coverage, reachable only by symlink
  ln -s ../outside/cc "$A/link"
  printf 'Xyyy' >"$A/.hidden"        # unique coverage in a dot file
  printf 'Xyyy' >"$A/.state/x"
  head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' 'Q' >"$A/big"
  run_g 0 "two dirs" -t 300 -i "$A" "$B" -o "$WORK/out" -- "$TCOV" @@
  local got
  got=$(ls -A "$WORK/out" | tr '\n' ' ')
  expect_eq "output files" "$got" "a1 a1,from:B digits "
  grep -q "6 inputs (.*) read, 2 skipped, 1 duplicates" "$WORK/g.out" ||
    fail "counts: $(head -1 "$WORK/g.out")"
  grep -q "1 crashes, 1 hangs (skipped)" "$WORK/g.out" || fail "crash counts: $(cat "$WORK/g.out")"
  cmp -s "$WORK/out/a1,from:B" "$B/a1" || fail "a1,from:B is not B's a1"
  pass "dups dropped, crash and hang skipped, symlink/dot/oversize skipped, names kept, clash named"

  # -T 3 (more workers than some inputs' share): the same files and counts;
  # the dirs given as --input=A and -iB, the other options in getopt's forms.
  run_g 0 "two dirs, -T 3" -T3 --timeout=300 --input="$A" -i"$B" -o "$WORK/out3" -- "$TCOV" @@
  expect_eq "-T 3 output files" "$(ls -A "$WORK/out3" | tr '\n' ' ')" "a1 a1,from:B digits "
  grep -q "1 crashes, 1 hangs (skipped)" "$WORK/g.out" || fail "-T 3 crash counts: $(cat "$WORK/g.out")"

  run_g 0 "--keep-crashes" --keep-crashes -t 300 -i "$A" -o "$WORK/outk" -- "$TCOV" @@
  [ -f "$WORK/outk/crash" ] || fail "--keep-crashes did not keep the crash: $(ls "$WORK/outk")"
  pass "--keep-crashes keeps the crashing input"

  # A sync dir given directly: every instance's queue, clashes named by instance.
  local S=$WORK/sync
  mkdir -p "$S/f1/queue/.state" "$S/f2/queue" "$S/f2/crashes"
  printf 'La' >"$S/f1/queue/id:000000,orig:a"
  printf 'D1' >"$S/f2/queue/id:000000,orig:a"
  printf 'CRASH' >"$S/f2/crashes/id:000000,sig:06"
  run_g 0 "sync dir" -i "$S" -o "$WORK/outs" -- "$TCOV" @@
  expect_eq "sync dir output" "$(ls "$WORK/outs" | tr '\n' ' ')" \
    "id:000000,orig:a id:000000,orig:a,from:f2 "
  run_g 0 "sync queues" -i "$S"/*/queue -o "$WORK/outq" -- "$TCOV" @@
  diff <(ls "$WORK/outs") <(ls "$WORK/outq") >/dev/null || fail "-i SYNC/*/queue differs from -i SYNC"
  pass "a sync dir and its queues by glob merge alike"

  mkdir -p "$WORK/empty"
  local rc=0
  "$G" cmin -i "$WORK/empty" -o "$WORK/o1" -- "$TCOV" @@ 2>"$WORK/e" || rc=$?
  one_line "$rc" 1 "$WORK/e" "empty dir"
  grep -q "no input files in" "$WORK/e" || fail "empty dir: $(cat "$WORK/e")"
  rc=0
  "$G" cmin -i "$WORK/nope" -o "$WORK/o2" -- "$TCOV" @@ 2>"$WORK/e" || rc=$?
  one_line "$rc" 1 "$WORK/e" "missing dir"
  rc=0
  "$G" cmin -i "$A" -o "$WORK/out" -- "$TCOV" @@ 2>"$WORK/e" || rc=$?
  one_line "$rc" 1 "$WORK/e" "non-empty OUT"
  grep -q "not empty" "$WORK/e" || fail "non-empty OUT: $(cat "$WORK/e")"
  pass "empty, missing input and non-empty output dirs: one-line errors"
}

part_usage() {
  local rc
  check_usage() { # WANT_CODE WHAT ARGS...
    local want=$1 what=$2
    shift 2
    rc=0
    "$G" cmin "$@" >/dev/null 2>"$WORK/e" || rc=$?
    one_line "$rc" "$want" "$WORK/e" "$what"
  }
  mkdir -p "$WORK/in" && printf 'La' >"$WORK/in/a"
  check_usage 2 "no arguments"
  check_usage 2 "no -o" -i "$WORK/in" -- "$TCOV"
  check_usage 2 "no BIN" -i "$WORK/in" -o "$WORK/o"
  check_usage 2 "-T 0" -T 0 -i "$WORK/in" -o "$WORK/o" -- "$TCOV"
  check_usage 2 "-T x" -T x -i "$WORK/in" -o "$WORK/o" -- "$TCOV"
  check_usage 2 "-T huge" -T 100000 -i "$WORK/in" -o "$WORK/o" -- "$TCOV"
  check_usage 2 "unknown option" --bogus -i "$WORK/in" -o "$WORK/o" -- "$TCOV"
  check_usage 1 "missing BIN" -i "$WORK/in" -o "$WORK/o" -- "$WORK/no-such-bin"
  check_usage 1 "not instrumented" -i "$WORK/in" -o "$WORK/o3" -- /bin/cat
  grep -q "not instrumented" "$WORK/e" || fail "plain binary: $(cat "$WORK/e")"
  "$G" cmin --help >"$WORK/help" || fail "--help failed"
  grep -q "^usage: glassbox cmin" "$WORK/help" || fail "--help: $(head -1 "$WORK/help")"
  pass "bad usage exits 2, a bad binary 1, each with one line; --help works"
}

case $PART in
  coverage | vs_afl | verify | inputs | usage) "part_$PART" ;;
  *) fail "unknown part $PART" ;;
esac
