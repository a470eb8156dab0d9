#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds one Magma target (libtiff or libxml2) in every kind the parsers'
# benchmark uses, with all of Magma's bug patches applied, canaries on and
# fixes off. Nothing of Magma or the library is in this repository: MAGMA_DIR
# (a checkout or a git dir of Magma) gives the patches, the harness and the
# corpus, and LIB_GIT (the library's git repository, or a source tree
# already at Magma's commit) the source. The patched source and each build
# are cached like harnesses/lib/debsrc.sh's (whose helpers this sources),
# under ${XDG_CACHE_HOME:-~/.cache}/glassbox/magma-TARGET-COMMIT-KEY/, KEY
# hashing the patches and the canary header. See bench/magma/README.md.
#   bench/magma/build.sh MAGMA_DIR LIB_GIT TARGET [--out DIR] [--bin BUILD_BIN_DIR]
#                        [--kinds "KIND..."]
set -euo pipefail

die() { echo "bench/magma/build.sh: $*" >&2; exit 1; }
# plain is the canary replay build (NAME.plain, gb_magma_replay.c's main).
ALL_KINDS="trace cov afl cmplog asan lf edge llvmcov plain"
usage() {
  echo "usage: bench/magma/build.sh MAGMA_DIR LIB_GIT TARGET [--out DIR] [--bin BUILD_BIN_DIR] [--kinds \"KIND...\"]" >&2
  echo "  TARGET: libtiff or libxml2; DIR default build/magma/TARGET, BUILD_BIN_DIR default build/bin" >&2
  echo "  KIND: $ALL_KINDS (default all; plain is always one: the seeds are checked on it)" >&2
  exit 2
}

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
[ $# -ge 3 ] || usage
MAGMA=$1 LIBSRC=$2 TARGET=$3
shift 3
OUT_ARG=$ROOT/build/magma/$TARGET BIN_ARG=$ROOT/build/bin KINDS_ARG=
while [ $# -gt 0 ]; do
  case $1 in
  --out) [ $# -ge 2 ] || usage; OUT_ARG=$2; shift ;;
  --bin) [ $# -ge 2 ] || usage; BIN_ARG=$2; shift ;;
  --kinds) [ $# -ge 2 ] || usage; KINDS_ARG=$2; shift ;;
  *) usage ;;
  esac
  shift
done

# ---- the target's recipe -----------------------------------------------------
# The library's own CMake (the tree has no autotools' output, and Glassbox
# installs no autotools), static, the library target only; zlib is
# harnesses/zlib's build of the same kind at the harness link (the system's
# uninstrumented libz would drop the input's bytes from the trace), its
# headers the system's (the same version). lzma, zstd, webp, jbig and ICU
# are off: no instrumented builds of them (Magma's XML004 is in xzlib.c's
# lzma path, TIF013 in tif_jbig.c: those stay unreachable). libtiff's
# OJPEG and JPEG codecs use the system's libjpeg when its headers are
# installed (TIF004 is in tif_ojpeg.c), uninstrumented.
case $TARGET in
libtiff)
  # Magma's harness, and the same on TIFFClientOpen (tiff_read_rgba_mem.cc:
  # a trace of Magma's loses the input's bytes inside libstdc++'s stream)
  HARNESSES=(tiff_read_rgba_fuzzer:tiff_read_rgba_fuzzer.cc:-std=c++11
    tiff_read_rgba_mem:tiff_read_rgba_mem.cc:-std=c++11)
  DICT_NAME=tiff.dict
  lib_build() {
    CXX=clang++-14
    case $CC in
    *glassbox-cc) CXX=${CC%cc}c++ ;;
    afl-clang-fast) CXX=afl-clang-fast++ ;;
    esac
    export CXX CXXFLAGS=$CFLAGS
    cmake -S . -B gbbuild -G Ninja -DCMAKE_BUILD_TYPE=None -DBUILD_SHARED_LIBS=OFF -Dcxx=ON \
      -Dzlib=ON -Dpixarlog=ON -Djpeg=ON -Dold-jpeg=ON -Djbig=OFF -Dlzma=OFF -Dzstd=OFF \
      -Dwebp=OFF -Dlibdeflate=OFF
    cmake --build gbbuild --target tiff tiffxx -j "$JOBS"
  }
  lib_link_args() {
    local jpeg=""
    grep -q "^#define JPEG_SUPPORT 1" "$1/gbbuild/libtiff/tiffconf.h" && jpeg=-ljpeg
    echo "-I$1/libtiff -I$1/gbbuild/libtiff $1/gbbuild/libtiff/libtiffxx.a $1/gbbuild/libtiff/libtiff.a" \
      "$GB_OUT/zlib/$GB_KIND/libz.a $jpeg -lm"
  }
  ;;
