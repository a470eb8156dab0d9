#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Conformance: for every program, glassbox fuzz (-V GB_CONF_SECONDS, default
# 60) from its seed must find a crash, and the crash must replay on the
# plain (uninstrumented) build. Args: build dir, suite build dir, O0|O2
# [PROGRAM...]. A program's "// args:" line goes to glassbox fuzz after the
# two binaries ("@@" = the input file), and to the replay.
# Programs run in parallel; each stops at its first crash.
. "$(dirname "$0")/lib.sh"
OPT=$3
# Each program takes a second or two on an idle machine. Under load the
# 128-bit programs' queries (about 1.8 s of Z3 each on an idle core) hit
# the 2 s solver timeout; the search now asks such flips again with more
# time when its worklist runs dry (it used to end there, without the
# crash). A program stops at its first crash, so the 60 s limit costs time
# only when one fails.
SECS=${GB_CONF_SECONDS:-60}

one() {
  local p=$1 d="$W/$1"
  mkdir -p "$d/seeds"
  write_seed "$p" "$d/seeds/seed"
  local t0=$SECONDS args
  args=$(args_of "$p")
  # shellcheck disable=SC2086 # args are words, "@@" among them
  "$BIN/glassbox" fuzz -q -V "$SECS" -i "$d/seeds" -o "$d/out" -- \
    "$C/c-$p-$OPT.trace" "$C/c-$p-$OPT.cov" $args >"$d/log" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    if ls "$d/out/glassbox/crashes/"id:* >/dev/null 2>&1; then
      kill "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.1
  done
  wait "$pid" 2>/dev/null || true
  local f
  f=$(ls "$d/out/glassbox/crashes/"id:* 2>/dev/null | head -1 || true)
  if [ -z "$f" ]; then
    echo "FAIL $p-$OPT: no crash after $((SECONDS - t0)) s (limit ${SECS} s) ($(tail -2 "$d/log" | tr '\n' ' '))"
    return 0
  fi
  local st=0
  # shellcheck disable=SC2046
  ("$C/c-$p-$OPT.plain" $(run_args "$p" "$f") >/dev/null 2>&1 <"$f") 2>/dev/null || st=$?
  if [ "$st" -lt 128 ]; then
    echo "FAIL $p-$OPT: crash input $(od -An -tx1 "$f" | tr -d '\n') exits $st on the plain build"
    return 0
  fi
  echo "ok $p-$OPT $((SECONDS - t0)) s"
}
export -f one write_seed src_of args_of run_args
export W C BIN OPT SECS SRCDIR
if [ $# -gt 3 ]; then shift 3; list="$*"; else list=$(progs); fi
printf "%s\n" $list | xargs -P "$JOBS" -I{} bash -c "one {}" >"$W/results" 2>"$W/stderr" || true
sort "$W/results"
n=$(grep -c '^ok' "$W/results" || true)
total=$(wc -l <"$W/results")
if grep -q '^FAIL' "$W/results"; then
  echo "FAIL: $((total - n)) of $total conformance programs at -$OPT" >&2
  exit 1
fi
echo "PASS: $n conformance programs at -$OPT"
