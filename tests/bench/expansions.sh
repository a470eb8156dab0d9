#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.expansions (issue 36): bench/expansions.sh on an expansions.tsv
# made here: rows fall in their window, time splits by origin, own finds
# add up; --parts splits first expansions from inputs expanded again and
# names the longest part without a find; a file of another form is
# refused with one line.
set -euo pipefail
SRC=$(cd "$1" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-expansions.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL bench.expansions: $*" >&2; exit 1; }
X=$W/expansions.tsv
{
  printf 'time_s\tms\tinput\torigin\tpart\tlen\tdepth\tscore\tflips\tsat\tunsat\ttimeout\tcfg_skip\tbackoff\tchildren\town_finds\town_blocks\timported\tblocks\tsolver_ms\tz3_ms\n'
  printf '1.0\t3000\t0\tseed\tfirst\t10\t1\t5\t20\t10\t10\t0\t0\t0\t10\t2\t7\t0\t50\t2000\t1000\n'
  printf '50.5\t1000\t3\tchild\tfirst\t10\t2\t1\t5\t5\t0\t0\t0\t0\t5\t1\t1\t0\t51\t500\t400\n'
  printf '70.0\t4000\t9\timport\tretry1\t10\t1\t1\t8\t2\t5\t1\t0\t0\t2\t0\t0\t3\t51\t3000\t3000\n'
} >"$X"
out=$("$SRC/bench/expansions.sh" "$X" --window 60) || fail "expansions.sh failed"
grep -qF '| 0-60 | 2 | 4 | 0% | 25% | 0% | 25 | 15 | 0 | 35% | 15 | 2 (0 imports) | 3 | 8 | 51 |' <<<"$out" ||
  fail "window 0-60: $(grep '| 0-60' <<<"$out")"
grep -qF '| 60-120 | 1 | 4 | 100% | 0% | 100% | 8 | 2 | 1 | 75% | 2 | 0 (0 imports) | 0 | 0 | 51 |' <<<"$out" ||
  fail "window 60-120: $(grep '| 60-120' <<<"$out")"
out=$("$SRC/bench/expansions.sh" "$X" --window 60 --parts) || fail "expansions.sh --parts failed"
grep -qF '| 0-60 | 2 | 4 | 3 | 8 | 0 | 0 | 0 | 0 | 0 | 0 | - |' <<<"$out" ||
  fail "--parts, window 0-60: $(grep '| 0-60' <<<"$out")"
grep -qF '| 60-120 | 0 | 0 | 0 | 0 | 0 | 1 | 4 | 0 | 0 | 1 | 4.0 s (input 9, import retry1) |' <<<"$out" ||
  fail "--parts, window 60-120: $(grep '| 60-120' <<<"$out")"
printf 'a\tb\n' >"$W/bad.tsv"
if msg=$("$SRC/bench/expansions.sh" "$W/bad.tsv" 2>&1); then fail "a file of another form was accepted"; fi
[ "$(wc -l <<<"$msg")" = 1 ] && grep -q "not an expansions.tsv" <<<"$msg" || fail "bad file: '$msg'"
echo "PASS bench.expansions: windows, time by origin, own finds, first against again; a bad file refused"
