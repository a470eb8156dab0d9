#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cache key of a trace or cov build names the tracer that made it: the
# sources of the tree GB_BIN's glassbox-cc was built from, not this
# tree's. Keyed by this tree's, a before/after with an older checkout's
# --bin built the library once with the old tracer and then reused it for
# the new one (session 40).
# shellcheck disable=SC2034 # GB_ROOT and GB_BIN are read by the sourced gb_tool_id
set -euo pipefail
. "$(dirname "$0")/../../harnesses/lib/debsrc.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
for t in a b; do
  mkdir -p "$work/$t/tracer/cc" "$work/$t/build/bin"
  echo "instrument $t" >"$work/$t/tracer/cc/instrument.c"
  echo "abi $t" >"$work/$t/tracer/gb_abi.h"
done
echo "CMAKE_HOME_DIRECTORY:INTERNAL=$work/b" >"$work/b/build/CMakeCache.txt"
GB_ROOT=$work/a
GB_BIN=$work/a/build/bin
id_a=$(gb_tool_id trace)
GB_BIN=$work/b/build/bin
id_b=$(gb_tool_id trace)
[ "$id_a" != "$id_b" ] || fail "a glassbox-cc built from another tree got this tree's key"
[ "$(gb_tool_id cov)" = "$id_b" ] || fail "cov and trace keyed differently"
# The key follows the other tree's sources, and only those.
echo "instrument b, changed" >"$work/b/tracer/cc/instrument.c"
[ "$(gb_tool_id trace)" != "$id_b" ] || fail "a change in GB_BIN's tree left its key as it was"
echo "instrument a, changed" >"$work/a/tracer/cc/instrument.c"
GB_BIN=$work/a/build/bin
[ "$(gb_tool_id trace)" != "$id_a" ] || fail "without a CMakeCache.txt this tree's sources are not the key"
echo "PASS: debsrc.sh: trace and cov builds are keyed by their own tracer's sources"
