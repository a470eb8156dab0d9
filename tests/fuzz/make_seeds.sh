#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Remakes the seed corpora tests/fuzz/corpus/NAME/ with Glassbox's own
# writers: traces recorded by trace builds of the project's harnesses, the
# .gb_cfg sections glassbox-cc wrote into their cov builds, the clause,
# answer, journal, cursor and fuzzer_stats files and the queue names of a
# short real campaign (with a fake AFL++ peer beside it), and sanitizer
# reports of real crashes. The seeds are committed; rerun this after a
# format changes, then check the diff is what you meant.
#   tests/fuzz/make_seeds.sh [BUILD_DIR]   (default: build/, fully built)
set -euo pipefail
shopt -s nullglob
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
bin=$build/bin
out=$here/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in glassbox glassbox-cc; do
  [ -x "$bin/$p" ] || { echo "make_seeds.sh: $bin/$p is not built" >&2; exit 1; }
done

# put NAME FILE SEED: FILE becomes corpus/NAME/SEED.
put() { mkdir -p "$out/$1"; cp "$2" "$out/$1/$3"; }
fresh() { rm -rf "$out/$1"; mkdir -p "$out/$1"; }

harnesses=(top crackme demo)
build_harnesses() {
  local h
  for h in "${harnesses[@]}"; do
    "$bin/glassbox-cc" --mode=trace -O2 "$root/harnesses/$h/$h.c" -o "$tmp/$h.trace"
    "$bin/glassbox-cc" --mode=cov -O2 "$root/harnesses/$h/$h.c" -o "$tmp/$h.cov"
  done
}

# Traces: one per seed and example, a killed run's cut-off tail, and the
# format's golden vector. crackme's CRC table makes version 2 traces.
traces() {
  fresh trace
  local h s
  for h in "${harnesses[@]}"; do
    for s in "$root/harnesses/$h/seeds/"* "$root/harnesses/$h/examples/"*; do
      [ -f "$s" ] || continue
      "$bin/glassbox" trace "$s" -o "$tmp/t.gbt" -- "$tmp/$h.trace" >/dev/null
      put trace "$tmp/t.gbt" "$h-$(basename "$s").gbt"
    done
  done
  head -c $(($(stat -c %s "$out/trace/demo-full.gbox.gbt") * 2 / 3)) \
    "$out/trace/demo-full.gbox.gbt" >"$out/trace/demo-full-cut.gbt"
  grep -v '^#' "$root/tests/symbolic/golden/small.gbt.hex" | xxd -r -p >"$out/trace/golden-small.gbt"
}

# .gb_cfg sections as glassbox-cc wrote them, each a whole program's,
# bare and in an ELF file.
cfgs() {
  fresh cfg
  local h
  for h in "${harnesses[@]}"; do
    objcopy --dump-section .gb_cfg="$tmp/$h.cfg" "$tmp/$h.cov"
    put cfg "$tmp/$h.cfg" "$h.gb_cfg"
    # the section in an ELF file of its own, as gb_cfg_load reads binaries
    objcopy --only-section=.gb_cfg "$tmp/$h.cov" "$tmp/$h.elf" 2>/dev/null
    put cfg "$tmp/$h.elf" "$h.elf"
  done
  # top built with -g: a version 3 record with source files and lines
  "$bin/glassbox-cc" --mode=cov -O2 -g "$root/harnesses/top/top.c" -o "$tmp/top-g.cov"
  objcopy --dump-section .gb_cfg="$tmp/top-g.cfg" "$tmp/top-g.cov"
  put cfg "$tmp/top-g.cfg" "top-g.gb_cfg"
}

