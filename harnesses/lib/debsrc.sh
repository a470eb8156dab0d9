# SPDX-License-Identifier: Apache-2.0
# Shared by harnesses/<lib>/fetch-build.sh (sourced, not run): fetches a
# Debian source package with a private apt state derived from the machine's
# own apt sources, builds the library once per build kind with its own build
# system, caches each build by the package's version outside the clone, and
# links the library's harnesses into one output directory.
#
# The sourcing script sets LIB (cache name), PKG (Debian source package),
# KINDS (build kinds it wants, default all), defines
#   lib_build        run in a fresh copy of the source with CC, CFLAGS,
#                    JOBS exported: build the static library only;
#   lib_link_args D  print the -I flags and archives a harness needs from
#                    the build tree D (of kind GB_KIND);
# may set SRC_SUBDIR (the part of the source each build copies; Expat's
# tree is 80 MB of test data around a 2 MB library) and TRACE_CFLAGS (added to the trace kind's library build, where
# glassbox-cc's instrumentation of huge force-inlined functions is slow),
# lists its harnesses in HARNESSES ("name:file.c[:extra flags]"), and calls
#   gb_debsrc_main OUT_DIR BUILD_BIN_DIR
# OUT_DIR gets NAME.KIND per harness and per kind, a symlink KIND -> the
# cached build tree, seeds/NAME/ (gb_seeds) and VERSION. Exit 77 when the
# archive cannot be reached and nothing is cached.
#
# Cache: ${XDG_CACHE_HOME:-$HOME/.cache}/glassbox/
#   apt/                  private sources list, indexes and downloads
#   LIB-VERSION/src/      the unpacked source (Debian patches applied)
#   LIB-VERSION/KIND-KEY/ one build; KEY hashes the recipe and the compiler
#                         (glassbox-cc's instrumentation sources for trace
#                         and cov), so a changed tracer rebuilds them
# Environment: GB_HARNESS_JOBS (make -j, default 2), GB_HARNESS_REFRESH=1
# (re-read the archive's index now; otherwise at most every 6 hours),
# GB_EXTRA_KINDS (kinds built beside KINDS, e.g. "edge llvmcov": the
# measuring builds of bench/run, left out of CI's harness tests).

GB_ALL_KINDS="trace cov afl cmplog asan lf"
GB_MEASURE_KINDS="edge llvmcov"

gb_die() { echo "$LIB fetch-build: $*" >&2; exit 1; }
gb_skip() { echo "$LIB fetch-build: $*; skipping" >&2; exit 77; }

# gb_step NAME LOG CMD...: CMD quietly, appended to LOG; one line on failure.
gb_step() {
  local name=$1 log=$2
  shift 2
  "$@" >>"$log" 2>&1 || gb_die "$name failed, see $log"
}

