#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What each of two rules for saving crashes keeps of a real crash pile:
# one crash per distinct set of covered edges (the Glassbox worker's rule
# until session 33, by blocks), and AFL++'s (and now the worker's): one
# only when it covers an (edge, hit-count bucket) pair no earlier crash
# covered. This replays a sync dir's crash files in
# the order they were saved (mtime) as one stream, labels each with the bug
# whose canary it triggers (NAME.plain, GB_MAGMA_LOG), maps it on NAME.edge
# (afl-showmap), and prints per bug how many files each rule keeps and when
# the first kept one came: the measure of whether the coarser rule would
# lose a bug behind a flood of another's crashes.
#   bench/magma/crashrule.sh BUILD_DIR SYNC_DIR [--name NAME] [--instance NAME]...
#                            [--start UNIX_S]
# --name: the harness the campaign ran (needed when the build holds more).
# --instance keeps only those instances' crashes in the stream (default:
# every instance's, merged by time). Output: Markdown on stdout.
set -euo pipefail

die() { echo "bench/magma/crashrule.sh: $*" >&2; exit 2; }
# shellcheck source=bench/magma/harness.sh
. "$(dirname "$0")/harness.sh"
[ $# -ge 2 ] || die "usage: bench/magma/crashrule.sh BUILD_DIR SYNC_DIR [--name NAME] [--instance NAME]... [--start UNIX_S]"
BUILD=$1 SYNC=$2 START="" NAME=""
INST=()
shift 2
while [ $# -gt 0 ]; do
  case $1 in
  --name) [ $# -ge 2 ] || die "--name needs a harness name"; NAME=$2; shift ;;
  --instance)
    [[ ${2:-} =~ ^[A-Za-z0-9._-]+$ ]] || die "--instance needs an instance name ([A-Za-z0-9._-])"
    INST+=("$2"); shift ;;
  --start) [[ ${2:-} =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--start needs Unix seconds"; START=$2; shift ;;
  *) die "unknown argument '$1'" ;;
  esac
  shift
done
ABS=$(cd "$BUILD" 2>/dev/null && pwd) || die "no build dir ${BUILD@Q}"
BUILD=$ABS
NAME=$(magma_harness "$BUILD" "$NAME")
REPLAY=$BUILD/$NAME.plain EDGE=$BUILD/$NAME.edge
[ -x "$EDGE" ] || die "no $NAME.edge in ${BUILD@Q} (bench/magma/build.sh makes it)"
[ -d "$SYNC" ] || die "no sync dir $SYNC"
command -v afl-showmap >/dev/null || die "afl-showmap not found (AFL++)"
if [ -z "$START" ]; then
  START=$(cat "$SYNC"/*/fuzzer_stats 2>/dev/null | sed -n 's/^start_time *: *\([0-9][0-9]*\).*/\1/p' | sort -n | head -1)
  [ -n "$START" ] || die "no start_time in $SYNC/*/fuzzer_stats: give --start"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the stream: "MTIME PATH", oldest first, numbered into in/ (names are data:
# the copies carry numbers, the paths stay in the list)
if [ ${#INST[@]} -eq 0 ]; then
  find "$SYNC" -mindepth 3 -maxdepth 3 -path '*/crashes/id:*' -type f -printf '%T@ %p\n'
else
  for i in "${INST[@]}"; do
    [ -d "$SYNC/$i/crashes" ] || die "no crashes/ for instance '$i' in $SYNC"
    find "$SYNC/$i/crashes" -mindepth 1 -maxdepth 1 -name 'id:*' -type f -printf '%T@ %p\n'
  done
fi | sort -n -k1,1 >"$work/files"
[ -s "$work/files" ] || die "no crash files in $SYNC"
mkdir "$work/in" "$work/map"
n=0
while read -r mt p; do
  n=$((n + 1))
  cp -- "$p" "$work/in/$(printf '%07d' "$n")"
  printf '%07d\t%s\n' "$n" "$mt" >>"$work/order"
done <"$work/files"

# labels: the replay logs "file PATH" then "triggered BUG" (the canary aborts)
(cd "$work/in" && ls | GB_MAGMA_LOG="$work/log" xargs -r -n 500 "$REPLAY" >/dev/null 2>&1) || true
awk '$1 == "file" { n = $2; sub(/.*\//, "", n); next }
     $1 == "triggered" && n != "" { print n "\t" $2; n = "" }' "$work/log" >"$work/labels"
# raw counts (-r), bucketed below: afl-showmap's own classes leave out
# some entries the raw map has (docs/cmin.md)
afl-showmap -r -q -t 2000 -m none -i "$work/in" -o "$work/map" -- "$EDGE" >/dev/null 2>&1 </dev/null || true

awk -v start="$START" -v dir="$work/map" -v total="$n" '
  FILENAME == ARGV[1] { bug[$1] = $2; next }
  { id = $1; t = $2 - start; if (t < 0) t = 0
    b = (id in bug) ? bug[id] : "(none)"; bugs[b] = 1; files[b]++
    if (!(b in first)) first[b] = t
    sig = ""; fresh = 0; f = dir "/" id
    while ((getline line < f) > 0) {
      split(line, kv, ":"); c = kv[2] + 0; sig = sig "," kv[1]
      k = kv[1] ":" (c <= 3 ? c : c < 8 ? 4 : c < 16 ? 5 : c < 32 ? 6 : c < 128 ? 7 : 8)
      if (!(k in seen)) { seen[k] = 1; fresh = 1 }
    }
    close(f)
    if (sig == "") { nomap++; next }
    if (!(sig in sigs)) { sigs[sig] = 1; kd[b]++; nkd++; if (!(b in fd)) fd[b] = t }
    if (fresh) { ka[b]++; nka++; if (!(b in fa)) fa[b] = t }
  }
  END {
    print "| bug | crash files | first (s) | kept, distinct edge sets | first kept (s) | kept, new (edge, bucket) | first kept (s) |"
    print "|---|---|---|---|---|---|---|"
    m = 0; for (b in bugs) names[++m] = b
    for (i = 2; i <= m; i++) { v = names[i]; for (j = i - 1; j >= 1 && names[j] > v; j--) names[j + 1] = names[j]; names[j + 1] = v }
    for (i = 1; i <= m; i++) {
      b = names[i]
      e = b; gsub(/\\/, "\\\\", e); gsub(/\|/, "\\|", e) # a name is data
      printf "| %s | %d | %.1f | %d | %s | %d | %s |\n", e, files[b], first[b], kd[b] + 0,
        (b in fd) ? sprintf("%.1f", fd[b]) : "-", ka[b] + 0, (b in fa) ? sprintf("%.1f", fa[b]) : "-"
    }
    printf "| all | %d | | %d | | %d | |\n", total, nkd, nka
    if (nomap) printf "\n%d files gave no map (afl-showmap could not run them).\n", nomap
  }' "$work/labels" "$work/order"
