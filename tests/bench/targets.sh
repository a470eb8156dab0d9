#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.targets (issue 35): bench/run finds its parser targets by
# convention, so a user's library joins without an edit: a folder of
# BENCH_HARNESSES holding LIB/fetch-build.sh adds its plain HARNESSES
# entries to the default targets (variants only when named), and the
# repository's own parsers are all there.
set -euo pipefail
BUILD=$(cd "$1" && pwd) SRC=$(cd "$2" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-bench-targets.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL bench.targets: $*" >&2; exit 1; }
mkdir -p "$W/mine/mylib"
cat >"$W/mine/mylib/fetch-build.sh" <<'SH'
LIB=mylib PKG=mylib
HARNESSES=(my_parse:parse.c my_parse_nocheck:parse.c:-DNOCHECK=1)
SH
list=$(GB_BUILD_DIR=$BUILD "$SRC/bench/run" --list) || fail "bench/run --list failed"
mine=$(GB_BUILD_DIR=$BUILD BENCH_HARNESSES="$W/mine" "$SRC/bench/run" --list) ||
  fail "bench/run --list with BENCH_HARNESSES failed"
for t in zlib_inflate zlib_gzip lz4_frame cjson_parse expat_parse png_read gif_slurp spng_decode demo; do
  grep -qx "$t" <<<"$list" || fail "$t is not a default target"
done
grep -qx png_read_nocheck <<<"$list" && fail "a variant is a default target"
grep -qx my_parse <<<"$list" && fail "my_parse found without BENCH_HARNESSES"
grep -qx my_parse <<<"$mine" || fail "a BENCH_HARNESSES library's harness is not a target"
grep -qx my_parse_nocheck <<<"$mine" && fail "its variant is a default target"
named=$(GB_BUILD_DIR=$BUILD "$SRC/bench/run" --list --targets my_parse_nocheck,zlib_gzip)
[ "$(echo $named)" = "my_parse_nocheck zlib_gzip" ] || fail "--targets not listed as given: $named"
echo "PASS bench.targets: $(wc -l <<<"$mine") targets, my_parse among them"
