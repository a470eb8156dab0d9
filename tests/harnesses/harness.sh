#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One Debian-source library's harnesses on every build kind:
#   harness.sh BUILD_DIR SOURCE_DIR LIB_DIR
# LIB_DIR holds fetch-build.sh (harnesses/lib/debsrc.sh's convention);
# every HARNESSES entry without extra flags gets the 20-second fuzz of
# gb_harness_check, the variants only the seed and trace checks.
. "$2/tests/harnesses/lib.sh"
dir=$3
line=$(sed -n 's/^HARNESSES=(\(.*\))[[:space:]]*$/\1/p' "$dir/fetch-build.sh" | head -1)
fuzzed=()
for e in $line; do
  IFS=: read -r name file extra <<<"$e"
  [ -n "$extra" ] || fuzzed+=("$name")
done
[ ${#fuzzed[@]} -gt 0 ] || fail "$dir/fetch-build.sh lists no HARNESSES"
gb_harness_check "$dir" "${fuzzed[@]}"
