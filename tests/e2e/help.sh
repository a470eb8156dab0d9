#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Defaults have one home: each --help prints the value base/gb_config.h
# defines, once per option and never for a flag, and a run with no options
# uses the value --help printed (fuzzer_stats' exec_timeout). Environment
# overrides still apply over the defaults.
. "$(dirname "$0")/lib.sh"
CONFIG=$SRC/base/gb_config.h

# config NAME: the value of a plain-number #define in gb_config.h.
config() {
  local v
  v=$(sed -n "s/^#define $1 \([0-9][0-9]*\)\$/\1/p" "$CONFIG")
  [ -n "$v" ] || fail "no plain-number #define $1 in $CONFIG"
  echo "$v"
}

# entry CMD OPTION: the whole --help entry of --OPTION (continuation lines
# joined), from 'glassbox CMD --help'.
entry() {
  "$BIN/glassbox" "$1" --help | awk -v opt="--$2 " '
    function left(s) { return substr(s, 1, 31) " " }
    /^  -|^     --/ { keep = index(left($0), opt) > 0; if (keep) out = $0; next }
    left($0) ~ /^ +$/ && substr($0, 32, 1) != " " { if (keep) out = out " " substr($0, 32); next }
    { keep = 0 }
    END { print out }'
}

# default_of CMD OPTION: the N of the one "(default N)" in its entry.
default_of() {
  local e n
  e=$(entry "$1" "$2")
  [ -n "$e" ] || fail "glassbox $1 --help has no --$2"
  n=$(grep -o '(default [^)]*)' <<<"$e" | wc -l)
  [ "$n" -eq 1 ] || fail "glassbox $1 --$2 states its default $n times: $e"
  sed 's/.*(default \([^)]*\)).*/\1/' <<<"$e"
}

# no_default CMD OPTION: a flag (or an option without a value) states none.
no_default() {
  local e
  e=$(entry "$1" "$2")
  [ -n "$e" ] || fail "glassbox $1 --help has no --$2"
  if grep -q 'default' <<<"$e"; then fail "glassbox $1 --$2 states a default: $e"; fi
}

run=$(config GB_RUN_TIMEOUT_MS)
factor=$(config GB_TRACE_TIMEOUT_FACTOR)
floor=$(config GB_TRACE_TIMEOUT_MIN_MS)
trace=$((run * factor > floor ? run * factor : floor))

expect_eq "fuzz --timeout" "$(default_of fuzz timeout)" "$run"
expect_eq "fuzz --memory" "$(default_of fuzz memory)" "$(config GB_MEM_LIMIT_MB)"
expect_eq "fuzz --solver-timeout" "$(default_of fuzz solver-timeout)" "$(config GB_SOLVER_TIMEOUT_MS)"
expect_eq "fuzz --solver-budget" "$(default_of fuzz solver-budget)" "$(config GB_SOLVER_BUDGET_MS)"
expect_eq "fuzz --time" "$(default_of fuzz time)" 0
expect_eq "fuzz --slice-seconds" "$(default_of fuzz slice-seconds)" "$(config GB_EXPAND_SLICE_S)"
expect_eq "fuzz --name" "$(default_of fuzz name)" glassbox
expect_eq "campaign --timeout" "$(default_of campaign timeout)" "$run"
expect_eq "campaign --afl" "$(default_of campaign afl)" 1
expect_eq "campaign --workers" "$(default_of campaign workers)" 1
expect_eq "solve --solver-timeout" "$(default_of solve solver-timeout)" "$(config GB_SOLVER_TIMEOUT_MS)"
expect_eq "solve --budget" "$(default_of solve budget)" "$(config GB_SOLVER_BUDGET_MS)"
expect_eq "solve --mode" "$(default_of solve mode)" full
expect_eq "trace --timeout" "$(default_of trace timeout)" "$trace"
for o in no-optimistic no-cfg resume quiet input output libfuzzer-dir; do no_default fuzz "$o"; done
for o in resume input; do no_default campaign "$o"; done
for o in check verbose no-optimistic clauses-in; do no_default solve "$o"; done
no_default show blocks
pass "--help states the defaults of base/gb_config.h, once each, none for flags"

# The value a run uses is the one --help printed; GLASSBOX_NAME still
# overrides the table's default name.
GLASSBOX_NAME=fromenv "$BIN/glassbox" fuzz -q -i "$SRC/harnesses/top/seeds" -o "$WORK/out" \
  -- "$H/top.trace" "$H/top.cov"
[ -f "$WORK/out/fromenv/fuzzer_stats" ] || fail "GLASSBOX_NAME=fromenv did not name the instance"
expect_eq "exec_timeout of a run without -t" \
  "$(stat_of "$WORK/out/fromenv/fuzzer_stats" exec_timeout)" "$(default_of fuzz timeout)"
pass "a run uses the printed default (exec_timeout $run); GLASSBOX_NAME overrides the name"

# --version names the commit this build came from, and fuzzer_stats says
# the same; glassbox-cc's --version states it before clang's own lines.
want=$(git -C "$SRC" describe --always --dirty --abbrev=7 2>/dev/null || echo unknown)
"$BIN/glassbox" --version >"$WORK/version.txt"
grep -q "^glassbox [0-9.]* (commit $want)\$" "$WORK/version.txt" ||
  fail "glassbox --version says '$(head -1 "$WORK/version.txt")', want commit $want"
grep -q "^Z3 [0-9.]*, LLVM [0-9.]*\$" "$WORK/version.txt" || fail "no Z3/LLVM line in --version"
expect_eq "fuzzer_stats glassbox_version" "$(stat_of "$WORK/out/fromenv/fuzzer_stats" glassbox_version)" \
  "$(head -1 "$WORK/version.txt" | sed 's/^glassbox //')"
"$BIN/glassbox-cc" --version >"$WORK/cc-version.txt" 2>&1 || fail "glassbox-cc --version failed"
grep -q "^glassbox-cc [0-9.]* (commit $want), LLVM" "$WORK/cc-version.txt" &&
  grep -q "clang version" "$WORK/cc-version.txt" ||
  fail "glassbox-cc --version: $(cat "$WORK/cc-version.txt")"
pass "--version: $(head -1 "$WORK/version.txt"); fuzzer_stats and glassbox-cc agree"