libxml2)
  HARNESSES=(xml_read_memory_fuzzer:libxml2_xml_read_memory_fuzzer.cc:-std=c++11)
  DICT_NAME=xml.dict
  lib_build() {
    cmake -S . -B gbbuild -G Ninja -DCMAKE_BUILD_TYPE=None -DBUILD_SHARED_LIBS=OFF \
      -DLIBXML2_WITH_LZMA=OFF -DLIBXML2_WITH_ZLIB=ON -DLIBXML2_WITH_PYTHON=OFF \
      -DLIBXML2_WITH_THREADS=OFF -DLIBXML2_WITH_HTTP=OFF -DLIBXML2_WITH_ICU=OFF \
      -DLIBXML2_WITH_TESTS=OFF -DLIBXML2_WITH_PROGRAMS=OFF
    # Threads off (as Magma builds it) but pthread.h found: threads.c then
    # calls xmlOnceInit, which only a threaded build declares.
    sed -i 's|^#define HAVE_PTHREAD_H.*|/* HAVE_PTHREAD_H: off with the threads */|' gbbuild/config.h
    if grep -q '^#define HAVE_PTHREAD_H' gbbuild/config.h; then exit 1; fi # (! grep: errexit ignores it)
    cmake --build gbbuild --target LibXml2 -j "$JOBS"
  }
  lib_link_args() {
    echo "-I$1/include -I$1/gbbuild $1/gbbuild/libxml2.a $GB_OUT/zlib/$GB_KIND/libz.a -lm"
  }
  ;;
*) die "unknown target '$TARGET' (known: libtiff, libxml2)" ;;
esac
LIB=magma-$TARGET PKG=$TARGET
# --kinds builds a subset (triage.sh needs only plain and asan); plain is
# always one, as the seeds are checked on it.
KINDS=${KINDS_ARG:-$ALL_KINDS}
for k in $KINDS; do
  case " $ALL_KINDS " in *" $k "*) ;; *) die "unknown kind '$k' in --kinds (known: $ALL_KINDS)" ;; esac
done
case " $KINDS " in *" plain "*) ;; *) die "--kinds must include plain (the seeds are checked on it)" ;; esac

# shellcheck source=../../harnesses/lib/debsrc.sh
. "$ROOT/harnesses/lib/debsrc.sh"

# Every kind as debsrc.sh makes it, plus the canaries: the header forced into
# every library file, the runtime (plain clang, uninstrumented) and, for the
# replay build, its main at every harness link; harnesses link as C++.
eval "gb_debsrc_kind_setup() $(declare -f gb_kind_setup | tail -n +2)"
gb_kind_setup() {
  gb_debsrc_kind_setup "$1"
  GB_CFLAGS+=" -DMAGMA_ENABLE_CANARIES -include $GB_ROOT/bench/magma/gb_magma.h"
  case ${GB_LINK[0]} in
  */glassbox-cc) GB_LINK[0]=${GB_LINK[0]%cc}c++ ;;
  afl-clang-fast) GB_LINK[0]=afl-clang-fast++ ;;
  clang-14) GB_LINK[0]=clang++-14 ;;
  esac
  # gb_runfiles.c is C: compiled apart (runtime_objects), not as C++.
  [ "$1" = llvmcov ] && GB_TAIL=("$GB_OUT/gb_runfiles.o")
  GB_TAIL+=("$GB_OUT/gb_magma_rt.o")
  [ "$1" = plain ] && GB_TAIL+=("$GB_OUT/gb_magma_replay.o")
  return 0
}

