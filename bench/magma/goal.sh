#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 36's Magma goal, read from results dirs of bench/magma/run.sh
# (reps of one configuration may sit in different dirs): per target and
# bug, AFL++ alone (config `afl`) against AFL++ + Glassbox (config
# `afl+glassbox`), each as triggered/runs and Magma's median (report.sh's
# rule: a run that did not trigger counts at its length), and the goal's
# two lines:
#   1. every bug `afl` triggers in at least 2 of its runs, `afl+glassbox`
#      triggers with a median no later ("holds" or "missed");
#   2. bugs `afl+glassbox` triggers in more runs than `afl` ("more", as
#      a share of each one's runs): at least two are needed.
# Prints Markdown for bench/RESULTS.md, then one line per goal line. A
# configuration with fewer than --reps runs (default 3) is "provisional".
# Rows with a tenth column, `machine` (bench/magma/record/bugs.tsv), are
# judged per machine, never pooled: one section each, or --machine TAG's.
#   bench/magma/goal.sh [--reps N] [--machine TAG] RESULTS_DIR...
set -euo pipefail
die() { echo "bench/magma/goal.sh: $*" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
REPS=3 MACHINE='' KIND='' DIRS=()
while [ $# -gt 0 ]; do
  case $1 in
  --reps)
    [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive count"
    REPS=$2
    shift
    ;;
  --machine)
    [ $# -ge 2 ] && [ -n "$2" ] && [[ $2 != *[[:cntrl:]]* ]] || die "--machine needs a tag (the machine column's)"
    MACHINE=$2
    shift
    ;;
  -h | --help) sed -n '3,17s/^# \{0,1\}//p' "$0"; exit 0 ;;
  -*) die "unknown argument '$1'" ;;
  *) DIRS+=("$1") ;;
  esac
  shift
done
[ ${#DIRS[@]} -ge 1 ] || die "usage: bench/magma/goal.sh [--reps N] [--machine TAG] RESULTS_DIR..."
HDR=$(printf 'target\tconfig\trep\tseconds\tbug\treached\ttriggered\tfirst_trigger_s')
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-magma-goal.XXXXXX")
trap 'rm -rf "$W"' EXIT
echo "$HDR" >"$W/bugs.tsv"
for d in "${DIRS[@]}"; do
  [ -f "$d/bugs.tsv" ] || die "$d/bugs.tsv: no such file (a results dir of bench/magma/run.sh)"
  [ "$(head -1 "$d/bugs.tsv" | cut -f1-8)" = "$HDR" ] || die "$d/bugs.tsv: not run.sh's header"
  # Every row of a dir has a machine column (a tag of printable
  # characters), or none has.
  cols=$(awk -F'\t' 'NR > 1 { print (NF < 10 ? "untagged" : $10 == "" || $10 ~ /[[:cntrl:]]/ ? "bad" : "tagged") }' "$d/bugs.tsv" | sort -u | tr '\n' ' ')
  case $cols in
  "") ;;
  "tagged " | "untagged ")
    [ -z "$KIND" ] || [ "$KIND" = "$cols" ] ||
      die "rows with a machine column and rows without: give one machine's rows (--machine TAG) or results dirs alone"
    KIND=$cols
    ;;
  *bad*) die "$d/bugs.tsv: a machine column that is empty or holds a control character" ;;
  *) die "$d/bugs.tsv: some rows have a machine column and some do not" ;;
  esac
  tail -n +2 "$d/bugs.tsv" >>"$W/bugs.tsv"
done
if [ -n "$MACHINE" ]; then
  awk -F'\t' -v m="$MACHINE" 'NR == 1 || $10 == m' "$W/bugs.tsv" >"$W/one.tsv"
  [ "$(wc -l <"$W/one.tsv")" -gt 1 ] || die "no rows for machine '$MACHINE' (the machine column of the rows given)"
  cut -f1-8 "$W/one.tsv" >"$W/bugs.tsv"
