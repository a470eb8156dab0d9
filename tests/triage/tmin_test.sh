#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# glassbox tmin on tmin_target.c. $1 build dir, $2 source dir, $3 which
# test (coverage, trace, crash, samebug, demo, interrupt, errors), $4 the target's path prefix
# (PREFIX.afl, PREFIX.asan: afl-clang-fast; PREFIX.trace, PREFIX.cov:
# glassbox-cc). Sizes are compared with the real afl-tmin's on the same
# input and binary; coverage is checked with afl-showmap, crashes by
# replaying the ASan build and reading its own report.
source "$2/tests/e2e/lib.sh"
T=$4
G=$BIN/glassbox
export AFL_QUIET=1 AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1

# mkinput OUT SEED PAYLOAD_LEN JUNK_BEFORE JUNK_AFTER: "TMN1", the u16
# offset of the record, junk, the record ("KEY", length, payload, sum
# byte), junk. A payload over 16 bytes is the overflow.
mkinput() {
  LC_ALL=C awk -v seed="$2" -v plen="$3" -v ja="$4" -v jb="$5" 'BEGIN {
    srand(seed); off = 6 + ja;
    printf "TMN1%c%c", off % 256, int(off / 256);
    for (i = 0; i < ja; i++) printf "%c", 33 + int(rand() * 90);
    printf "KEY%c", plen; s = 0;
    for (i = 0; i < plen; i++) { c = 33 + int(rand() * 90); s = (s + c) % 256; printf "%c", c }
    printf "%c", s;
    for (i = 0; i < jb; i++) printf "%c", 33 + int(rand() * 90);
  }' > "$1"
}

size() { stat -c %s "$1"; }

# showmap BIN FILE: the bucketed edge map (afl-showmap's own classification).
showmap() { afl-showmap -q -o "$WORK/map.$$" -- "$1" "$2" >/dev/null 2>&1 || true; cat "$WORK/map.$$"; }

# same_cov BIN A B: A and B cover the same edges with the same buckets.
same_cov() {
  showmap "$1" "$2" > "$WORK/a.map"
  showmap "$1" "$3" > "$WORK/b.map"
  [ -s "$WORK/a.map" ] || fail "afl-showmap gave no map for $2"
  cmp -s "$WORK/a.map" "$WORK/b.map" || fail "$3 does not keep the coverage of $2"
}

# afl_tmin IN OUT BIN ARGS...: the real afl-tmin.
afl_tmin() {
  local in=$1 out=$2; shift 2
  afl-tmin -m none -i "$in" -o "$out" -- "$@" >"$WORK/afl-tmin.log" 2>&1 ||
    fail "afl-tmin failed: $(tail -3 "$WORK/afl-tmin.log")"
}

# reported LOG FILE: the "-> N bytes" of glassbox tmin's report is FILE's size.
reported() {
  local n
  n=$(sed -n 's/^tmin: .* -> \([0-9]*\) bytes.*/\1/p' "$1" | head -1)
  expect_eq "reported size" "$n" "$(size "$2")"
  grep -q ' runs ' "$1" || fail "no run count reported"
}

# asan_sig BIN FILE: what the ASan build's own report says: the bug line
# and the functions of the first three frames past the interceptors.
asan_sig() {
  # without the sanitizer options scripts/test --sanitize sets for Glassbox
  { env -u ASAN_OPTIONS -u UBSAN_OPTIONS -u LSAN_OPTIONS "$1" "$2" 2>&1 >/dev/null || true; } | awk '
    /ERROR: AddressSanitizer/ { sub(/.*AddressSanitizer: /, ""); sub(/ on address.*/, ""); print }
    /^(READ|WRITE) of size/ { print $1, $2, $3, $4 }
    /^ *#[0-9]+ / && !/__asan|__interceptor/ && n < 3 { print $4; n++ }'
}