# ---- Magma's files -----------------------------------------------------------
# magma_files DEST: targets/TARGET of MAGMA (a checkout or a git dir) into DEST.
magma_files() {
  rm -rf "$1" && mkdir -p "$1"
  if [ -d "$MAGMA/targets/$TARGET" ]; then
    cp -a "$MAGMA/targets/$TARGET/." "$1/"
  else
    git --git-dir="$MAGMA" archive HEAD "targets/$TARGET" | tar -x -C "$1" --strip-components=2 ||
      die "$MAGMA is neither a Magma checkout nor its git dir"
  fi
  [ -f "$1/fetch.sh" ] || die "no targets/$TARGET/fetch.sh in $MAGMA"
}
magma_commit() {
  git -C "$MAGMA" rev-parse HEAD 2>/dev/null || git --git-dir="$MAGMA" rev-parse HEAD 2>/dev/null || echo unknown
}

# lib_git ARGS...: git on LIBSRC, a work tree or a git dir.
lib_git() {
  if [ -e "$LIBSRC/.git" ]; then git -C "$LIBSRC" "$@"; else git --git-dir="$LIBSRC" "$@"; fi
}

# source_tree DEST: the library at COMMIT into DEST, from LIBSRC's git, or a
# copy of LIBSRC when it is a tree without git (the user vouches for its
# commit).
source_tree() {
  if lib_git cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
    lib_git archive "$COMMIT" | tar -x -C "$1"
  elif ! lib_git rev-parse --git-dir >/dev/null 2>&1 && [ -f "$LIBSRC/CMakeLists.txt" ]; then
    echo "bench/magma/build.sh: $LIBSRC is not a git repository: taken as $TARGET at $COMMIT" >&2
    cp -a "$LIBSRC/." "$1/"
  else
    die "$LIBSRC does not hold $TARGET's commit $COMMIT"
  fi
}

