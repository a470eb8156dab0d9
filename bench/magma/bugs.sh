#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Magma's measure of one campaign: replays every input a sync dir kept
# (each instance's queue/ and crashes/, libFuzzer's crashes) on the canary
# replay build NAME.plain of bench/magma/build.sh with GB_MAGMA_LOG set, and
# prints per bug of the target whether its site was reached, whether it was
# triggered, and when first: the oldest triggering file's mtime minus the
# campaign's start (the earliest start_time of the instances' fuzzer_stats,
# or --start). A trigger counts only when the replay confirms it, on the
# harness the campaign ran (--name NAME; needed when the build holds more).
#   bench/magma/bugs.sh BUILD_DIR SYNC_DIR [--name NAME] [--start UNIX_S] [-o TSV]
# Output (stdout, or TSV): a header, then "bug reached triggered
# first_trigger_s trigger_files first_file" per bug (every bug patch of the
# build, reached or not; first_trigger_s and first_file NA when not
# triggered), then on stderr a summary and the crashes that triggered no
# canary (another bug, or a harness limit).
set -euo pipefail

die() { echo "bench/magma/bugs.sh: $*" >&2; exit 2; }
# shellcheck source=bench/magma/harness.sh
. "$(dirname "$0")/harness.sh"
[ $# -ge 2 ] || die "usage: bench/magma/bugs.sh BUILD_DIR SYNC_DIR [--name NAME] [--start UNIX_S] [-o TSV]"
BUILD=$1 SYNC=$2 START="" OUT="" NAME=""
shift 2
while [ $# -gt 0 ]; do
  case $1 in
  --name) [ $# -ge 2 ] || die "--name needs a harness name"; NAME=$2; shift ;;
  --start) [[ ${2:-} =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--start needs Unix seconds"; START=$2; shift ;;
  -o) [ $# -ge 2 ] || die "-o needs a file"; OUT=$2; shift ;;
  *) die "unknown argument '$1'" ;;
  esac
  shift
done
NAME=$(magma_harness "$BUILD" "$NAME")
REPLAY=$BUILD/$NAME.plain
[ -d "$SYNC" ] || die "no sync dir $SYNC"

# The campaign's start: the earliest instance's.
if [ -z "$START" ]; then
  START=$(cat "$SYNC"/*/fuzzer_stats 2>/dev/null | sed -n 's/^start_time *: *\([0-9][0-9]*\).*/\1/p' | sort -n | head -1)
  [ -n "$START" ] || die "no start_time in $SYNC/*/fuzzer_stats: give --start"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# "MTIME PATH" of every input kept
{
  find "$SYNC" -mindepth 3 -maxdepth 3 \( -path '*/queue/id:*' -o -path '*/crashes/id:*' \) -type f -printf '%T@ %p\n'
  find "$SYNC/libfuzzer-crashes" -maxdepth 1 -type f -name 'crash-*' -printf '%T@ %p\n' 2>/dev/null || true
} >"$work/files"
[ -s "$work/files" ] || die "no queue or crash files in $SYNC"
cut -d' ' -f2- "$work/files" | tr '\n' '\0' |
  GB_MAGMA_LOG="$work/log" xargs -0 -r -n 500 "$REPLAY" >/dev/null 2>&1 || true
ls "$BUILD"/magma-files/patches/bugs/*.patch 2>/dev/null | sed 's|.*/||; s|\.patch$||' >"$work/bugs" || true

# files first (mtimes), then the bug list, then the replay's log
awk -v start="$START" -v out="${OUT:-/dev/stdout}" '
  FILENAME == ARGV[1] { p = substr($0, index($0, " ") + 1); mt[p] = $1; next }
  FILENAME == ARGV[2] { known[$1] = 1; next }
  $1 == "file" { cur = substr($0, 6); hit = 0; crash = (cur ~ /\/crashes\/|\/crash-/); ncrash += crash; next }
  $1 == "reached" { reached[$2] = 1; known[$2] = 1; next }
  $1 == "triggered" {
    hit = 1; known[$2] = 1; trig[$2]++; t = mt[cur] - start; if (t < 0) t = 0
    if (!($2 in first) || t < first[$2]) { first[$2] = t; ffile[$2] = cur }
    next
  }
  $1 == "end" { if (crash && !hit) nocan[++other] = cur " (" substr($0, 5) ")" }
  END {
    print "bug\treached\ttriggered\tfirst_trigger_s\ttrigger_files\tfirst_file" > out
    n = 0; for (b in known) names[++n] = b
    for (i = 2; i <= n; i++) { v = names[i]; for (j = i - 1; j >= 1 && names[j] > v; j--) names[j + 1] = names[j]; names[j + 1] = v }
    for (i = 1; i <= n; i++) {
      b = names[i]
      nr += (b in reached); nt += (b in trig)
      printf "%s\t%s\t%s\t%s\t%d\t%s\n", b, (b in reached) ? "yes" : "no", (b in trig) ? "yes" : "no",
        (b in first) ? sprintf("%.1f", first[b]) : "NA", (b in trig) ? trig[b] : 0, (b in ffile) ? ffile[b] : "NA" > out
    }
    close(out)
    for (i = 1; i <= other; i++) print "bench/magma/bugs.sh: no canary: " nocan[i] > "/dev/stderr"
    printf "bench/magma/bugs.sh: %d bugs, %d reached, %d triggered; %d crash files, %d with no canary\n",
      n, nr, nt, ncrash, other > "/dev/stderr"
  }' "$work/files" "$work/bugs" "$work/log"