test_coverage() {
  mkinput "$WORK/ok.in" 8 10 200 300
  "$T.afl" "$WORK/ok.in" || fail "the coverage input crashes"
  "$G" tmin -i "$WORK/ok.in" -o "$WORK/gb.out" --mode coverage -- "$T.afl" @@ > "$WORK/log" ||
    fail "glassbox tmin failed"
  reported "$WORK/log" "$WORK/gb.out"
  same_cov "$T.afl" "$WORK/ok.in" "$WORK/gb.out"
  afl_tmin "$WORK/ok.in" "$WORK/afl.out" "$T.afl" @@
  [ "$(size "$WORK/gb.out")" -le "$(size "$WORK/afl.out")" ] ||
    fail "glassbox tmin kept $(size "$WORK/gb.out") bytes, afl-tmin $(size "$WORK/afl.out")"
  [ "$(size "$WORK/gb.out")" -lt "$(size "$WORK/ok.in")" ] || fail "nothing was removed"
  # The input on stdin (no @@), and Glassbox's own cov build.
  "$G" tmin -i "$WORK/ok.in" -o "$WORK/gb.stdin" --mode coverage -- "$T.afl" > "$WORK/log" ||
    fail "glassbox tmin on stdin failed"
  afl-showmap -q -o "$WORK/s1.map" -- "$T.afl" < "$WORK/ok.in" >/dev/null 2>&1 || true
  afl-showmap -q -o "$WORK/s2.map" -- "$T.afl" < "$WORK/gb.stdin" >/dev/null 2>&1 || true
  cmp -s "$WORK/s1.map" "$WORK/s2.map" || fail "stdin: coverage not kept"
  "$G" tmin -i "$WORK/ok.in" -o "$WORK/gb.cov" --mode coverage -- "$T.cov" @@ > "$WORK/log" ||
    fail "glassbox tmin on the glassbox-cc cov build failed"
  same_cov "$T.cov" "$WORK/ok.in" "$WORK/gb.cov"
  pass "coverage mode keeps the map, $(size "$WORK/gb.out") bytes vs afl-tmin's $(size "$WORK/afl.out")"
}

test_trace() {
  mkinput "$WORK/ok.in" 8 10 200 300
  "$G" tmin -i "$WORK/ok.in" -o "$WORK/gb.out" --mode coverage --trace "$T.trace" \
    -- "$T.afl" @@ > "$WORK/log" || fail "glassbox tmin --trace failed"
  reported "$WORK/log" "$WORK/gb.out"
  grep -q '^tmin: solver step: ' "$WORK/log" || fail "no solver step reported"
  if grep -q 'nothing kept\|no trace' "$WORK/log"; then fail "the solver step did nothing: $(cat "$WORK/log")"; fi
  same_cov "$T.afl" "$WORK/ok.in" "$WORK/gb.out"
  afl_tmin "$WORK/ok.in" "$WORK/afl.out" "$T.afl" @@
  [ "$(size "$WORK/gb.out")" -le "$(size "$WORK/afl.out")" ] ||
    fail "--trace kept $(size "$WORK/gb.out") bytes, afl-tmin $(size "$WORK/afl.out")"
  pass "--trace keeps the map, $(size "$WORK/gb.out") bytes vs afl-tmin's $(size "$WORK/afl.out")"
}

