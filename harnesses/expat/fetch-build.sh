#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Expat from its Debian source package, built with expat's own CMake, static
# and without its tools, examples, tests and docs, once per build kind
# (harnesses/lib/debsrc.sh); only the expat target is made. Debian builds
# with autotools after autoreconf (its tree is upstream's git tag, with no
# generated configure), which would need autoconf, automake and libtool;
# CMake gives the same library once XML_DTD and XML_NS are defined to 1 as
# configure defines them (Debian's security patches test "XML_DTD == 1").
# Usage: fetch-build.sh OUT_DIR BUILD_BIN_DIR
# Exit 77 when the Debian archive cannot be reached and nothing is cached.
set -euo pipefail
LIB=expat PKG=expat
HARNESSES=(expat_parse:parse_fuzz.c)
SRC_SUBDIR=expat # the library; the rest of the tree is test data

lib_build() {
  cmake -S . -B gb -DEXPAT_SHARED_LIBS=OFF -DEXPAT_BUILD_TOOLS=OFF -DEXPAT_BUILD_EXAMPLES=OFF \
    -DEXPAT_BUILD_TESTS=OFF -DEXPAT_BUILD_DOCS=OFF -DEXPAT_BUILD_PKGCONFIG=OFF \
    -DEXPAT_ENABLE_INSTALL=OFF -DCMAKE_BUILD_TYPE=None
  sed -i -e 's/^#define XML_DTD$/#define XML_DTD 1/' -e 's/^#define XML_NS$/#define XML_NS 1/' gb/expat_config.h
  grep -q '^#define XML_DTD 1$' gb/expat_config.h
  cmake --build gb --target expat -j "$JOBS"
}
lib_link_args() { echo "-I$1/lib $(ls "$1"/gb/libexpat*.a | head -1)"; }

. "$(dirname "$0")/../lib/debsrc.sh"
gb_debsrc_main "$@"
