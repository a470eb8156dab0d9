#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 36's bug benchmark on one build of bench/magma/build.sh: each
# configuration fuzzes NAME for M minutes, one after the other, two
# processes each, then bugs.sh replays what the run kept; one row per run
# and bug goes to RESULTS_DIR/bugs.tsv (with the commit of the glassbox
# that ran), and report.sh's Magma-style summary (per bug and
# configuration: runs that triggered it, median time to the first trigger
# with a run that did not counted at its length) to summary.tsv and, as
# Markdown, summary.md.
#   bench/magma/run.sh BUILD_DIR NAME [--configs LIST] [--minutes M] [--reps R]
#                      [--first-rep K] [-o RESULTS_DIR]
# Reps are numbered K, K+1, ... (default 1): reps spread over sessions go
# into one RESULTS_DIR with --first-rep, each session's own numbers.
# Configurations (as bench/run's of the same names):
#   afl           glassbox campaign --afl 2 --workers 0 -x DICT (-M, and -S with cmplog)
#   afl+glassbox  glassbox campaign --afl 1 --workers 1 -x DICT (one -S with cmplog; the
#                 worker's core lent to an extra afl-fuzz while it finds nothing: --lend-after)
set -euo pipefail
{
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${GB_BUILD_DIR:-$SRC/build}/bin
die() { echo "bench/magma/run.sh: $*" >&2; exit 2; }
note() { echo "bench/magma/run.sh: $*" >&2; }

[ $# -ge 2 ] || die "usage: bench/magma/run.sh BUILD_DIR NAME [--configs LIST] [--minutes M] [--reps R] [--first-rep K] [-o RESULTS_DIR]"
ORIG_ARGS=("$@")
[ -d "$1" ] || die "no build dir $1 (bench/magma/build.sh makes it)"
B=$(cd "$1" && pwd) N=$2
shift 2
CONFIGS="afl afl+glassbox" MINUTES=60 REPS=1 FIRST=1 OUT=""
while [ $# -gt 0 ]; do
  case $1 in
  --configs) [ $# -ge 2 ] || die "--configs needs a list"; CONFIGS=${2//,/ }; shift ;;
  --minutes) [[ ${2:-} =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--minutes needs a number"; MINUTES=$2; shift ;;
  --reps) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"; REPS=$2; shift ;;
  --first-rep) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--first-rep needs a positive integer"; FIRST=$2; shift ;;
  -o) [ $# -ge 2 ] || die "-o needs a directory"; OUT=$2; shift ;;
  *) die "unknown argument '$1'" ;;
  esac
  shift
done
for c in $CONFIGS; do
  case $c in afl | afl+glassbox) ;; *) die "unknown config '$c' (known: afl, afl+glassbox)" ;; esac
done
for k in trace cov afl cmplog plain; do [ -x "$B/$N.$k" ] || die "no $B/$N.$k (bench/magma/build.sh)"; done
[ -x "$BIN/glassbox" ] || die "no $BIN/glassbox (scripts/build, or set GB_BUILD_DIR)"
SECS=$(awk -v m="$MINUTES" 'BEGIN { s = int(m * 60 + 0.5); print s < 10 ? 10 : s }')
[ -n "$OUT" ] || OUT=${GB_BUILD_DIR:-$SRC/build}/magma-results/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$OUT/runs" && OUT=$(cd "$OUT" && pwd)
DICT=()
[ -e "$B/$N.dict" ] && DICT=(-x "$B/$N.dict")

meta() { printf '%s\t%s\n' "$1" "$2" >>"$OUT/meta.tsv"; }
meta command "bench/magma/run.sh $(printf '%q ' "${ORIG_ARGS[@]}")"
meta date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
meta commit "$(git -C "$SRC" rev-parse HEAD 2>/dev/null || echo '?')"
meta machine "$(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
meta glassbox "$("$BIN/glassbox" --version | head -1)"
meta afl++ "$(dpkg-query -W -f='${Version}' afl++ 2>/dev/null || echo '?')"
meta target "$N: $(cat "$B/VERSION" 2>/dev/null || echo '?')"
# the GLASSBOX_* settings the campaigns inherit (GLASSBOX_LEND_AFTER=0: no core lending)
meta env "$(env | grep '^GLASSBOX_' | sort | tr '\n' ' ')"
[ -f "$OUT/bugs.tsv" ] ||
  printf 'target\tconfig\trep\tseconds\tbug\treached\ttriggered\tfirst_trigger_s\tcommit\n' >"$OUT/bugs.tsv"
# the commit of the glassbox that runs (reps may be spread over sessions)
COMMIT=$("$BIN/glassbox" --version | sed -n '1s/.*(commit \([^)]*\)).*/\1/p')

# one_run CONFIG REP: the campaign (with a backstop past its -V), then bugs.sh.
one_run() {
  local d=$OUT/runs/$N/$1/rep$2 afl=2 workers=0 start
  [ "$1" = afl+glassbox ] && afl=1 workers=1
  rm -rf "$d" && mkdir -p "$d"
  # a rerun of this target, config and rep replaces its rows
  awk -F'\t' -v t="$N" -v c="$1" -v r="$2" '!($1 == t && $2 == c && $3 == r)' "$OUT/bugs.tsv" >"$OUT/bugs.tsv.tmp" &&
    mv "$OUT/bugs.tsv.tmp" "$OUT/bugs.tsv"
  local cmd=("$BIN/glassbox" campaign -i "$B/seeds/$N" -o "$d/sync" --afl "$afl" --workers "$workers"
    -V "$SECS" "${DICT[@]}" -- "$B/$N.trace" "$B/$N.cov")
  printf '%q ' "${cmd[@]}" >"$d/command"
  note "$N $1 rep $2: $SECS s"
  start=$(date +%s.%N)
  timeout -s INT -k 30 $((SECS + 90)) "${cmd[@]}" >"$d/fuzz.log" 2>&1 </dev/null || true
  "$SRC/bench/magma/bugs.sh" "$B" "$d/sync" --name "$N" --start "$start" -o "$d/bugs.tsv" 2>"$d/bugs.log" || true
  # a trigger after the budget (a last write at shutdown) does not count
  awk -F'\t' -v t="$N" -v c="$1" -v r="$2" -v s="$SECS" -v g="${COMMIT:-?}" 'NR > 1 {
      trig = $3; ft = $4
      if (trig == "yes" && ft + 0 > s) { trig = "no"; ft = "NA" }
      printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t, c, r, s, $1, $2, trig, ft, g }' "$d/bugs.tsv" >>"$OUT/bugs.tsv"
  tail -1 "$d/bugs.log" >&2
}

for r in $(seq "$FIRST" $((FIRST + REPS - 1))); do
  for c in $CONFIGS; do one_run "$c" "$r"; done
done

# Magma's report (summary.tsv) and its Markdown for bench/RESULTS.md
"$SRC/bench/magma/report.sh" "$OUT" >"$OUT/summary.md"
note "results in $OUT (summary.tsv, summary.md, bugs.tsv)"
exit 0
}
