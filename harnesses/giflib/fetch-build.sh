#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# giflib from its Debian source package, built with giflib's own Makefile
# (as Debian's dh does), target libgif.a only, once per build kind
# (harnesses/lib/debsrc.sh). The Makefile assigns CFLAGS itself, so the
# kind's flags go on make's command line after giflib's own.
# Usage: fetch-build.sh OUT_DIR BUILD_BIN_DIR
# Exit 77 when the Debian archive cannot be reached and nothing is cached.
set -euo pipefail
LIB=giflib PKG=giflib
HARNESSES=(gif_slurp:slurp_fuzz.c)

lib_build() { make -j"$JOBS" CC="$CC" CFLAGS="-std=gnu99 -fPIC -Wall $CFLAGS" libgif.a; }
lib_link_args() { echo "-I$1 $1/libgif.a"; }

. "$(dirname "$0")/../lib/debsrc.sh"
gb_debsrc_main "$@"
