#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.gates-find: Glassbox alone finds the crash of each issue-37 gate from its seeds
# within a fixed number of runs (-E GB_FIND_EXECS, default 5000) of its cov build, with
# -V GB_FIND_SECONDS (default 120) as a backstop for a loaded machine. The gates are those
# test.sh built into BUILD_DIR/bench-gates/ (CTest runs this after bench.gates).
# Usage: find.sh BUILD_DIR [GATE...]
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: find.sh BUILD_DIR [GATE...]" >&2; exit 2; }
out=$1/bench-gates
gb=$1/bin/glassbox
shift
gates=("$@")
[ ${#gates[@]} -gt 0 ] ||
  gates=(chunk_crc_insert token_repeat base64_magic hex_table strtod_window mul128_high
         mul_overflow)
execs=${GB_FIND_EXECS:-5000}
secs=${GB_FIND_SECONDS:-120}
work=$(mktemp -d "${TMPDIR:-/tmp}/gb-gates-find.XXXXXX")
trap 'rm -rf "$work"' EXIT

fails=0
for g in "${gates[@]}"; do
  for k in trace cov; do
    [ -x "$out/$g.$k" ] || { echo "FAIL $g: no $out/$g.$k (run bench.gates first)"; fails=$((fails + 1)); continue 2; }
  done
  t0=$SECONDS
  "$gb" fuzz -q --exit-on-crash -E "$execs" -V "$secs" -i "$out/seeds/$g" -o "$work/$g" \
    -- "$out/$g.trace" "$out/$g.cov" >"$work/$g.log" 2>&1 </dev/null
  rc=$?
  st=$work/$g/glassbox/fuzzer_stats
  runs=$(sed -n 's/^execs_done *: *//p' "$st" 2>/dev/null)
  c=$(ls "$work/$g/glassbox/crashes/"id:* 2>/dev/null | head -1)
  if [ "$rc" -ne 77 ] || [ -z "$c" ]; then
    echo "FAIL $g: no crash in ${runs:-?} runs, $((SECONDS - t0)) s (exit $rc: $(tail -n 2 "$work/$g.log" | tr '\n' ' '))"
    fails=$((fails + 1))
    continue
  fi
  # the crash replays on the cov build (a signal, as the search saw)
  { timeout 20 "$out/$g.cov" "$c" >/dev/null 2>&1 </dev/null; st_rc=$?; } 2>/dev/null
  if [ "$st_rc" -le 128 ]; then
    echo "FAIL $g: the saved crash exits $st_rc on $g.cov"
    fails=$((fails + 1))
    continue
  fi
  echo "ok   $g: crash in $runs runs, $((SECONDS - t0)) s"
done
[ "$fails" -eq 0 ] || { echo "$fails of ${#gates[@]} gates not found"; exit 1; }
echo "PASS: ${#gates[@]} gates found within $execs runs each"
