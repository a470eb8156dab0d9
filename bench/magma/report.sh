#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Magma's report of a results dir of bench/magma/run.sh: per target,
# configuration and bug, the runs, the runs that reached and that
# triggered it, and the median time to the first trigger, a run that did
# not trigger it counted at its length (Magma's rule). Writes
# RESULTS_DIR/summary.tsv and prints the same as Markdown (one table per
# target, the configurations side by side, then the runs and the commit
# each ran at) for bench/RESULTS.md.
#   bench/magma/report.sh RESULTS_DIR [--only-triggered]
# --only-triggered leaves out the bugs no run triggered.
set -euo pipefail
die() { echo "bench/magma/report.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: bench/magma/report.sh RESULTS_DIR [--only-triggered]"
D=$1 ONLY=0
shift
while [ $# -gt 0 ]; do
  case $1 in
  --only-triggered) ONLY=1 ;;
  *) die "unknown argument '$1'" ;;
  esac
  shift
done
[ -f "$D/bugs.tsv" ] || die "$D/bugs.tsv: no such file (a results dir of bench/magma/run.sh)"
[ "$(head -1 "$D/bugs.tsv" | cut -f1-8)" = "$(printf 'target\tconfig\trep\tseconds\tbug\treached\ttriggered\tfirst_trigger_s')" ] ||
  die "$D/bugs.tsv: not run.sh's header"

awk -F'\t' 'NR > 1 {
    k = $1 "\t" $2 "\t" $5; runs[k]++; n = runs[k]
    if ($7 == "yes") { hits[k]++; t[k, n] = $8 } else t[k, n] = $4
    if ($6 == "yes") reach[k]++
  }
  END {
    print "target\tconfig\tbug\truns\treached\ttriggered\tmedian_s"
    for (k in runs) {
      n = runs[k]
      for (i = 1; i <= n; i++) v[i] = t[k, i] + 0
      for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
      med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
      printf "%s\t%d\t%d\t%d\t%.1f\n", k, n, reach[k], hits[k] + 0, med
    }
  }' "$D/bugs.tsv" | { IFS= read -r h; echo "$h"; sort; } >"$D/summary.tsv.tmp"
mv "$D/summary.tsv.tmp" "$D/summary.tsv"

# Markdown: a row per bug, a column pair per configuration (triggered/runs,
# median seconds), reached as runs that reached it. Names are printed with
# | and backslashes escaped, as a Markdown table needs.
awk -F'\t' -v only="$ONLY" '
  function md(s) { gsub(/\\/, "\\\\", s); gsub(/\|/, "\\|", s); return s }
  FNR == 1 { next }
  FILENAME ~ /summary\.tsv$/ {
    tg = $1; c = $2; b = $3
    if (!(tg in seen_t)) { seen_t[tg] = 1; targets[++nt] = tg }
    if (!((tg, c) in seen_c)) { seen_c[tg, c] = 1; cfg[tg, ++nc[tg]] = c }
    if (!((tg, b) in seen_b)) { seen_b[tg, b] = 1; bug[tg, ++nb[tg]] = b }
    R[tg, c, b] = $4; RE[tg, c, b] = $5; TR[tg, c, b] = $6; M[tg, c, b] = $7
    if ($6 > 0) hit[tg, b] = 1
    next
  }
  { # bugs.tsv: the runs (target, config, rep, seconds, commit when recorded)
    k = $1 SUBSEP $2 SUBSEP $3
    if (!(k in run)) { run[k] = 1; rr[$1, ++nr[$1]] = $2 " rep " $3 ": " $4 " s" ($9 != "" ? ", commit " $9 : "") }
  }
  END {
    for (i = 1; i <= nt; i++) {
      tg = targets[i]
      printf "#### %s\n\n| bug |", md(tg)
      for (j = 1; j <= nc[tg]; j++) printf " %s: triggered | median s | reached |", md(cfg[tg, j])
      printf "\n|---|"
      for (j = 1; j <= nc[tg]; j++) printf "---|---|---|"
      printf "\n"
      for (b = 1; b <= nb[tg]; b++) {
        name = bug[tg, b]
        if (only && !((tg, name) in hit)) continue
        printf "| %s |", md(name)
        for (j = 1; j <= nc[tg]; j++) {
          c = cfg[tg, j]
          if (!((tg, c, name) in R)) { printf " | | |"; continue }
          med = TR[tg, c, name] > 0 ? M[tg, c, name] : "-"
          printf " %d/%d | %s | %d/%d |", TR[tg, c, name], R[tg, c, name], med, RE[tg, c, name], R[tg, c, name]
        }
        printf "\n"
      }
      printf "\nRuns:"
      for (r = 1; r <= nr[tg]; r++) printf "%s %s", (r > 1 ? ";" : ""), md(rr[tg, r])
      printf ".\n\n"
    }
  }' "$D/summary.tsv" "$D/bugs.tsv"
