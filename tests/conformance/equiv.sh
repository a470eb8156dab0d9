#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Equivalence: every conformance program, plain and --mode=trace (tracing
# on), gives the same stdout and exit status on its seed and on 100
# deterministic pseudo-random inputs, at -O0 and -O2. Args: build dir,
# suite build dir.
. "$(dirname "$0")/lib.sh"
N=${GB_EQUIV_INPUTS:-100}

one() {
  local p=$1 d="$W/$1" k opt v st
  mkdir -p "$d"
  write_seed "$p" "$d/seed"
  for k in $(seq 0 "$N"); do
    if [ "$k" = 0 ]; then
      cp "$d/seed" "$d/in"
    elif ! "$BIN/gb-conf-rand" "$d/seed" "$k" "$d/in"; then
      echo "FAIL $p: gb-conf-rand could not write random input $k"
      return 0
    fi
    for opt in O0 O2; do
      for v in plain trace; do
        st=0
        # shellcheck disable=SC2046
        (cd "$d" && GLASSBOX_TRACE_OUT="$d/t.gbt" GLASSBOX_INPUT="$d/in" timeout 10 \
          "$C/c-$p-$opt.$v" $(run_args "$p" "$d/in") >"$d/$v.out" 2>/dev/null <"$d/in") || st=$?
        echo "status $st" >>"$d/$v.out"
      done
      if ! cmp -s "$d/plain.out" "$d/trace.out"; then
        echo "FAIL $p-$opt on input $k ($(od -An -tx1 "$d/in" | tr -d '\n')): plain and trace differ"
        return 0
      fi
    done
  done
  echo "ok $p"
}
export -f one write_seed src_of args_of run_args
export W C N SRCDIR BIN
progs | xargs -P "$JOBS" -I{} bash -c 'one {}' >"$W/results" 2>"$W/stderr" || true
if grep -q '^FAIL' "$W/results"; then
  grep '^FAIL' "$W/results" >&2
  exit 1
fi
echo "PASS: $(grep -c '^ok' "$W/results") programs, plain = trace on seed + $N inputs at -O0 and -O2"