elif [ "$KIND" = "tagged " ]; then
  # One section per machine, in the order the rows name them.
  mapfile -t machines < <(awk -F'\t' 'NR > 1 && !seen[$10]++ { print $10 }' "$W/bugs.tsv")
  if [ ${#machines[@]} -gt 1 ]; then
    for m in "${machines[@]}"; do
      printf '### Machine %s\n\n' "$(printf '%s' "$m" | sed 's/[\\`*_|#<>[]/\\&/g')"
      "$HERE/goal.sh" --reps "$REPS" --machine "$m" "${DIRS[@]}"
      echo
    done
    exit 0
  fi
fi
# The same run given twice (two dirs holding one rep) would count twice.
dup=$(awk -F'\t' 'NR > 1 { k = $1 " " $2 " rep " $3 " " $5; if (n[k]++ == 1) print k }' "$W/bugs.tsv" | head -1)
[ -z "$dup" ] || die "a run is given twice: $dup"
"$HERE/report.sh" "$W" >/dev/null

# summary.tsv: target config bug runs reached triggered median_s
awk -F'\t' -v want="$REPS" '
  function md(s) { gsub(/\\/, "\\\\", s); gsub(/\|/, "\\|", s); return s }
  NR == 1 { next }
  $2 != "afl" && $2 != "afl+glassbox" { next }
  {
    tg = $1; b = $3
    if (!(tg in seen_t)) { seen_t[tg] = 1; targets[++nt] = tg }
    if (!((tg, b) in seen_b)) { seen_b[tg, b] = 1; bug[tg, ++nb[tg]] = b }
    R[tg, $2, b] = $4; T[tg, $2, b] = $6; M[tg, $2, b] = $7; have[tg, $2, b] = 1
    if ($4 > runs[tg, $2]) runs[tg, $2] = $4
  }
  function cell(tg, c, b) {
    if (!((tg, c, b) in have)) return "- | -"
    return T[tg, c, b] "/" R[tg, c, b] " | " (T[tg, c, b] > 0 ? M[tg, c, b] : "-")
  }
  END {
    for (i = 1; i <= nt; i++) {
      tg = targets[i]
      for (c = 0; c < 2; c++) {
        cf = c ? "afl+glassbox" : "afl"
        if (runs[tg, cf] + 0 < want) prov = prov sprintf("%s%s %s: %d of %d runs", (prov != "" ? "; " : ""), md(tg), cf, runs[tg, cf], want)
      }
      printf "#### %s\n\n", md(tg)
      printf "| bug | afl: triggered | median s | afl+glassbox: triggered | median s | line 1 | line 2 |\n"
      printf "|---|---|---|---|---|---|---|\n"
      for (j = 1; j <= nb[tg]; j++) {
        b = bug[tg, j]
        ta = T[tg, "afl", b] + 0; tc = T[tg, "afl+glassbox", b] + 0
        if (ta == 0 && tc == 0) continue
        l1 = ""; l2 = ""
        if (ta >= 2) {
          if (tc > 0 && M[tg, "afl+glassbox", b] + 0 <= M[tg, "afl", b] + 0) { l1 = "holds"; hold++ }
          else { l1 = "missed"; miss = miss sprintf("%s%s", (miss != "" ? ", " : ""), md(b)) }
        }
        ra = R[tg, "afl", b] + 0; rc = R[tg, "afl+glassbox", b] + 0
        if (tc * ra > ta * rc) { l2 = "more"; more = more sprintf("%s%s", (more != "" ? ", " : ""), md(b)); nmore++ }
        printf "| %s | %s | %s | %s | %s |\n", md(b), cell(tg, "afl", b), cell(tg, "afl+glassbox", b), l1, l2
      }
      printf "\n"
    }
    printf "Line 1 (every bug afl triggers in 2 or more runs, no later): %s\n", (miss == "" ? "holds (" hold + 0 " bugs)" : "missed on " miss)
    printf "Line 2 (two bugs or more triggered in more runs): %s (%d: %s)\n", (nmore >= 2 ? "holds" : "missed"), nmore, (more == "" ? "none" : more)
    if (prov != "") printf "Provisional: %s.\n", prov
  }' "$W/summary.tsv"
