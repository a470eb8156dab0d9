# SPDX-License-Identifier: Apache-2.0
# Shared helpers for the end-to-end tests. Each test script gets:
#   $1 = build dir (bin/ and harnesses/ inside), $2 = source dir.
set -euo pipefail
BUILD=$1
SRC=$2
BIN=$BUILD/bin
H=$BUILD/harnesses
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gb-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "PASS: $*"; }

# stat_of FILE KEY: the value of KEY in a fuzzer_stats file.
stat_of() { sed -n "s/^$2 *: //p" "$1"; }

# expect_eq WHAT GOT WANT
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; }

# replay_crashes DIR BINARY: every crash file must still crash BINARY.
replay_crashes() {
  local n=0 f
  for f in "$1"/id:*; do
    [ -e "$f" ] || continue
    n=$((n + 1))
    if "$2" "$f" >/dev/null 2>&1; then fail "crash $f does not crash $2 on replay"; fi
  done
  [ "$n" -gt 0 ] || fail "no crash files in $1"
}

# sanitized_build: 0 in a build of scripts/test --sanitize (no conformance
# programs there; tests/CMakeLists.txt).
sanitized_build() { grep -q '^GB_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt"; }

# as_target CMD...: runs CMD without the sanitizer options scripts/test
# --sanitize sets for Glassbox itself (symbolize=0 would strip the stacks
# a target's own ASan build prints).
as_target() { env -u ASAN_OPTIONS -u UBSAN_OPTIONS -u LSAN_OPTIONS "$@"; }

# count_ids DIR [SUBSTRING]: how many id:* files DIR holds (0 if none).
# finished_expansions WORKER_DIR: the journal's "q ID" / "c ID" lines, one
# per finished expansion (its "Q ID", "C ID" and "x" records bracket each
# expansion: docs/campaign.md).
finished_expansions() { grep -E '^[qc] ' "$1/.expanded" 2>/dev/null || true; }
# twice_expanded WORKER_DIR: the finished expansions listed more than once.
twice_expanded() { finished_expansions "$1" | sort | uniq -d; }
count_ids() { { find "$1" -maxdepth 1 -name "id:*${2:-}*" 2>/dev/null || true; } | wc -l; }
