#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# When each input of a sync dir was found: "UNIX_SECONDS PATH", one line
# per file of every instance's queue/ and crashes/. A file's time is its
# mtime, except for an AFL++ queue entry, which AFL++ rewrites when it
# trims it (so its mtime can be minutes late): there it is the earlier of
# its mtime and its instance's start_time (fuzzer_stats) plus the entry's
# time: field (milliseconds since that start). bench/run's checkpoints
# read this.
#   bench/found.sh SYNC_DIR
set -euo pipefail
die() { echo "bench/found.sh: $*" >&2; exit 2; }
[ $# = 1 ] || die "usage: bench/found.sh SYNC_DIR"
[ -d "$1" ] || die "$1: no such directory"
# Each instance's start, as "NAME SECONDS" (a name is one path component;
# one with a space or a line break is skipped, its files keep their mtime).
starts=$(for f in "$1"/*/fuzzer_stats; do
  [ -f "$f" ] || continue
  n=$(basename "$(dirname "$f")")
  case $n in *[[:space:]]*) continue ;; esac
  s=$(sed -n 's/^start_time *: *\([0-9][0-9]*\) *$/\1/p' "$f" | head -1)
  [ -z "$s" ] || echo "$n $s"
done)
find "$1" -mindepth 3 -maxdepth 3 \( -path '*/queue/id:*' -o -path '*/crashes/id:*' \) -type f \
  ! -name $'*\n*' -printf '%T@ %p\n' |
  awk -v starts="$starts" '
  BEGIN {
    n = split(starts, l, "\n")
    for (i = 1; i <= n; i++) if (split(l[i], a, " ") == 2) st[a[1]] = a[2]
  }
  {
    t = $1; p = substr($0, index($0, " ") + 1)
    m = split(p, c, "/")
    if (m >= 3 && c[m - 1] == "queue" && (c[m - 2] in st) && match(c[m], /,time:[0-9]+/)) {
      s = st[c[m - 2]] + substr(c[m], RSTART + 6, RLENGTH - 6) / 1000
      if (s < t) t = s
    }
    printf "%.3f %s\n", t, p
  }'