# apply_patches TREE LOG: Magma's setup patch, then every bug patch, its
# %MAGMA_BUG% placeholder replaced by the bug's name (as Magma's
# apply_patches.sh does); any patch that does not apply fails the build.
apply_patches() {
  local p name
  for p in "$MFILES"/patches/setup/*.patch "$MFILES"/patches/bugs/*.patch; do
    [ -f "$p" ] || continue
    name=$(basename "$p" .patch)
    echo "== $name" >>"$2"
    sed "s/%MAGMA_BUG%/$name/g" "$p" | patch -p1 --batch --forward -d "$1" >>"$2" 2>&1 ||
      die "patch $name did not apply to $TARGET $COMMIT, see $2"
  done
}

# prepare_source: GB_DIR/src, the patched tree with Magma's harness sources
# in gb-harness/, made once per commit, patch set and canary header.
prepare_source() {
  COMMIT=$(sed -n 's/.*checkout \([0-9a-f]\{40\}\).*/\1/p' "$MFILES/fetch.sh" | head -1)
  [ -n "$COMMIT" ] || die "no commit in targets/$TARGET/fetch.sh"
  local key
  key=$(cat "$MFILES"/patches/setup/*.patch "$MFILES"/patches/bugs/*.patch "$GB_ROOT/bench/magma/gb_magma.h" \
    "$MFILES"/src/* 2>/dev/null | sha256sum | cut -c1-12)
  GB_VER=${COMMIT:0:12}-$key
  GB_DIR=$GB_CACHE/$LIB-$GB_VER
  mkdir -p "$GB_DIR/logs"
  (
    flock 9
    [ -f "$GB_DIR/src/.gb-unpacked" ] && exit 0
    rm -rf "$GB_DIR/src" "$GB_DIR/src.tmp"
    mkdir -p "$GB_DIR/src.tmp"
    : >"$GB_DIR/logs/patch.log"
    source_tree "$GB_DIR/src.tmp"
    apply_patches "$GB_DIR/src.tmp" "$GB_DIR/logs/patch.log"
    cp -a "$MFILES/src" "$GB_DIR/src.tmp/gb-harness"
    touch "$GB_DIR/src.tmp/.gb-unpacked"
    mv "$GB_DIR/src.tmp" "$GB_DIR/src"
  ) 9>"$GB_DIR/.lock"
}

# runtime_objects: the canary runtime, the replay main and the llvmcov
# kind's file-running main, by plain clang-14 (no instrumentation).
runtime_objects() {
  local c o
  for c in bench/magma/gb_magma_rt.c bench/magma/gb_magma_replay.c harnesses/lib/gb_runfiles.c; do
    o=$GB_OUT/$(basename "$c" .c).o
    [ "$o" -nt "$GB_ROOT/$c" ] && [ "$o" -nt "$GB_ROOT/bench/magma/gb_magma.h" ] && continue
    gb_step "${o##*/}" "$GB_OUT/logs/${o##*/}.log" clang-14 -std=c11 -O2 -g -Wall -c "$GB_ROOT/$c" -o "$o"
  done
}

# drop_crashing_seeds NAME: seeds that end NAME.plain other than by a normal
# exit (a canary's trigger: Magma's libxml2 corpus triggers XML017) go, into
# OUT/seeds-dropped/NAME/: AFL++ skips such seeds, while Glassbox saves them
# as crashes at time 0, which would count as a find of the engine.
drop_crashing_seeds() {
  local log=$GB_OUT/logs/seeds-$1.replay
  rm -rf "$GB_OUT/seeds-dropped/$1" "$log"
  GB_MAGMA_LOG=$log "$GB_OUT/$1.plain" "$GB_OUT/seeds/$1" >/dev/null 2>&1 || true
  awk '$1 == "file" { f = substr($0, 6) } $1 == "end" && $0 != "end exit 0" { print f }' "$log" |
    while IFS= read -r f; do
      mkdir -p "$GB_OUT/seeds-dropped/$1"
      mv "$f" "$GB_OUT/seeds-dropped/$1/"
    done
  [ ! -d "$GB_OUT/seeds-dropped/$1" ] ||
    echo "bench/magma/build.sh: $(ls "$GB_OUT/seeds-dropped/$1" | wc -l) seeds of $1 crash (a canary, see $log): moved to seeds-dropped/$1/" >&2
}

# seeds_and_dict: OUT/seeds/NAME/ from Magma's corpus of its harness (every
# harness gets the first one's); OUT/NAME.dict links to AFL++'s dictionary
# (Debian's afl++-doc) when it is installed.
seeds_and_dict() {
  local name file d dict="" h
  IFS=: read -r _ file _ <<<"${HARNESSES[0]}"
  for d in /usr/share/doc/afl++-doc/afl/dictionaries /usr/share/afl/dictionaries; do
    [ -f "$d/$DICT_NAME" ] && { dict=$d/$DICT_NAME; break; }
  done
  [ -n "$dict" ] || echo "bench/magma/build.sh: no AFL++ $DICT_NAME (install afl++-doc): runs go without a dictionary" >&2
  rm -rf "$GB_OUT/seeds"
  for h in "${HARNESSES[@]}"; do
    name=${h%%:*}
    mkdir -p "$GB_OUT/seeds/$name"
    find "$MFILES/corpus/${file%.cc}" -maxdepth 1 -type f -exec cp -t "$GB_OUT/seeds/$name/" {} + 2>/dev/null || true
    [ -n "$(ls -A "$GB_OUT/seeds/$name")" ] || die "no seeds in targets/$TARGET/corpus/${file%.cc}"
    drop_crashing_seeds "$name"
    rm -f "$GB_OUT/$name.dict"
    [ -z "$dict" ] || ln -s "$dict" "$GB_OUT/$name.dict"
  done
}

main() {
  [ -x "$BIN_ARG/glassbox-cc" ] || die "no glassbox-cc in $BIN_ARG (build Glassbox first: scripts/build)"
  command -v flock >/dev/null || die "flock (util-linux) is needed"
  mkdir -p "$OUT_ARG/logs"
  GB_OUT=$(cd "$OUT_ARG" && pwd)
  GB_BIN=$(cd "$BIN_ARG" && pwd)
  GB_ROOT=$ROOT
  GB_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/glassbox
  MFILES=$GB_OUT/magma-files
  magma_files "$MFILES"
  GB_HERE=$GB_OUT/harness # the harness sources gb_link compiles
  GB_EXTRA_KINDS="edge llvmcov" "$ROOT/harnesses/zlib/fetch-build.sh" "$GB_OUT/zlib" "$GB_BIN" ||
    die "harnesses/zlib/fetch-build.sh failed (exit $?)"
  prepare_source
  rm -rf "$GB_HERE" && cp -a "$GB_DIR/src/gb-harness" "$GB_HERE"
  cp -p "$GB_ROOT"/bench/magma/*.cc "$GB_HERE/"
  runtime_objects
  local k
  for k in $KINDS; do
    gb_build "$k"
    gb_link "$k"
  done
  seeds_and_dict
  echo "$TARGET $COMMIT, Magma $(magma_commit) patches $GB_VER" >"$GB_OUT/VERSION"
}
main
exit 0 # nothing after this line is read, should the file change during a build
