#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# glassbox cmin against afl-cmin (and libFuzzer -merge=1) on one corpus
# from a real parser campaign: zlib inflate after an AFL++ run, side by
# side in one run, the same corpus and the same afl-clang-fast binary.
# Usage: bench/corpus/cmin.sh BUILD_DIR
# Environment:
#   GB_BENCH_AFL_SECS    AFL++ campaign length in seconds (default 600)
#   GB_BENCH_MIN_INPUTS  corpus size to reach (default 5000): when the
#                        queue is smaller, mutants of queue entries fill it
#                        (said in the output; see docs/cmin.md)
#   GB_BENCH_WORK        work dir (default BUILD_DIR/bench-cmin; afl-cmin
#                        refuses to run under /tmp)
#   GB_BENCH_REUSE=1     keep an earlier campaign's corpus
# Uses at most 2 processes at a time (zlib's make -j2 included).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
bin=$build/bin
W=${GB_BENCH_WORK:-$build/bench-cmin}
secs=${GB_BENCH_AFL_SECS:-600}
want=${GB_BENCH_MIN_INPUTS:-5000}
Z=$build/zlib
mkdir -p "$W"
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_QUIET=1
export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_SKIP_BIN_CHECK=1
export AFL_ALLOW_TMP=1 # afl-cmin otherwise refuses a build dir under /tmp
for t in afl-fuzz afl-cmin afl-showmap afl-clang-fast clang-14 python3; do
  command -v "$t" >/dev/null || { echo "cmin bench: $t is not installed" >&2; exit 1; }
done
say() { echo "cmin bench: $*" >&2; }

# ---- builds ---------------------------------------------------------------

# zlib's Debian source and the glassbox-cc builds (cov: an extra row).
if [ ! -x "$Z/zlib_inflate.cov" ]; then
  rc=0
  "$src/harnesses/zlib/fetch-build.sh" "$Z" "$bin" || rc=$?
  [ "$rc" -eq 77 ] && { say "Debian archive unreachable: skipped"; exit 77; }
  [ "$rc" -eq 0 ] || exit "$rc"
fi

# zbuild NAME CC CFLAGS HARNESS_FLAGS: libz.a by zlib's own configure &&
# make with CC, then inflate_fuzz.c linked against it into $W/zlib_inflate.NAME.
zbuild() {
  local name=$1 cc=$2 cflags=$3 hflags=$4 d=$W/z-$1
  [ -x "$W/zlib_inflate.$name" ] && return 0
  rm -rf "$d"
  cp -a "$Z/src" "$d"
  (cd "$d" && CC=$cc CFLAGS="$cflags" ./configure --static >"$W/build-$name.log" 2>&1 &&
     make -j2 libz.a >>"$W/build-$name.log" 2>&1) || { say "zlib $name build failed: $W/build-$name.log"; exit 1; }
  # shellcheck disable=SC2086
  "$cc" -O2 -g $hflags -I"$d" "$src/harnesses/zlib/inflate_fuzz.c" "$d/libz.a" \
    -o "$W/zlib_inflate.$name" >>"$W/build-$name.log" 2>&1 || { say "harness $name failed"; exit 1; }
}
# afl-clang-fast with libAFLDriver: persistent mode and shared-memory input,
# as an AFL++ user builds a libFuzzer harness. libFuzzer: no sanitizer, so
# -merge=1 is timed on the same kind of build.
zbuild afl afl-clang-fast "-O2 -g" "-fsanitize=fuzzer"
zbuild libfuzzer clang-14 "-O2 -g -fsanitize=fuzzer-no-link" "-fsanitize=fuzzer"
AFLBIN=$W/zlib_inflate.afl

# ---- the corpus -------------------------------------------------------------

C=$W/corpus
if [ "${GB_BENCH_REUSE:-0}" = 1 ] && [ -d "$C" ] && [ -f "$W/corpus.txt" ]; then
  say "reusing $C ($(cat "$W/corpus.txt"))"
else
  rm -rf "$W/afl" "$C"
  say "AFL++ on zlib inflate for $secs s"
  afl-fuzz -i "$src/harnesses/zlib/seeds" -o "$W/afl" -V "$secs" -- "$AFLBIN" >"$W/afl.log" 2>&1 ||
    { tail -5 "$W/afl.log" >&2; exit 1; }
  mkdir -p "$C"
  cp "$W/afl/default/queue"/id:* "$C/"
  q=$(ls "$C" | wc -l)
  execs=$(sed -n 's/^execs_done *: //p' "$W/afl/default/fuzzer_stats")
  m=0
  if [ "$q" -lt "$want" ]; then
    m=$((want - q))
    # Mutants of queue entries, as a fuzzer's rejected children look: one
    # to four bytes changed, a cut, a splice of two entries, or an exact
    # copy (1 in 20, for the duplicate filter).
    python3 - "$C" "$m" <<'PY'
import os, random, sys
d, m = sys.argv[1], int(sys.argv[2])
names = sorted(os.listdir(d))
data = [open(os.path.join(d, n), "rb").read() for n in names]
r = random.Random(10)
for k in range(m):
    i = r.randrange(len(data)); b = bytearray(data[i]); op = r.random()
    if op < 0.05:
        pass
    elif op < 0.55 and b:
        for _ in range(r.randint(1, 4)):
            b[r.randrange(len(b))] = r.randrange(256)
    elif op < 0.8 and len(b) > 1:
        b = b[: r.randrange(1, len(b))]
    else:
        o = data[r.randrange(len(data))]
        b = b[: r.randint(0, len(b))] + o[r.randint(0, len(o)) :]
    open(os.path.join(d, "mut:%06d,src:%s" % (k, names[i][:9])), "wb").write(bytes(b))
