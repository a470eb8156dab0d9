#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cJSON from its Debian source package (cjson), built as Debian does with its
# own CMake, static and without tests or the project's -Werror flag set, once
# per build kind (harnesses/lib/debsrc.sh); only the cjson target is made.
# Usage: fetch-build.sh OUT_DIR BUILD_BIN_DIR
# Exit 77 when the Debian archive cannot be reached and nothing is cached.
set -euo pipefail
LIB=cjson PKG=cjson
HARNESSES=(cjson_parse:parse_fuzz.c)

# CC and CFLAGS come from the environment (CMake reads both on the first
# configure).
lib_build() {
  cmake -S . -B gb -DBUILD_SHARED_LIBS=OFF -DENABLE_CJSON_TEST=OFF \
    -DENABLE_CUSTOM_COMPILER_FLAGS=OFF -DENABLE_TARGET_EXPORT=OFF -DCMAKE_BUILD_TYPE=None
  cmake --build gb --target cjson -j "$JOBS"
}
lib_link_args() { echo "-I$1 $1/gb/libcjson.a"; }

. "$(dirname "$0")/../lib/debsrc.sh"
gb_debsrc_main "$@"
