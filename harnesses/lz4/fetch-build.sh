#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lz4 from its Debian source package: only lib/'s liblz4.a, made by lz4's own
# lib/Makefile once per build kind (harnesses/lib/debsrc.sh), with the frame
# harness linked twice: lz4_frame verifies every checksum the frame carries,
# lz4_frame_nocheck skips the content and block checksums (skipChecksums).
# Usage: fetch-build.sh OUT_DIR BUILD_BIN_DIR
# Exit 77 when the Debian archive cannot be reached and nothing is cached.
set -euo pipefail
LIB=lz4 PKG=lz4

# lz4's always_inline compressors take glassbox-cc 150 s to instrument (the
# harness never runs them); as plain static functions, 10 s.
TRACE_CFLAGS="-DLZ4_FORCE_INLINE=static -fno-inline-functions"
HARNESSES=(lz4_frame:frame_fuzz.c lz4_frame_nocheck:frame_fuzz.c:-DGB_LZ4_SKIP_CHECKSUMS=1)

# The static library only: lz4's programs and tests are not needed.
lib_build() { make -C lib -j"$JOBS" liblz4.a; }
lib_link_args() { echo "-I$1/lib $1/lib/liblz4.a"; }

. "$(dirname "$0")/../lib/debsrc.sh"
gb_debsrc_main "$@"
