#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzzes every harness of tests/fuzz for SECONDS each (default 3600, issue
# 13's hour), one after the other, from the committed corpus plus what
# earlier long runs found (kept in BUILD/tests/fuzz/long/NAME/). Prints one
# line per harness (runs, corpus, crashes) and a table for
# bench/RESULTS.md; exits 1 when any harness found a failing input (in
# BUILD/tests/fuzz/long/NAME/artifacts/: fix it in its module and add it
# to tests/fuzz/regress/NAME/).
#   tests/fuzz/long.sh [SECONDS] [NAME...]   (BUILD: $GB_BUILD or build/)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${GB_BUILD:-$root/build}
secs=${1:-3600}
shift || true
case $secs in '' | *[!0-9]*) echo "usage: long.sh [SECONDS] [NAME...]" >&2; exit 2 ;; esac
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  # the list the build uses: set(GB_FUZZ_HARNESSES a b c ...)
  read -r -a names <<<"$(sed -n 's/^set(GB_FUZZ_HARNESSES \(.*\))$/\1/p' "$here/harnesses.cmake")"
fi
bins=$build/tests/fuzz/sanitized/bin
failed=0
rows=()
for n in "${names[@]}"; do
  bin=$bins/fuzz_$n
  [ -x "$bin" ] || { echo "long.sh: $bin is not built" >&2; exit 1; }
  work=$build/tests/fuzz/long/$n
  mkdir -p "$work/corpus" "$work/artifacts"
  start=$(date +%s)
  touch "$work/.start" # failing inputs of earlier runs stay, but are not counted again
  rc=0
  nice -n 10 "$bin" -timeout=10 -rss_limit_mb=2048 -max_total_time="$secs" -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "$work/corpus" "$here/corpus/$n" >"$work/log" 2>&1 || rc=$?
  took=$(($(date +%s) - start))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
  corpus=$(find "$work/corpus" "$here/corpus/$n" -type f | wc -l)
  crashes=$(find "$work/artifacts" -type f -newer "$work/.start" | wc -l)
  status=ok
  if [ "$rc" -ne 0 ] || [ "$crashes" -gt 0 ]; then
    status="FAILED (exit $rc, see $work/log)"
    failed=1
  fi
  echo "long.sh: $n: $took s, ${runs:-?} runs, corpus $corpus files, $crashes failing inputs: $status"
  rows+=("| $n | $took | ${runs:-?} | $corpus | $crashes | $status |")
done
echo
echo "| harness | seconds | runs | corpus files | failing inputs | result |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit $failed