test_crash() {
  mkinput "$WORK/crash.in" 7 20 200 300
  local want got
  want=$(asan_sig "$T.asan" "$WORK/crash.in")
  echo "$want" | grep -q 'heap-buffer-overflow' || fail "the crash input does not overflow: $want"
  # No --mode: a crashing input is minimised in crash mode.
  "$G" tmin -i "$WORK/crash.in" -o "$WORK/gb.out" -- "$T.asan" @@ > "$WORK/log" ||
    fail "glassbox tmin (crash) failed: $(cat "$WORK/log")"
  grep -q '^tmin: crash mode' "$WORK/log" || fail "a crashing input was not minimised in crash mode"
  reported "$WORK/log" "$WORK/gb.out"
  got=$(asan_sig "$T.asan" "$WORK/gb.out")
  expect_eq "crash after tmin" "$got" "$want"
  afl_tmin "$WORK/crash.in" "$WORK/afl.out" "$T.asan" @@
  [ "$(size "$WORK/gb.out")" -le "$(size "$WORK/afl.out")" ] ||
    fail "crash mode kept $(size "$WORK/gb.out") bytes, afl-tmin $(size "$WORK/afl.out")"
  # With the solver step.
  "$G" tmin -i "$WORK/crash.in" -o "$WORK/gbt.out" --mode crash --trace "$T.trace" \
    -- "$T.asan" @@ > "$WORK/log" || fail "glassbox tmin --mode crash --trace failed"
  got=$(asan_sig "$T.asan" "$WORK/gbt.out")
  expect_eq "crash after tmin --trace" "$got" "$want"
  [ "$(size "$WORK/gbt.out")" -le "$(size "$WORK/afl.out")" ] ||
    fail "crash --trace kept $(size "$WORK/gbt.out") bytes, afl-tmin $(size "$WORK/afl.out")"
  # The solver step recomputes the record's sum, so more of the payload is
  # zero ('0' or NUL) than the classic passes (and afl-tmin) leave.
  local zt zc
  zt=$(tr -cd '0\000' < "$WORK/gbt.out" | wc -c); zc=$(tr -cd '0\000' < "$WORK/gb.out" | wc -c)
  [ "$zt" -gt "$zc" ] || fail "--trace zeroed $zt bytes, the classic passes $zc"
  pass "crash mode keeps '$(echo $want)', $(size "$WORK/gb.out") bytes (--trace $(size "$WORK/gbt.out")) vs afl-tmin's $(size "$WORK/afl.out"), zero bytes $zt with --trace, $zc without"
}

# SIGINT stops tmin with the smallest input so far written, as afl-tmin
# does: it still crashes the same way and is no larger than the input.
test_interrupt() {
  mkinput "$WORK/crash.in" 7 20 200 300
  local want got rc=0 pid
  want=$(asan_sig "$T.asan" "$WORK/crash.in")
  TMIN_TARGET_SLOW=1 "$G" tmin -i "$WORK/crash.in" -o "$WORK/gb.out" -- "$T.asan" @@ \
    > "$WORK/log" 2> "$WORK/err" &
  pid=$!
  sleep 1
  kill -INT "$pid"
  wait "$pid" || rc=$?
  expect_eq "exit status after SIGINT" "$rc" 0
  grep -q 'interrupted' "$WORK/log" || fail "not reported as interrupted: $(cat "$WORK/log")"
  reported "$WORK/log" "$WORK/gb.out"
  [ "$(size "$WORK/gb.out")" -le "$(size "$WORK/crash.in")" ] || fail "output larger than the input"
  got=$(asan_sig "$T.asan" "$WORK/gb.out")
  expect_eq "crash after an interrupted tmin" "$got" "$want"
  pass "SIGINT: $(size "$WORK/gb.out") bytes written, crash kept"
}

# triage's planted bugs (tests/triage/bugs/bugs.c): 'A' reaches a heap
# overflow in store() through path_a, and the junk after it starts other
# bugs. Crash mode must end on the same bug (afl-tmin, keeping any crash,
# may not), no larger than afl-tmin's output.
test_samebug() {
  local bugs=$BUILD/tests/triage/bugs.afl-asan want got
  [ -x "$bugs" ] || { echo "SKIP: $bugs not built"; exit 77; }
  { printf 'A'; LC_ALL=C awk 'BEGIN { srand(3); for (i = 0; i < 3000; i++) printf "%c", 33 + int(rand() * 90) }'; } > "$WORK/a.in"
  want=$(ASAN_OPTIONS=symbolize=1 asan_sig "$bugs" "$WORK/a.in")
  echo "$want" | grep -q store || fail "the input does not reach store: $want"
  "$G" tmin -i "$WORK/a.in" -o "$WORK/gb.out" -- "$bugs" > "$WORK/log" || fail "tmin failed"
  got=$(ASAN_OPTIONS=symbolize=1 asan_sig "$bugs" "$WORK/gb.out")
  expect_eq "bug after tmin" "$got" "$want"
  afl_tmin "$WORK/a.in" "$WORK/afl.out" "$bugs"
  [ "$(size "$WORK/gb.out")" -le "$(size "$WORK/afl.out")" ] ||
    fail "$(size "$WORK/gb.out") bytes, afl-tmin $(size "$WORK/afl.out")"
  pass "same bug kept in $(size "$WORK/gb.out") bytes; afl-tmin's output: $(ASAN_OPTIONS=symbolize=1 asan_sig "$bugs" "$WORK/afl.out" | sed -n 3p)"
}

