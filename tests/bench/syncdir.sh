# SPDX-License-Identifier: Apache-2.0
# Sourced by the bench tests that need a made-up sync dir (bench.found,
# bench.lineage): a work dir W removed at exit, the sync dir S in it, a
# base time T0, and helpers to fill S. Needs fail() defined first.
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-syncdir.XXXXXX")
trap 'rm -rf "$W"' EXIT
S=$W/sync T0=1000000000
mk() { # mk INSTANCE/DIR NAME SECONDS_AFTER_T0: a file with that mtime
  mkdir -p "$S/$1"
  echo x >"$S/$1/$2"
  touch -d "@$((T0 + $3))" "$S/$1/$2"
}
stats() { # stats INSTANCE START_UNIX_S [worker]: its fuzzer_stats
  mkdir -p "$S/$1"
  { echo "start_time        : $2"; [ -z "${3:-}" ] || echo "traces_done       : 5"; } >"$S/$1/fuzzer_stats"
}
