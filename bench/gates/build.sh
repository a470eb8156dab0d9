#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds every gate program six ways with `glassbox build` into OUT_DIR, and its seeds and
# crashing input (mkinputs) into OUT_DIR/seeds/NAME/ and OUT_DIR/crash/NAME.
# Usage: build.sh OUT_DIR BUILD_DIR. Environment: GB_GATES_JOBS (builds at once, default 2),
# GB_GATES (space-separated names, default all).
set -euo pipefail
me=build.sh
die() { echo "$me: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: build.sh OUT_DIR BUILD_DIR"
src=$(cd "$(dirname "$0")" && pwd)
out=$1
bdir=$(cd "$2" 2>/dev/null && pwd) || die "no build directory $2"
gb=$bdir/bin/glassbox
[ -x "$gb" ] || die "no $gb: build Glassbox first (scripts/build)"
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
kinds=(trace cov lf asan afl cmplog)

# A gate's builds are stale when one is missing or older than its source or than what
# glassbox build compiles with (the CLI, glassbox-cc and the runtimes).
tools=("$gb" "$bdir/bin/glassbox-cc" "$bdir"/lib/libgb_rt*.a)
stale() {
  local name=$1 k t
  for k in "${kinds[@]}"; do
    [ "$out/$name.$k" -nt "$src/$name.c" ] || return 0
    for t in "${tools[@]}"; do
      [ "$out/$name.$k" -nt "$t" ] || return 0
    done
  done
  return 1
}

# glassbox build's own one-line error names the failed kind and its log.
build_one() {
  "$gb" build -o "$out" -n "$1" "$src/$1.c" >/dev/null
}

if [ -n "${GB_GATES:-}" ]; then
  read -r -a names <<<"$GB_GATES"
else
  names=()
  for f in "$src"/*.c; do
    n=$(basename "$f" .c)
    [ "$n" = mkinputs ] || names+=("$n")
  done
fi
for n in "${names[@]}"; do
  [ -f "$src/$n.c" ] || die "no gate $n ($src/$n.c)"
done

# Seeds and crashing inputs: remade every run (a few milliseconds), so they always match
# the generator.
if [ ! "$out/mkinputs" -nt "$src/mkinputs.c" ]; then
  clang-14 -std=c11 -O1 -Wall -Wextra -Werror "$src/mkinputs.c" -o "$out/mkinputs" \
    >"$out/mkinputs.build.log" 2>&1 || die "mkinputs did not compile; see $out/mkinputs.build.log"
fi
rm -rf "$out/seeds" "$out/crash"
"$out/mkinputs" "$out" || die "mkinputs $out failed"

jobs_max=${GB_GATES_JOBS:-2}
failed=0
running=0
for n in "${names[@]}"; do
  stale "$n" || continue
  if [ "$running" -ge "$jobs_max" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  build_one "$n" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
[ "$failed" = 0 ] || die "some gates did not build (above)"
