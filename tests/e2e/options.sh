#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The option forms AFL++ and libFuzzer users bring (--timeout=100, -t100,
# -qV 2, -m none, -t N+, -i - to resume), one-line errors with exit 2 for
# bad options, arguments after -- reaching the target unparsed, and a seed
# folder with a 2 MiB file, a subfolder and a dangling symlink: warned
# about, and the run goes on with the subfolder's seed.
. "$(dirname "$0")/lib.sh"
T=$H/top.trace
C=$H/top.cov
SEEDS=$SRC/harnesses/top/seeds

# fuzz_ok NAME ARGS...: glassbox fuzz ARGS -o $WORK/NAME on top must exit 0.
fuzz_ok() {
  local name=$1
  shift
  "$BIN/glassbox" fuzz "$@" -o "$WORK/$name" -- "$T" "$C" >"$WORK/$name.out" 2>"$WORK/$name.err" ||
    fail "$name: exit $?: $(cat "$WORK/$name.err")"
}

# usage_error NAME PATTERN ARGS...: glassbox fuzz ARGS must exit 2 with
# one stderr line matching PATTERN.
usage_error() {
  local name=$1 pat=$2 rc=0
  shift 2
  "$BIN/glassbox" fuzz "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || rc=$?
  expect_eq "$name: exit status" "$rc" 2
  expect_eq "$name: stderr lines ($(cat "$WORK/err.txt"))" "$(wc -l <"$WORK/err.txt")" 1
  grep -q -- "$pat" "$WORK/err.txt" || fail "$name: '$(cat "$WORK/err.txt")' does not match '$pat'"
  pass "$name: $(cat "$WORK/err.txt")"
}

fuzz_ok eq -i "$SEEDS" --timeout=100 -qV 2
expect_eq "--timeout=100" "$(stat_of "$WORK/eq/glassbox/fuzzer_stats" exec_timeout)" 100
# -q: nothing but the one-line crash count of the end-of-run summary.
[ "$(grep -vc '^glassbox fuzz: [0-9]* crash\(es\)\? saved\|^glassbox fuzz: no crashes saved' "$WORK/eq.err")" -eq 0 ] ||
  fail "-qV 2 printed a status: $(head -3 "$WORK/eq.err")"
pass "--timeout=100 -qV 2"
fuzz_ok attached -i "$SEEDS" -qt100 -m none
expect_eq "-qt100" "$(stat_of "$WORK/attached/glassbox/fuzzer_stats" exec_timeout)" 100
pass "-qt100 -m none"
fuzz_ok plus -q -i "$SEEDS" -t 500+ -m 64
expect_eq "-t 500+" "$(stat_of "$WORK/plus/glassbox/fuzzer_stats" exec_timeout)" 500
pass "-t 500+"
fuzz_ok eq -q -V 1 -i -
[ -s "$WORK/eq/glassbox/.expanded" ] || fail "-i - did not resume the campaign in $WORK/eq"
pass "-i - resumes"

usage_error unknown "unknown option '--foo' (see --help)" --foo -i "$SEEDS" -o "$WORK/u" -- "$T" "$C"
usage_error unknown-short "unknown option '-Z'" -qZ -i "$SEEDS" -o "$WORK/u" -- "$T" "$C"
usage_error prefix "unknown option '--timeo=5'" --timeo=5 -i "$SEEDS" -o "$WORK/u" -- "$T" "$C"
usage_error no-value "--timeout needs a value" -i "$SEEDS" -o "$WORK/u" --timeout
usage_error flag-value "--quiet takes no value" --quiet=1 -i "$SEEDS" -o "$WORK/u" -- "$T" "$C"
usage_error bad-memory "expects a non-negative number or none, got 'lots'" -m lots -i "$SEEDS"
usage_error bad-plus "non-negative number, got '5+'" -V 5+ -i "$SEEDS"
usage_error bad-z3-mem "--z3-mem-max expects a non-negative number or none, got '1G'" --z3-mem-max 1G -i "$SEEDS"
usage_error big-z3-mem "--z3-mem-max must be at most 1048576 MB" --z3-mem-max 2000000 -i "$SEEDS" -o "$WORK/u" -- "$T" "$C"
GLASSBOX_Z3_MEM_MAX=-1 usage_error env-z3-mem "GLASSBOX_Z3_MEM_MAX expects a non-negative number or none, got '-1'" -i "$SEEDS"
# The environment's overrides are checked like the options they stand for.
for v in abc -5 99999999999999999999 12x; do
  GLASSBOX_SOLVER_TIMEOUT=$v usage_error "env-timeout-$v" "GLASSBOX_SOLVER_TIMEOUT expects a non-negative number, got '$v'" \
    -q -i "$SEEDS" -o "$WORK/u" -- "$T" "$C"
done
for v in ../../etc a/b 'x y'; do
  rc=0
  GLASSBOX_NAME=$v "$BIN/glassbox" fuzz -q -i "$SEEDS" -o "$WORK/u" -- "$T" "$C" >/dev/null 2>"$WORK/err.txt" || rc=$?
  [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] || fail "GLASSBOX_NAME='$v': exit status $rc"
  expect_eq "GLASSBOX_NAME='$v': stderr lines" "$(wc -l <"$WORK/err.txt")" 1
  grep -q "bad campaign name" "$WORK/err.txt" || fail "GLASSBOX_NAME='$v': $(cat "$WORK/err.txt")"
  [ ! -e "$WORK/etc" ] && [ ! -e "$WORK/u/a" ] || fail "GLASSBOX_NAME='$v' made a directory"