# gb_sources APT: deb-src entries derived from the machine's own apt sources
# (one-line .list files and deb822 .sources files), so the project names no
# mirror and the system's apt configuration is only read.
gb_sources() {
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

gb_apt() {
  apt-get -o "Dir::Etc::SourceList=$GB_APT/sources.list" -o "Dir::Etc::SourceParts=$GB_APT/parts" \
    -o "Dir::State::Lists=$GB_APT/lists" -o "Dir::Cache=$GB_APT/cache" \
    -o "Dir::State::status=/dev/null" -o "APT::Sandbox::User=root" "$@"
}
gb_apt_cache() {
  apt-cache -o "Dir::Etc::SourceList=$GB_APT/sources.list" -o "Dir::Etc::SourceParts=$GB_APT/parts" \
    -o "Dir::State::Lists=$GB_APT/lists" -o "Dir::Cache=$GB_APT/cache" "$@"
}

# gb_index: refresh the private Sources index (under a lock, at most every 6
# hours). Returns 1 when no index could be had.
gb_index() {
  local log=$GB_CACHE/apt/update.log stamp=$GB_CACHE/apt/updated
  mkdir -p "$GB_APT/lists/partial" "$GB_APT/cache/archives/partial"
  (
    flock 9
    if [ "${GB_HARNESS_REFRESH:-0}" = 1 ] || [ -z "$(find "$stamp" -mmin -360 2>/dev/null)" ]; then
      gb_sources "$GB_APT" || exit 3
      gb_apt update >"$log" 2>&1 || true
      ls "$GB_APT"/lists/*_Sources* >/dev/null 2>&1 && touch "$stamp"
    fi
    ls "$GB_APT"/lists/*_Sources* >/dev/null 2>&1
  ) 9>"$GB_CACHE/apt.lock"
}

# gb_versions: the package's versions in the index, newest first (Debian's
# security pool may lag its index, so callers try each).
gb_versions() {
  gb_apt_cache showsrc "$PKG" 2>/dev/null | sed -n 's/^Version: //p' | sort -u -r -V
}

# gb_fetch VERSION DIR: download and unpack PKG=VERSION into DIR/src.
# Returns 1 when this version cannot be downloaded.
gb_fetch() {
  local dl=$2/dl log=$2/logs/fetch.log
  rm -rf "$dl" "$2/src" "$2/src.tmp"
  mkdir -p "$dl" "$2/logs"
  (cd "$dl" && gb_apt source --download-only "$PKG=$1") >"$log" 2>&1 || return 1
  if command -v dpkg-source >/dev/null; then
    gb_step "dpkg-source -x" "$log" dpkg-source -x "$(ls "$dl"/*.dsc | head -1)" "$2/src.tmp"
  else
    mkdir -p "$2/src.tmp"
    gb_step "tar (orig tarball)" "$log" tar -xf "$(ls "$dl"/*.orig.tar.* | head -1)" \
      -C "$2/src.tmp" --strip-components=1
  fi
  touch "$2/src.tmp/.gb-unpacked"
  mv "$2/src.tmp" "$2/src"
  rm -rf "$dl" "$2"/*.orig.tar.* # dpkg-source leaves a copy beside src/
}

# gb_pick: sets GB_VER and GB_DIR to a version whose source is unpacked in
# the cache, fetching the newest downloadable one; offline, the newest one
# already cached.
gb_pick() {
  local full v
  if gb_index; then
    for full in $(gb_versions); do
      v=${full#[0-9]*:} # the epoch: not in file names
      GB_VER=$v GB_DIR=$GB_CACHE/$LIB-$v
      [ -f "$GB_DIR/src/.gb-unpacked" ] && return 0
      # A version the archive did not serve (404) is tried again after 6 hours.
      [ -n "$(find "$GB_DIR/.unavailable" -mmin -360 2>/dev/null)" ] && continue
      mkdir -p "$GB_DIR"
      if (flock 9 && { [ -f "$GB_DIR/src/.gb-unpacked" ] || gb_fetch "$full" "$GB_DIR"; }) 9>"$GB_DIR/.lock"; then
        return 0
      fi
      # Only a version the archive lacks; a network failure is retried.
      grep -q ' 404 ' "$GB_DIR/logs/fetch.log" 2>/dev/null && touch "$GB_DIR/.unavailable"
      echo "$LIB fetch-build: $PKG $v could not be downloaded (see $GB_DIR/logs/fetch.log), trying an older one" >&2
    done
  fi
  GB_DIR=$(ls -d "$GB_CACHE/$LIB"-*/src/.gb-unpacked 2>/dev/null | sort -V | tail -1 || true)
  [ -n "$GB_DIR" ] || gb_skip "Debian archive unreachable or $PKG not downloadable (see $GB_CACHE/apt/update.log) and nothing cached"
  GB_DIR=${GB_DIR%/src/.gb-unpacked}
  GB_VER=${GB_DIR##*/$LIB-}
  echo "$LIB fetch-build: archive unreachable, using the cached $PKG $GB_VER" >&2
}

# gb_kind_setup KIND: the compiler, flags and environment of a build kind,
# in GB_CC, GB_CFLAGS, GB_ENV (array), GB_LINK (array, harness link command)
# and GB_TAIL (objects after the harness). Every kind -includes
# gb_checked.h, which undefines FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION:
# afl-clang-fast defines it, and some libraries then skip their checksums.
gb_kind_setup() {
  local checked="-include $GB_ROOT/harnesses/lib/gb_checked.h"
  GB_ENV=() GB_TAIL=()
  case $1 in
  trace | cov)
    GB_CC=$GB_BIN/glassbox-cc GB_CFLAGS="-O2 -g $checked" GB_ENV=(GLASSBOX_MODE="$1")
    [ "$1" = trace ] && GB_CFLAGS+=" ${TRACE_CFLAGS:-}"
    GB_LINK=("$GB_BIN/glassbox-cc" "--mode=$1" -O2 -g) ;;
  afl | cmplog | edge)
    # edge: afl's compiler and flags, built apart so that the binary
    # bench/run measures edges on is one no fuzzer ran.
    GB_CC=afl-clang-fast GB_CFLAGS="-O2 -g $checked" GB_ENV=(AFL_QUIET=1)
    [ "$1" = cmplog ] && GB_ENV+=(AFL_LLVM_CMPLOG=1)
    GB_LINK=(afl-clang-fast -O2 -g -fsanitize=fuzzer) ;;
  llvmcov)
    # Source-based coverage; lib/gb_runfiles.c runs a corpus through it.
    local prof="-fprofile-instr-generate -fcoverage-mapping"
    GB_CC=clang-14 GB_CFLAGS="-O1 -g $prof $checked"
    GB_LINK=(clang-14 -O1 -g $prof) GB_TAIL=("$GB_ROOT/harnesses/lib/gb_runfiles.c") ;;
  asan)
    GB_CC=clang-14 GB_CFLAGS="-O1 -g -fsanitize=address,undefined $checked"
    GB_LINK=(clang-14 -O1 -g -fsanitize=address,undefined) GB_TAIL=("$GB_BIN/../lib/libgb_rt_cov.a") ;;
  lf)
    GB_CC=clang-14 GB_CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address $checked"
    GB_LINK=(clang-14 -O1 -g -fsanitize=fuzzer,address) ;;
  plain)
    GB_CC=clang-14 GB_CFLAGS="-O2 -g $checked" GB_LINK=(clang-14 -O2 -g) ;;
  *) gb_die "unknown build kind '$1' (known: $GB_ALL_KINDS plain $GB_MEASURE_KINDS)" ;;
  esac
}