# A short campaign on crackme, with an AFL++-style peer in the sync dir:
# clauses, answers, journal, the peer's cursor, fuzzer_stats, queue names.
campaign() {
  local sync=$tmp/sync peer=$tmp/sync/main
  mkdir -p "$peer/queue"
  printf 'GBX\x89 zero' >"$peer/queue/id:000000,time:0,execs:0,orig:zeros"
  printf 'GBX\x89 one' >"$peer/queue/id:000001,src:000000,time:112,execs:409,op:havoc,rep:2,+cov"
  "$bin/glassbox" fuzz -i "$root/harnesses/crackme/seeds" -o "$sync" -V 20 -q \
    -- "$tmp/crackme.trace" "$tmp/crackme.cov" >"$tmp/fuzz.log" 2>&1 || {
    cat "$tmp/fuzz.log" >&2
    exit 1
  }
  local me=$sync/glassbox f
  fresh clauses
  for f in "$me"/clauses/*.gbc; do put clauses "$f" "crackme-$(basename "$f")"; done
  fresh answers
  for f in "$me"/clauses/*.gbq; do put answers "$f" "crackme-$(basename "$f")"; done
  fresh journal
  put journal "$me/.expanded" crackme.expanded
  printf 'q 0\nq 1\nc 0\nq 7' >"$out/journal/torn-last-line"
  fresh synced
  for f in "$me"/.synced/*; do put synced "$f" "$(basename "$f")"; done
  fresh stats
  put stats "$me/fuzzer_stats" crackme.fuzzer_stats
  fresh queue_name
  local i=0 n
  for n in $(ls "$me/queue" "$me/crashes" "$peer/queue" | grep '^id:'); do
    printf '%s' "$n" >"$out/queue_name/name$i"
    i=$((i + 1))
  done
  # AFL++ 4.04c's other forms: a splice, a sync from another instance,
  # a crash, and an id past 999999.
  for n in 'id:000042,src:000003+000017,time:5210,execs:88112,op:splice,rep:8' \
           'id:000007,sync:fuzzer02,src:000012' \
           'id:000000,sig:11,src:000004,time:931,execs:2213,op:havoc,rep:4' \
           'id:1000000,src:999999,time:1,execs:1,op:flip1,pos:0,+cov'; do
    printf '%s' "$n" >"$out/queue_name/name$i"
    i=$((i + 1))
  done
}

# Reports of real crashes: the triage tests' planted bugs (ASan build with
# and without symbols, the libFuzzer build), and a few more kinds.
reports() {
  fresh sanrep
  local bugs=$build/tests/triage c
  for c in H I U N O A; do
    printf '%s\001' "$c" >"$tmp/in"
    ASAN_OPTIONS=symbolize=1:detect_leaks=0 "$bugs/bugs.asan" "$tmp/in" 2>"$tmp/r" >/dev/null || true
    put sanrep "$tmp/r" "asan-$c.txt"
    ASAN_OPTIONS=symbolize=0:detect_leaks=0 "$bugs/bugs.asan" "$tmp/in" 2>"$tmp/r" >/dev/null || true
    put sanrep "$tmp/r" "asan-nosym-$c.txt"
  done
  for c in H N; do
    printf '%s\001' "$c" >"$tmp/in"
    "$bugs/bugs.lf" "$tmp/in" 2>"$tmp/r" >/dev/null || true
    put sanrep "$tmp/r" "libfuzzer-$c.txt"
  done
  cat >"$tmp/more.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static volatile int sink;
static int deep(int n) { volatile char pad[256]; pad[0] = (char)n; return deep(n + 1) + pad[0]; }
int main(int argc, char **argv)
{
    char *p = malloc(8);
    int k = argc > 1 ? argv[1][0] : 0, a[4] = {0};
    if (k == 'l') { p = malloc(40); p = NULL; return 0; }
    if (k == 'd') { free(p); free(p); }
    if (k == 's') sink = deep(0);
    if (k == 'b') sink = a[argc + 3];
    if (k == 'z') sink = 7 / (argc - 2);
    if (k == 'x') sink = 1 << (argc + 40);
    free(p);
    return 0;
}
EOF
  clang-14 -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all "$tmp/more.c" -o "$tmp/more"
  for c in l d s b z x; do
    ASAN_OPTIONS=detect_leaks=1 "$tmp/more" "$c" 2>"$tmp/r" >/dev/null || true
    put sanrep "$tmp/r" "more-$c.txt"
  done
}

# smt2: the harness reads its input as a program (fuzz_smt2.c); a few
# fixed pseudo-random programs of several lengths start it.
programs() {
  fresh smt2
  local k
  for k in 1 2 3 4 5 6 7 8; do
    awk -v seed="$k" -v n=$((48 * k)) 'BEGIN {
      x = seed * 7919
      for (i = 0; i < n; i++) { x = (x * 1103515245 + 12345) % 2147483648; printf "%02x", int(x / 65536) % 256 }
    }' | xxd -r -p >"$out/smt2/program$k"
  done
}

build_harnesses
traces
cfgs
campaign
reports
programs
du -sh "$out"/* | sed 's|'"$out"'/||'