done
pass "bad GLASSBOX_SOLVER_TIMEOUT and GLASSBOX_NAME values: one line, non-zero, no signal"
[ ! -e "$WORK/u" ] || fail "a refused command created $WORK/u"

# -x after -- is the target's (io_args aborts only when run as "-x FILE"
# on a file starting 'A'...'Z'); parsed as glassbox's, it would be refused.
# A sanitized build (scripts/test --sanitize) has no conformance programs.
P=$BUILD/tests/conformance/c-io_args-O2
if [ -x "$P.trace" ] || ! grep -q '^GB_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt"; then
  mkdir -p "$WORK/argseeds"
  printf '\x00\x00\x00\x00' >"$WORK/argseeds/seed"
  "$BIN/glassbox" fuzz -q -V 20 -i "$WORK/argseeds" -o "$WORK/args" -- "$P.trace" "$P.cov" -x @@ ||
    fail "fuzz with target arguments failed"
  [ "$(count_ids "$WORK/args/glassbox/crashes")" -gt 0 ] || fail "-x @@ did not reach the target"
  pass "-x @@ after -- reached the target"
else
  echo "SKIP: -x @@ after -- (no conformance programs in a sanitized build)"
fi

# A 2 MiB file, a subfolder and a dangling symlink among the seeds.
mkdir -p "$WORK/messy/sub"
head -c $((2 << 20)) /dev/zero >"$WORK/messy/big"
cp "$SEEDS"/* "$WORK/messy/sub/"
ln -s no-such-file "$WORK/messy/dangling"
fuzz_ok m -q -V 2 -i "$WORK/messy"
grep -q "warning: skipped seed $WORK/messy/big: too large" "$WORK/m.err" ||
  fail "no warning for the 2 MiB seed: $(cat "$WORK/m.err")"
grep -q "warning: skipped seed $WORK/messy/dangling: a symbolic link to nothing" "$WORK/m.err" ||
  fail "no warning for the dangling symlink: $(cat "$WORK/m.err")"
expect_eq "warnings ($(cat "$WORK/m.err"))" "$(grep -c "warning:" "$WORK/m.err")" 2
[ "$(count_ids "$WORK/m/glassbox/queue" orig:sub_)" -gt 0 ] ||
  fail "the subfolder's seed is not in the queue: $(ls "$WORK/m/glassbox/queue" | head -3)"
pass "messy seeds: 2 warnings, the subfolder's seed used"
rm "$WORK/messy/sub"/*
rc=0
"$BIN/glassbox" fuzz -q -i "$WORK/messy" -o "$WORK/u" -- "$T" "$C" 2>"$WORK/err.txt" || rc=$?
expect_eq "nothing usable: exit status" "$rc" 1
tail -1 "$WORK/err.txt" | grep -q "no usable seed in $WORK/messy" || fail "nothing usable: $(cat "$WORK/err.txt")"
pass "nothing usable: $(tail -1 "$WORK/err.txt")"

# campaign: -t N+ and -m none reach afl-fuzz as written, the workers get
# plain numbers; the messy seeds reach afl-fuzz cleaned (it would stop at
# the dangling symlink); -i - resumes.
cp "$SEEDS"/* "$WORK/messy/sub/"
"$BIN/glassbox" campaign -i "$WORK/messy" -o "$WORK/sync" -V 3 -t 500+ -m none -- "$T" "$C" \
  2>"$WORK/camp.err" || fail "campaign: $(tail -3 "$WORK/camp.err")"
afl_cl=$(stat_of "$WORK/sync/main/fuzzer_stats" command_line)
gb_cl=$(stat_of "$WORK/sync/glassbox/fuzzer_stats" command_line)
case "$afl_cl" in *"-t 500+ -m none"*) ;; *) fail "afl-fuzz got: $afl_cl" ;; esac
case "$gb_cl" in *"-t 500 -m 0"*) ;; *) fail "the worker got: $gb_cl" ;; esac
[ "$(grep -c 'warning: skipped seed' "$WORK/camp.err")" -eq 2 ] || fail "campaign warnings: $(cat "$WORK/camp.err")"
pass "campaign -t 500+ -m none: $afl_cl"
"$BIN/glassbox" campaign -i - -o "$WORK/sync" -V 2 -- "$T" "$C" 2>"$WORK/camp2.err" ||
  fail "campaign -i -: $(tail -3 "$WORK/camp2.err")"
case "$(stat_of "$WORK/sync/glassbox/fuzzer_stats" command_line)" in
  *--resume*) ;;
  *) fail "campaign -i - did not resume the worker" ;;
esac
# Without -m, afl-fuzz keeps its own default (no limit), as its users run it.
case "$(stat_of "$WORK/sync/main/fuzzer_stats" command_line)" in
  *"-i -"*" -m "*) fail "afl-fuzz got a -m nobody asked for: $(stat_of "$WORK/sync/main/fuzzer_stats" command_line)" ;;
  *"-i -"*) ;;
  *) fail "afl-fuzz's resumed command line: $(stat_of "$WORK/sync/main/fuzzer_stats" command_line)" ;;
esac
pass "campaign -i - resumes"