# gb_tracer_src: the source tree glassbox-cc in GB_BIN was built from (its
# build dir's CMakeCache.txt says), else this one. A GB_BIN of another
# checkout (an older commit, for a before/after) keyed by this tree's
# sources would share, and reuse, builds its glassbox-cc never made.
gb_tracer_src() {
  local src
  src=$(sed -n 's|^CMAKE_HOME_DIRECTORY:INTERNAL=||p' "$GB_BIN/../CMakeCache.txt" 2>/dev/null || true)
  if [ -n "$src" ] && [ -d "$src/tracer/cc" ]; then echo "$src"; else echo "$GB_ROOT"; fi
}

# gb_tool_id KIND: what identifies the compiler of KIND for the cache key.
gb_tool_id() {
  case $1 in
  trace | cov)
    local src
    src=$(gb_tracer_src)
    cat "$src"/tracer/cc/* "$src"/tracer/*.h 2>/dev/null | sha256sum ;;
  afl | cmplog | edge) dpkg-query -W -f='${Version}' afl++ 2>/dev/null; clang-14 --version | head -1 ;;
  *) clang-14 --version | head -1 ;;
  esac
}

# gb_run_lib_build DIR LOG: lib_build in DIR with CC, CFLAGS, JOBS, LOG
# and GB_ENV exported, its output appended to LOG; its status. It runs in
# a bash process of its own with errexit and pipefail: inside "||" or an
# "if", bash ignores set -e even in subshells, so a failing step of
# lib_build (a ./configure, expat's XML_DTD guard) went unnoticed
# (tests/harnesses/debsrc_errexit.sh).
gb_run_lib_build() {
  (
    cd "$1" || exit 1
    export CC=$GB_CC CFLAGS=$GB_CFLAGS JOBS=${GB_HARNESS_JOBS:-2} LOG=$2
    for e in "${GB_ENV[@]}"; do export "${e?}"; done
    exec bash -c "$(declare -f lib_build)"$'\nset -euo pipefail\nlib_build'
  ) >>"$2" 2>&1
}

# gb_build KIND: the cached build tree of KIND, built when missing.
gb_build() {
  local k=$1 key d log
  gb_kind_setup "$k"
  # The key leaves out where the clone is, so every clone (CI's fresh one
  # too) shares the builds.
  key=$( { echo "$k ${GB_CC##*/} ${GB_CFLAGS//"$GB_ROOT"/ROOT} ${GB_ENV[*]}"; declare -f lib_build
           cat "$GB_ROOT/harnesses/lib/gb_checked.h"; gb_tool_id "$k"; } | sha256sum | cut -c1-12)
  d=$GB_DIR/$k-$key
  log=$GB_DIR/logs/$k-$key.log
  GB_TREE=$d
  ln -sfn "$d" "$GB_OUT/$k"
  # .gb-used's age says when a clone last wanted this build (pruning).
  [ -f "$d/.gb-built" ] && { touch "$d/.gb-used" 2>/dev/null || true; return 0; }
  (
    flock 9
    [ -f "$d/.gb-built" ] && exit 0
    rm -rf "$d"
    cp -a "$GB_DIR/src/${SRC_SUBDIR:-.}" "$d"
    : >"$log"
    gb_run_lib_build "$d" "$log" ||
      { rm -rf "$d"; gb_die "$k build of $PKG $GB_VER failed, see $log"; }
    touch "$d/.gb-built" "$d/.gb-used"
    # Builds with another key (a changed recipe or tracer) go once no clone
    # has used them for 3 days: clones at different commits (a branch, CI's
    # fresh clone) share the cache and must not delete each other's builds.
    find "$GB_DIR" -maxdepth 1 -name "$k-*" ! -name "$k-$key" -type d \
      ! -newermt "3 days ago" -exec sh -c '[ ! -e "$1/.gb-used" ] || [ -z "$(find "$1/.gb-used" -mmin -4320)" ]' _ {} \; \
      -exec rm -rf {} +
  ) 9>"$GB_DIR/.lock"
}

