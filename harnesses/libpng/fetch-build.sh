#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# libpng from its Debian source package (libpng1.6), built by its own
# ./configure (static, no SIMD filters: the tracer follows scalar code) and
# make, library target only, once per build kind (harnesses/lib/debsrc.sh).
# zlib is harnesses/zlib's build of the same kind (OUT_DIR/zlib, from its
# cache): with the system's uninstrumented libz, the tracer loses the
# input's bytes at the first chunk's crc32 call. The read harness is linked twice:
# png_read (CRCs and Adler-32 checked) and png_read_nocheck (both ignored,
# as libpng's upstream fuzzer does).
# Usage: fetch-build.sh OUT_DIR BUILD_BIN_DIR
# Exit 77 when the Debian archive cannot be reached and nothing is cached.
set -euo pipefail
LIB=libpng PKG=libpng1.6

HARNESSES=(png_read:read_fuzz.c png_read_nocheck:read_fuzz.c:-DGB_PNG_NOCHECK=1)

lib_build() {
  ./configure --disable-shared --enable-static --disable-hardware-optimizations
  make pnglibconf.h
  make -j"$JOBS" libpng16.la
}
lib_link_args() { echo "-I$1 $1/.libs/libpng16.a $GB_OUT/zlib/$GB_KIND/libz.a -lm"; }

[ $# -eq 2 ] && { "$(dirname "$0")/../zlib/fetch-build.sh" "$1/zlib" "$2" || exit $?; }
. "$(dirname "$0")/../lib/debsrc.sh"
gb_debsrc_main "$@"