# The demo's planted bug (a CRC-checked chunk format) on its cov build:
# a plain SEGV, so crash mode keeps the signal. Still crashes, no larger
# than afl-tmin's, with and without --trace.
test_demo() {
  local in=$SRC/harnesses/demo/examples/crash.gbox out
  afl_tmin "$in" "$WORK/afl.out" "$H/demo.cov" @@
  for out in gb gbt; do
    if [ $out = gb ]; then
      "$G" tmin -i "$in" -o "$WORK/$out" -- "$H/demo.cov" @@ > "$WORK/log" || fail "tmin on the demo failed"
    else
      "$G" tmin -i "$in" -o "$WORK/$out" --trace "$H/demo.trace" -- "$H/demo.cov" @@ > "$WORK/log" ||
        fail "tmin --trace on the demo failed"
    fi
    grep -q '^tmin: crash mode' "$WORK/log" || fail "the demo's crash was not minimised in crash mode"
    reported "$WORK/log" "$WORK/$out"
    if "$H/demo.cov" "$WORK/$out" >/dev/null 2>&1; then fail "$out: the demo no longer crashes"; fi
    [ "$(size "$WORK/$out")" -le "$(size "$WORK/afl.out")" ] ||
      fail "$out: $(size "$WORK/$out") bytes, afl-tmin $(size "$WORK/afl.out")"
  done
  pass "demo crash: $(size "$WORK/gb") bytes (--trace $(size "$WORK/gbt")) vs afl-tmin's $(size "$WORK/afl.out")"
}

# expect_error CODE PATTERN ARGS...: exit CODE, one line on stderr matching
# PATTERN, no output file.
expect_error() {
  local code=$1 pat=$2 rc=0; shift 2
  rm -f "$WORK/out"
  "$G" tmin "$@" > /dev/null 2> "$WORK/err" || rc=$?
  expect_eq "exit status of tmin $*" "$rc" "$code"
  expect_eq "stderr lines of tmin $*" "$(wc -l < "$WORK/err")" 1
  grep -q -- "$pat" "$WORK/err" || fail "tmin $*: '$(cat "$WORK/err")' does not say '$pat'"
  [ ! -e "$WORK/out" ] || fail "tmin $* wrote an output"
}

test_errors() {
  mkinput "$WORK/ok.in" 8 10 20 20
  expect_error 1 "nonexistent" -i "$WORK/nonexistent" -o "$WORK/out" -- "$T.afl" @@
  expect_error 2 "bogus" --bogus -i "$WORK/ok.in" -o "$WORK/out" -- "$T.afl" @@
  expect_error 2 "usage" -i "$WORK/ok.in" -- "$T.afl" @@
  expect_error 2 "usage" -i "$WORK/ok.in" -o "$WORK/out"
  expect_error 2 "mode" -i "$WORK/ok.in" -o "$WORK/out" --mode fast -- "$T.afl" @@
  expect_error 1 "does not crash" -i "$WORK/ok.in" -o "$WORK/out" --mode crash -- "$T.asan" @@
  expect_error 1 "instrumented" -i "$WORK/ok.in" -o "$WORK/out" --mode coverage -- /bin/cat @@
  expect_error 1 "trace" -i "$WORK/ok.in" -o "$WORK/out" --trace "$T.afl" -- "$T.afl" @@
  expect_error 1 "cannot write" -i "$WORK/ok.in" -o "$WORK/no/such/dir/out" -- "$T.afl" @@
  expect_error 1 "regular file" -i "$WORK" -o "$WORK/out" -- "$T.afl" @@
  expect_error 1 "$WORK/nobin" -i "$WORK/ok.in" -o "$WORK/out" -- "$WORK/nobin" @@
  pass "bad input gives one line and exit 1 or 2"
}

"test_$3"
