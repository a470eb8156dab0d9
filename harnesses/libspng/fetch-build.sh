#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# libspng from its Debian source package, built with libspng's own CMake
# (static, no examples, ENABLE_OPT off: the tracer follows scalar code),
# target spng_static only, once per build kind (harnesses/lib/debsrc.sh).
# Debian builds it with meson, which Glassbox does not install; the CMake
# build compiles the same spng.c. zlib is harnesses/zlib's build of the
# same kind. The decode harness is linked twice: spng_decode (CRCs and
# Adler-32 checked) and spng_decode_nocheck (SPNG_CRC_USE for every chunk,
# SPNG_CTX_IGNORE_ADLER32).
# Usage: fetch-build.sh OUT_DIR BUILD_BIN_DIR
# Exit 77 when the Debian archive cannot be reached and nothing is cached.
set -euo pipefail
LIB=libspng PKG=libspng
HARNESSES=(spng_decode:decode_fuzz.c spng_decode_nocheck:decode_fuzz.c:-DGB_SPNG_NOCHECK=1)

# SPNG_SHARED stays on: 0.7.3's CMakeLists fails to configure without the
# shared target (it sets include directories on it); only spng_static is made.
lib_build() {
  cmake -S . -B gb -DSPNG_SHARED=ON -DSPNG_STATIC=ON -DBUILD_EXAMPLES=OFF -DENABLE_OPT=OFF \
    -DCMAKE_BUILD_TYPE=None
  cmake --build gb --target spng_static -j "$JOBS"
}
lib_link_args() {
  echo "-DSPNG_STATIC -I$1/spng $(ls "$1"/gb/libspng*.a | head -1) $GB_OUT/zlib/$GB_KIND/libz.a -lm"
}

[ $# -eq 2 ] && { "$(dirname "$0")/../zlib/fetch-build.sh" "$1/zlib" "$2" || exit $?; }
. "$(dirname "$0")/../lib/debsrc.sh"
gb_debsrc_main "$@"