PY
  fi
  echo "$q AFL++ queue entries after $secs s ($execs execs) + $m mutants of them" >"$W/corpus.txt"
  say "corpus: $(cat "$W/corpus.txt")"
fi
nin=$(ls "$C" | wc -l)
bin_bytes=$(cat "$C"/* | wc -c)

# ---- the runs -----------------------------------------------------------------

# timed NAME CMD...: CMD's wall seconds appended to $W/time.NAME, its output
# in $W/NAME.log. The tool's output dir is made fresh by the caller.
timed() {
  local name=$1 t0 t1
  shift
  t0=$(date +%s.%N)
  "$@" >"$W/$name.log" 2>&1 || { say "$name failed: $(tail -3 "$W/$name.log")"; exit 1; }
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' >>"$W/time.$name"
}

# pairs DIR: distinct (edge, hit bucket) pairs of DIR's files on $AFLBIN,
# from afl-showmap's raw counts, bucketed as AFL does.
pairs() {
  local tr=$W/showmap
  rm -rf "$tr"
  afl-showmap -r -i "$1" -o "$tr" -t 5000 -- "$AFLBIN" >/dev/null 2>&1 || true
  cat "$tr"/* | awk -F: '{ c = $2 + 0
    b = c <= 3 ? c : c < 8 ? 4 : c < 16 ? 5 : c < 32 ? 6 : c < 128 ? 7 : 8; print $1 ":" b }' |
    sort -u | wc -l
}

# Each tool runs GB_BENCH_REPS times (default 3), the tools interleaved so
# that the shared machine's load falls on all alike; medians are reported.
cd "$W"
rm -f time.*
for rep in $(seq "${GB_BENCH_REPS:-3}"); do
  say "round $rep"
  rm -rf out.*
  mkdir -p out.lf
  timed gb1 "$bin/glassbox" cmin -q -i "$C" -o out.gb1 -- "$AFLBIN"
  timed afl1 afl-cmin -i "$C" -o out.afl1 -- "$AFLBIN"
  timed gb2 "$bin/glassbox" cmin -q -T 2 -i "$C" -o out.gb2 -- "$AFLBIN"
  timed lf "$W/zlib_inflate.libfuzzer" -merge=1 out.lf "$C"
  timed gbcov "$bin/glassbox" cmin -q -i "$C" -o out.gbcov -- "$Z/zlib_inflate.cov"
  timed gbcov2 "$bin/glassbox" cmin -q -T 2 -i "$C" -o out.gbcov2 -- "$Z/zlib_inflate.cov"
  timed gbv "$bin/glassbox" cmin -q --verify -i "$C" -o out.gb1 -- "$AFLBIN"
done

files() { ls "$1" | wc -l; }
bytes() { cat "$1"/* | wc -c; }
t() { sort -n "$W/time.$1" | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }'; }
all() { tr '\n' ' ' <"$W/time.$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }

{
  echo "Corpus: $nin files, $bin_bytes bytes ($(cat "$W/corpus.txt"))."
  echo "(edge, hit bucket) pairs of the corpus on the afl-clang-fast build: $(pairs "$C")."
  echo
  echo "| tool | binary | time s | vs afl-cmin | files | bytes | pairs kept |"
  echo "|---|---|---|---|---|---|---|"
  echo "| glassbox cmin | afl-clang-fast | $(t gb1) | $(ratio "$(t afl1)" "$(t gb1)")× faster | $(files out.gb1) | $(bytes out.gb1) | $(pairs out.gb1) |"
  echo "| afl-cmin | afl-clang-fast | $(t afl1) | 1 | $(files out.afl1) | $(bytes out.afl1) | $(pairs out.afl1) |"
  echo "| glassbox cmin -T 2 | afl-clang-fast | $(t gb2) | $(ratio "$(t afl1)" "$(t gb2)")× faster | $(files out.gb2) | $(bytes out.gb2) | $(pairs out.gb2) |"
  echo "| libFuzzer -merge=1 | clang -fsanitize=fuzzer | $(t lf) | $(ratio "$(t afl1)" "$(t lf)")× faster | $(files out.lf) | $(bytes out.lf) | $(pairs out.lf) |"
  echo "| glassbox cmin | glassbox-cc --mode=cov | $(t gbcov) | $(ratio "$(t afl1)" "$(t gbcov)")× faster | $(files out.gbcov) | $(bytes out.gbcov) | $(pairs out.gbcov) |"
  echo "| glassbox cmin -T 2 | glassbox-cc --mode=cov | $(t gbcov2) | $(ratio "$(t afl1)" "$(t gbcov2)")× faster | $(files out.gbcov2) | $(bytes out.gbcov2) | $(pairs out.gbcov2) |"
  echo
  echo "Medians of ${GB_BENCH_REPS:-3} interleaved rounds. All times (s): glassbox $(all gb1); afl-cmin $(all afl1);"
  echo "glassbox -T 2 $(all gb2); libFuzzer $(all lf); glassbox on the cov build $(all gbcov), -T 2 $(all gbcov2)."
  echo
  echo "glassbox cmin --verify of out.gb1 (re-runs corpus and output): $(t gbv) s, $(grep -o 'verify: .*' "$W/gbv.log")"
  echo "glassbox cmin (-T 1) said:"
  sed 's/^/    /' "$W/gb1.log"
} | tee "$W/results.md"
