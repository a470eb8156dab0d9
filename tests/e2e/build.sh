#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# glassbox build: one harness source gives four working builds: trace and
# cov drive a campaign, the libFuzzer build runs, the ASan build replays.
. "$(dirname "$0")/lib.sh"
"$BIN/glassbox" build -o "$WORK" -n top "$SRC/harnesses/top/top.c" >/dev/null
for b in trace cov lf asan; do [ -x "$WORK/top.$b" ] || fail "no top.$b"; done
"$BIN/glassbox" fuzz -q -i "$SRC/harnesses/top/seeds" -o "$WORK/out" -V 30 -- "$WORK/top.trace" "$WORK/top.cov"
[ "$(stat_of "$WORK/out/glassbox/fuzzer_stats" saved_crashes)" -ge 1 ] || fail "no crash with the built targets"
"$WORK/top.lf" -runs=1 "$SRC/harnesses/top/seeds/good" >/dev/null 2>&1 || fail "top.lf does not run"
as_target "$WORK/top.asan" "$SRC/harnesses/top/seeds/good" || fail "top.asan fails on the seed"
printf 'bad!' >"$WORK/bad"
if as_target "$WORK/top.asan" "$WORK/bad" 2>"$WORK/abort.txt"; then fail "top.asan does not replay the crash"; fi
# top's crash is an abort(): the ASan build prints its stack anyway.
grep -q "in top .*top.c" "$WORK/abort.txt" || fail "no stack for the abort: $(head -3 "$WORK/abort.txt")"
expect_fail() { if "$@" >/dev/null 2>"$WORK/err"; then fail "$*: should fail"; fi; [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "$*: want one error line: $(cat "$WORK/err")"; }
expect_fail "$BIN/glassbox" build -o "$WORK" /nonexistent.c
printf 'int broken(' >"$WORK/broken.c"
expect_fail "$BIN/glassbox" build -o "$WORK" "$WORK/broken.c"
grep -q "broken.build.log" "$WORK/err" || fail "the error does not point at the build log"
# A missing -o directory is made; a C++ harness is linked as C++.
cat >"$WORK/cx.cc" <<'CXX'
#include <cstdint>
#include <string>
#include <vector>
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
  std::string s(reinterpret_cast<const char *>(d), n);
  std::vector<int> v(4);
  if (s.size() > 4 && s[0] == 'x') v.at(s.size()) = 1;
  return 0;
}
CXX
"$BIN/glassbox" build -o "$WORK/new/dir" "$WORK/cx.cc" >/dev/null 2>"$WORK/cx.err" ||
  fail "C++ harness into a new directory: $(cat "$WORK/cx.err")"
for b in trace cov lf asan; do [ -x "$WORK/new/dir/cx.$b" ] || fail "no cx.$b"; done
printf 'xyzzy' >"$WORK/cxcrash"
if "$WORK/new/dir/cx.asan" "$WORK/cxcrash" 2>/dev/null; then fail "cx.asan does not crash"; fi
"$WORK/new/dir/cx.cov" "$SRC/harnesses/top/seeds/good" || fail "cx.cov fails on a harmless input"
pass "glassbox build: trace, cov, lf and asan builds of top all work"
