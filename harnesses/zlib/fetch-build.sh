#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# zlib from its Debian source package, built by its own ./configure --static
# && make once per build kind (harnesses/lib/debsrc.sh: fetch, cache, kinds),
# with the inflate and gzip harnesses linked against each libz.a.
# Usage: fetch-build.sh OUT_DIR BUILD_BIN_DIR
# Exit 77 when the Debian archive cannot be reached and nothing is cached.
set -euo pipefail
LIB=zlib PKG=zlib
KINDS="trace cov afl cmplog asan lf plain"
HARNESSES=(zlib_inflate:inflate_fuzz.c zlib_gzip:gzip_fuzz.c)

# minigzip too: tests/e2e/zlib.sh round-trips a file through it.
lib_build() {
  ./configure --static
  make -j"$JOBS" libz.a minigzip
}
lib_link_args() { echo "-I$1 $1/libz.a"; }

. "$(dirname "$0")/../lib/debsrc.sh"
gb_debsrc_main "$@"
