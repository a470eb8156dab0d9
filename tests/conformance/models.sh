#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Conformance: every model leaves its constraint in the path constraint.
# A program's "// pc-bytes:" line names input bytes that some entry (not a
# pin) of its seed's trace must depend on: bytes that reach a branch only
# through the model the program exercises (a libc call's result, the bytes
# an input source gives). A model changed to record nothing leaves them
# out, at -O0 or -O2 (where clang often rewrites the calls), and fails
# this test. Args: build dir, suite build dir, O0|O2.
. "$(dirname "$0")/lib.sh"
OPT=$3
n=0 bad=0
for p in $(progs); do
  want=$(sed -n 's|^// pc-bytes: *||p' "$(src_of "$p")" | head -1)
  [ -n "$want" ] || continue
  n=$((n + 1))
  write_seed "$p" "$W/in"
  # shellcheck disable=SC2046 # the program's arguments are words
  if ! "$BIN/glassbox" trace "$W/in" -o "$W/t.gbt" -- "$C/c-$p-$OPT.trace" $(run_args "$p" "$W/in") \
    >"$W/trace.log" 2>&1 </dev/null; then
    echo "FAIL $p-$OPT: trace: $(tail -1 "$W/trace.log")"
    bad=$((bad + 1))
    continue
  fi
  # grep -v finds no line in a trace without entries: not an error here
  "$BIN/glassbox" show --inputs "$W/t.gbt" | { grep -v '^[0-9]* pin ' || true; } | cut -d: -f2 |
    tr ' ' '\n' | sort -u >"$W/got"
  missing=""
  for b in $want; do grep -qx "$b" "$W/got" || missing+=" $b"; done
  if [ -n "$missing" ]; then
    echo "FAIL $p-$OPT: no entry depends on$missing (entries depend on: $(tr '\n' ' ' <"$W/got"))"
    bad=$((bad + 1))
  fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no program has a pc-bytes line" >&2; exit 1; }
if [ "$bad" -gt 0 ]; then
  echo "FAIL: $bad of $n models at -$OPT left no constraint on their bytes" >&2
  exit 1
fi
echo "PASS: $n models at -$OPT leave their constraints in the path constraint"