# gb_link KIND: after gb_build KIND, every harness of HARNESSES linked
# against KIND's build, relinked only when older than its source, the
# library or the compiler, or linked another way.
gb_link() {
  local k=$1 h name file extra out log args cmd t fresh
  gb_kind_setup "$k"
  GB_KIND=$k
  args=$(lib_link_args "$GB_TREE")
  for h in "${HARNESSES[@]}"; do
    IFS=: read -r name file extra <<<"$h"
    out=$GB_OUT/$name.$k
    log=$GB_OUT/logs/$name.$k.log
    cmd="${GB_ENV[*]} ${GB_LINK[*]} $extra $args ${GB_TAIL[*]}"
    fresh=1
    for t in "${GB_TAIL[@]}"; do [ "$out" -nt "$t" ] || fresh=0; done
    if [ "$fresh" = 1 ] && [ -f "$out" ] && [ "$out" -nt "$GB_HERE/$file" ] && [ "$out" -nt "$GB_OUT/$k/.gb-built" ] &&
       [ "$cmd" = "$(cat "$log.cmd" 2>/dev/null)" ] &&
       { [ "$k" != trace ] && [ "$k" != cov ] || [ "$out" -nt "$GB_BIN/glassbox-cc" ]; }; then
      continue
    fi
    echo "$cmd" >"$log.cmd"
    : >"$log"
    # shellcheck disable=SC2086 # extra and args are word lists
    gb_step "$name.$k" "$log" env "${GB_ENV[@]}" "${GB_LINK[@]}" $extra -I"$GB_HERE" \
      "$GB_HERE/$file" $args "${GB_TAIL[@]}" -o "$out"
  done
}

# gb_seeds: OUT_DIR/seeds/HARNESS/, remade every run (a few ms): by the
# library's folder's mkseeds.c, linked against the asan build (the
# library's own encoder, checked by ASan on the way), or by its mkseeds.sh
# (text formats).
gb_seeds() {
  local log=$GB_OUT/logs/mkseeds.log
  rm -rf "$GB_OUT/seeds"
  mkdir -p "$GB_OUT/seeds"
  : >"$log"
  if [ -f "$GB_HERE/mkseeds.c" ]; then
    [ -d "$GB_OUT/asan" ] || gb_die "mkseeds.c needs the asan kind in KINDS"
    GB_KIND=asan
    # shellcheck disable=SC2086 # the link arguments are a word list
    gb_step "mkseeds (compile)" "$log" clang-14 -O1 -g -fsanitize=address,undefined \
      "$GB_HERE/mkseeds.c" $(lib_link_args "$(cd "$GB_OUT/asan" && pwd -P)") -o "$GB_OUT/mkseeds"
    gb_step "mkseeds" "$log" env ASAN_OPTIONS=detect_leaks=0 "$GB_OUT/mkseeds" "$GB_OUT/seeds"
  fi
  if [ -f "$GB_HERE/mkseeds.sh" ]; then
    gb_step "mkseeds.sh" "$log" bash "$GB_HERE/mkseeds.sh" "$GB_OUT/seeds"
  fi
}

gb_debsrc_main() {
  [ $# -eq 2 ] || { echo "usage: $0 OUT_DIR BUILD_BIN_DIR" >&2; exit 2; }
  [ -x "$2/glassbox-cc" ] || gb_die "no glassbox-cc in $2 (build Glassbox first: scripts/build)"
  command -v flock >/dev/null || gb_die "flock (util-linux) is needed"
  mkdir -p "$1/logs"
  GB_OUT=$(cd "$1" && pwd)
  GB_BIN=$(cd "$2" && pwd)
  GB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  GB_HERE=$(cd "$(dirname "$0")" && pwd)
  GB_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/glassbox
  GB_APT=$GB_CACHE/apt
  mkdir -p "$GB_CACHE/apt"
  gb_pick
  local k
  for k in ${KINDS:-$GB_ALL_KINDS} ${GB_EXTRA_KINDS:-}; do
    gb_build "$k"
    [ "$k" = plain ] || gb_link "$k" # plain: the library's own tools only

  done
  gb_seeds
  echo "$PKG $GB_VER" >"$GB_OUT/VERSION"
}
