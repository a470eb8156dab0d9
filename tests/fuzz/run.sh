#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One fuzz.NAME test: replays every regression input of REGRESS (each must
# run clean), then fuzzes for SECONDS from the committed CORPUS. Inputs
# found on the way go to WORK/new (emptied first, so every run starts from
# the committed corpus), crashes to WORK/artifacts; any crash, leak,
# sanitizer report or timeout fails the test.
#   run.sh BIN CORPUS REGRESS WORK SECONDS [libFuzzer flags...]
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: run.sh BIN CORPUS REGRESS WORK SECONDS [FLAGS...]" >&2; exit 2; }
bin=$1 corpus=$2 regress=$3 work=$4 secs=$5
shift 5
[ -x "$bin" ] || { echo "run.sh: $bin is not built (the main build builds it)" >&2; exit 1; }
[ -d "$corpus" ] || { echo "run.sh: no seed corpus $corpus" >&2; exit 1; }
name=$(basename "$corpus")
rm -rf "$work/new"
mkdir -p "$work/new" "$work/artifacts"
flags=(-timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/artifacts/" "$@")

shopt -s nullglob
regs=("$regress"/*)
if [ ${#regs[@]} -gt 0 ]; then
  echo "fuzz.$name: replaying ${#regs[@]} regression inputs of $regress"
  if ! "$bin" "${flags[@]}" "${regs[@]}" >"$work/regress.log" 2>&1; then
    cat "$work/regress.log" >&2
    echo "fuzz.$name: a regression input of $regress fails again" >&2
    exit 1
  fi
fi

echo "fuzz.$name: fuzzing for $secs s from $corpus"
if ! "$bin" "${flags[@]}" -max_total_time="$secs" -print_final_stats=1 \
       "$work/new" "$corpus" >"$work/fuzz.log" 2>&1; then
  tail -n 80 "$work/fuzz.log" >&2
  echo "fuzz.$name: found a failing input (in $work/artifacts/): fix the bug in its module and" \
       "add the input to $regress/" >&2
  exit 1
fi
grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::new_units_added)' "$work/fuzz.log" || true
