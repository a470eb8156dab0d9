#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fetches zlib's Debian source package (private apt state, the system's apt
# configuration is only read) and builds it with its own ./configure && make
# three times: glassbox-cc trace, glassbox-cc cov and plain clang-14, plus
# a libFuzzer-instrumented clang-14 build (plain would give libFuzzer no
# coverage inside zlib); then links harnesses/zlib/inflate_fuzz.c against
# each instrumented libz.a.
# Usage: fetch-build.sh OUT_DIR BUILD_BIN_DIR
# Exit 77 when the Debian archive cannot be reached (CTest skips).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 OUT_DIR BUILD_BIN_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
bin=$(cd "$2" && pwd)
logs=$out/logs
mkdir -p "$logs"

die() { echo "zlib fetch-build: $1 failed, see $2" >&2; exit 1; }

# step NAME LOG CMD...: run CMD quietly, appending to LOG; one line on failure.
step() {
  local name=$1 log=$2
  shift 2
  "$@" >>"$log" 2>&1 || die "$name" "$log"
}

# sources APT: private deb-src entries derived from the machine's own apt
# sources (one-line .list files and deb822 .sources files alike), so the
# project names no mirror and the system's configuration stays untouched.
sources() {
  local apt=$1 f
  rm -rf "$apt/parts"
  mkdir -p "$apt/parts"
  : >"$apt/sources.list"
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >>"$apt/sources.list"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed 's/^Types:.*/Types: deb-src/' "$f" >"$apt/parts/${f##*/}"
  done
  [ -s "$apt/sources.list" ] || ls "$apt/parts"/*.sources >/dev/null 2>&1
}

# fetch: apt-get with its own sources list, lists and cache under $out/apt.
fetch() {
  local apt=$out/apt log=$logs/fetch.log
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/dl"
  if ! sources "$apt"; then
    echo "zlib fetch-build: this machine's apt configuration names no Debian source; skipping" >&2
    exit 77
  fi
  local o=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/parts"
           -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
  : >"$log"
  apt-get "${o[@]}" update >>"$log" 2>&1 || true
  if ! ls "$apt"/lists/*_Sources* >/dev/null 2>&1; then
    echo "zlib fetch-build: Debian archive unreachable (apt-get update got no Sources index, see $log); skipping" >&2
    exit 77
  fi
  if ! (cd "$apt/dl" && apt-get "${o[@]}" source --download-only zlib) >>"$log" 2>&1; then
    if grep -qE 'Failed to fetch|Could not resolve|Temporary failure|Unable to connect' "$log"; then
      echo "zlib fetch-build: Debian archive unreachable (download of zlib failed, see $log); skipping" >&2
      exit 77
    fi
    die "apt-get source zlib" "$log"
  fi
}

# unpack: dpkg-source applies Debian's patches; without it the orig tarball
# builds as is.
unpack() {
  local dl=$out/apt/dl log=$logs/unpack.log
  rm -rf "$out/src" "$out/src.tmp"
  : >"$log"
  if command -v dpkg-source >/dev/null; then
    step "dpkg-source -x" "$log" dpkg-source -x "$(ls "$dl"/zlib_*.dsc | head -1)" "$out/src.tmp"
  else
    mkdir -p "$out/src.tmp"
    step "tar (orig tarball)" "$log" tar -xf "$(ls "$dl"/zlib_*.orig.tar.* | head -1)" \
      -C "$out/src.tmp" --strip-components=1
  fi
  touch "$out/src.tmp/.gb-unpacked"
  mv "$out/src.tmp" "$out/src"
}

# build VARIANT CC [ENV...]: a fresh copy of the source, ./configure --static
# && make, with CC and the environment given.
build() {
  local v=$1 cc=$2 log=$logs/$1.log
  shift 2
  rm -rf "${out:?}/$v"
  cp -a "$out/src" "$out/$v"
  : >"$log"
  (cd "$out/$v" && step "$v: ./configure" "$log" env CC="$cc" "$@" ./configure --static &&
     step "$v: make" "$log" env "$@" make -j"$(nproc)")
}

# harness VARIANT CC [FLAGS...]: zlib_inflate.VARIANT, inflate_fuzz.c linked
# against VARIANT's libz.a.
harness() {
  local v=$1 cc=$2 log=$logs/harness-$1.log
  shift 2
  : >"$log"
  step "zlib_inflate.$v" "$log" "$cc" "$@" -O2 -g -I"$out/$v" "$here/inflate_fuzz.c" \
    "$out/$v/libz.a" -o "$out/zlib_inflate.$v"
}

[ -f "$out/src/.gb-unpacked" ] || { fetch; unpack; }
build trace "$bin/glassbox-cc" GLASSBOX_MODE=trace
build cov "$bin/glassbox-cc" GLASSBOX_MODE=cov
build plain clang-14
build lf clang-14 CFLAGS="-O2 -g -fsanitize=fuzzer-no-link,address"
harness trace "$bin/glassbox-cc" --mode=trace
harness cov "$bin/glassbox-cc" --mode=cov
harness lf clang-14 -fsanitize=fuzzer,address
rm -f "$out"/zlib_*.orig.tar.*  # dpkg-source leaves a copy beside src/
