#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Tracer overhead (issue 3): the same harness and input built twice, plain
# clang-14 (native) and glassbox-cc --mode=trace, both -O2 -g and both with
# the driver main of bench/tracer/timer.c, run side by side in one loop:
#   native | trace build, GLASSBOX_TRACE_OUT unset | trace build, tracing on
# Cases: 1. demo, a ~320 KiB valid GBOX file; 2. zlib inflate of a stream
# that inflates to 64 KiB; 3. constwork.c, zlib deflating and inflating a
# 256 KiB buffer that never depends on the input. Inputs come from gen.c.
# Each repetition runs every (case, variant) once, the variant order
# rotating from one repetition to the next; one warm-up round is dropped.
# Figures are medians over the repetitions: the harness call timed inside
# the process (timer.c; in trace builds it includes __gb_input), wall and
# CPU time, and the whole process's wall time. zlib is built by harnesses/zlib/fetch-build.sh
# into BUILD_DIR/zlib (redone only when glassbox-cc or that script is newer
# than the last build); without it cases 2 and 3 are skipped.
# With BASE_BUILD_DIR (another version's build directory, e.g. of the
# commit before a change) its trace builds run in the same loop as two more
# variants (before: off, on), so before and after share the machine's load.
# Usage: bench/tracer/run.sh BUILD_DIR [REPS [BASE_BUILD_DIR]]   (prints Markdown)
# GB_BENCH_KEEP=1 keeps the work directory (binaries, inputs, traces) for perf.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [REPS [BASE_BUILD_DIR]]" >&2; exit 2; }
BUILD=$(cd "$1" && pwd)
REPS=${2:-7}
BASE=""
[ -z "${3:-}" ] || BASE=$(cd "$3" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$SRC/bench/tracer
BIN=$BUILD/bin
CC=clang-14
CFLAGS=(-O2 -g)
export LC_ALL=C
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-bench-tracer.XXXXXX")
trap '[ -n "${GB_BENCH_KEEP:-}" ] || rm -rf "$W"' EXIT

die() { echo "bench/tracer: $*" >&2; exit 1; }

# zlib_for DIR: reuse DIR/zlib unless what went into its trace build
# changed (the runtime is not in libz.a: build() below links the current
# one); clears zlib_ok when it cannot be built.
zlib_ok=1
# The recipe comes from the build's own source tree (CMakeCache.txt): the
# harness cache keys trace builds by the tracer sources of the tree that
# runs fetch-build.sh, so another version's glassbox-cc must run its own.
zlib_for() {
  local z=$1/zlib stale=0 f src
  src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$1/CMakeCache.txt" 2>/dev/null)
  [ -n "$src" ] && [ -x "$src/harnesses/zlib/fetch-build.sh" ] || src=$SRC
  for f in "$1/bin/glassbox-cc" "$src/harnesses/zlib/fetch-build.sh"; do
    [ -f "$z/trace/libz.a" ] && [ ! "$f" -nt "$z/trace/libz.a" ] || stale=1
  done
  [ -f "$z/plain/libz.a" ] || stale=1
  [ "$stale" = 1 ] || return 0
  "$src/harnesses/zlib/fetch-build.sh" "$z" "$1/bin" >"$W/zlib.log" 2>&1 || {
    zlib_ok=0
    echo "(zlib could not be fetched or built for $1, see below: cases 2 and 3 are missing)"
    tail -3 "$W/zlib.log"
  }
}
Z=$BUILD/zlib
zlib_for "$BUILD"
[ -z "$BASE" ] || zlib_for "$BASE"

# build NAME SOURCE [EXTRA...]: NAME.native (clang-14) and NAME.trace
# (glassbox-cc), same flags, same uninstrumented timing driver.
build() {
  local name=$1 src=$2
  shift 2
  local zi=() zn=() zt=()
  if [ "${1:-}" = zlib ]; then
    zi=(-I"$Z/plain") zn=("$Z/plain/libz.a") zt=("$Z/trace/libz.a")
  fi
  "$CC" "${CFLAGS[@]}" "${zi[@]}" "$src" "$W/timer-native.o" "${zn[@]}" -o "$W/$name.native" ||
    die "native build of $name failed"
  "$BIN/glassbox-cc" --mode=trace "${CFLAGS[@]}" "${zi[@]}" "$src" "$W/timer-trace.o" \
    "${zt[@]}" -o "$W/$name.trace" || die "trace build of $name failed"
  [ -n "$BASE" ] || return 0
  [ ${#zt[@]} -eq 0 ] || zt=("$BASE/zlib/trace/libz.a")
  "$BASE/bin/glassbox-cc" --mode=trace "${CFLAGS[@]}" "${zi[@]}" "$src" "$W/timer-trace.o" \
    "${zt[@]}" -o "$W/$name.base" || die "base trace build of $name failed"
}

"$CC" -O2 -c "$HERE/timer.c" -o "$W/timer-native.o"
"$CC" -O2 -DGB_BENCH_TRACE -c "$HERE/timer.c" -o "$W/timer-trace.o"
mkdir -p "$W/in"
if [ "$zlib_ok" = 1 ]; then
  "$CC" -O2 -I"$Z/plain" "$HERE/gen.c" "$Z/plain/libz.a" -o "$W/gen"
else
  "$CC" -O2 "$HERE/gen.c" -lz -o "$W/gen"
fi
"$W/gen" "$W/in"
build demo "$SRC/harnesses/demo/demo.c"
cases="demo"
if [ "$zlib_ok" = 1 ]; then
  build inflate "$SRC/harnesses/zlib/inflate_fuzz.c" zlib
  build constwork "$HERE/constwork.c" zlib
  cases="demo inflate constwork"
fi
declare -A input=([demo]=demo.gbox [inflate]=inflate.zz [constwork]=const.bin)

# run CASE VARIANT REP: one process; appends "case variant rep ns cpu_ns
# wall_us rss" to $W/runs.
run() {
  local c=$1 v=$2 rep=$3 exe=$W/$1.native t0 t1
  case $v in off | on) exe=$W/$c.trace ;; boff | bon) exe=$W/$c.base ;; esac
  local env=(env -u GLASSBOX_TRACE_OUT)
  [ "$v" = on ] && env=(env GLASSBOX_TRACE_OUT="$W/$c.gbt")
  [ "$v" = bon ] && env=(env GLASSBOX_TRACE_OUT="$W/$c.base.gbt")
  t0=$EPOCHREALTIME
  "${env[@]}" "$exe" "$W/in/${input[$c]}" 2>"$W/err" || die "$c ($v) exited $?: $(tail -1 "$W/err")"
  t1=$EPOCHREALTIME
  local ns cpu rss
  ns=$(sed -n 's/^gb-bench ns=\([0-9]*\) .*/\1/p' "$W/err")
  cpu=$(sed -n 's/.* cpu_ns=\([0-9]*\) .*/\1/p' "$W/err")
  rss=$(sed -n 's/.*maxrss_kib=\([0-9]*\).*/\1/p' "$W/err")
  [ -n "$ns" ] || die "$c ($v) printed no timing: $(tail -1 "$W/err")"
  echo "$c $v $rep $ns $cpu $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1e6 }') $rss" \
    >>"$W/runs"
}

variants=(native off on)
[ -z "$BASE" ] || variants+=(boff bon)
nv=${#variants[@]}
for rep in $(seq 0 "$REPS"); do # rep 0 is the warm-up, dropped below
  for c in $cases; do
    for k in $(seq 0 $((nv - 1))); do
      run "$c" "${variants[$(((rep + k) % nv))]}" "$rep"
    done
  done
done

# med CASE VARIANT FIELD: median over the counted repetitions (field 4 = ns,
# 5 = CPU ns, 6 = process wall us, 7 = max RSS KiB).
med() {
  awk -v c="$1" -v v="$2" -v f="$3" '$1 == c && $2 == v && $3 > 0 { print $f }' "$W/runs" |
    sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
ms() { awk -v x="$1" -v d="$2" 'BEGIN { printf "%.2f", x / d }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

declare -A what=([demo]="demo, $(wc -c <"$W/in/demo.gbox") B GBOX file"
  [inflate]="zlib inflate, $(wc -c <"$W/in/inflate.zz") B stream -> 64 KiB"
  [constwork]="zlib deflate+inflate of 256 KiB constant data ($(wc -c <"$W/in/const.bin") B input, unused)")
declare -A target=([demo]="-" [inflate]="<= 5x" [constwork]="<= 1.5x")

echo "Medians of $REPS repetitions (after one warm-up round), interleaved."
echo
echo "In-process wall time of the harness call (ms; trace builds include __gb_input),"
echo "and the same ratios in CPU time:"
echo
# versions: "off on label" per trace build measured.
versions=("off on this")
[ -z "$BASE" ] || versions=("boff bon before" "off on after")
echo "| case | build | native | trace, tracing off | trace, tracing on | off/native | on/native | CPU off/native | CPU on/native | target |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for c in $cases; do
  for ver in "${versions[@]}"; do
    read -r voff von label <<<"$ver"
    n=$(med "$c" native 4) o=$(med "$c" "$voff" 4) t=$(med "$c" "$von" 4)
    cn=$(med "$c" native 5) co=$(med "$c" "$voff" 5) ct=$(med "$c" "$von" 5)
    echo "| ${what[$c]} | $label | $(ms "$n" 1e6) | $(ms "$o" 1e6) | $(ms "$t" 1e6) |" \
      "$(ratio "$o" "$n") | **$(ratio "$t" "$n")** | $(ratio "$co" "$cn") | **$(ratio "$ct" "$cn")** |" \
      "${target[$c]} |"
  done
done
echo
echo "Whole process, wall time (ms), max RSS, and the last traced run's trace"
echo "(size; path-constraint entries and constraints the tracer dropped, from glassbox show):"
echo
echo "| case | build | native | tracing off | tracing on | off/native | on/native | max RSS native / on (MiB) | trace file | entries | dropped |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for c in $cases; do
  for ver in "${versions[@]}"; do
    read -r voff von label <<<"$ver"
    gbt=$W/$c.gbt
    [ "$von" = on ] || gbt=$W/$c.base.gbt
    n=$(med "$c" native 6) o=$(med "$c" "$voff" 6) t=$(med "$c" "$von" 6)
    head=$("$BIN/glassbox" show "$gbt" | sed -n 1p) # sed reads all: no SIGPIPE
    ent=$(sed -n 's/.* \([0-9]*\) path-constraint entries.*/\1/p' <<<"$head")
    drop=$(sed -n 's/.* \([0-9]*\) constraints dropped.*/\1/p' <<<"$head")
    echo "| $c | $label | $(ms "$n" 1e3) | $(ms "$o" 1e3) | $(ms "$t" 1e3) | $(ratio "$o" "$n") |" \
      "$(ratio "$t" "$n") | $(ms "$(med "$c" native 7)" 1024) / $(ms "$(med "$c" "$von" 7)" 1024) |" \
      "$(wc -c <"$gbt") B | $ent | ${drop:-0} |"
  done
done
