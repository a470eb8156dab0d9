#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What a Glassbox worker did over a run, from its expansions.tsv
# (docs/campaign.md): per time window, the expansions, the time they took,
# how that time split between seeds, peers' inputs and the worker's own
# children, the flips and their answers, the children made and the new
# blocks the worker's own children found. Markdown on stdout.
#   bench/expansions.sh EXPANSIONS_TSV [--window SECONDS]
set -euo pipefail
die() { echo "bench/expansions.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: bench/expansions.sh EXPANSIONS_TSV [--window SECONDS]"
F=$1 WIN=600
shift
while [ $# -gt 0 ]; do
  case $1 in
  --window) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--window needs a positive number of seconds"; WIN=$2; shift ;;
  *) die "unknown argument '$1'" ;;
  esac
  shift
done
[ -f "$F" ] || die "$F: no such file"
head -1 "$F" | grep -q "^time_s	ms	input	origin	part" || die "$F: not an expansions.tsv (docs/campaign.md)"

awk -F'\t' -v w="$WIN" '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  {
    k = int($col["time_s"] / w); if (k > last) last = k
    n[k]++; ms[k] += $col["ms"]; o = $col["origin"]
    if (o == "import") msi[k] += $col["ms"]; else if (o == "child") msc[k] += $col["ms"]; else mss[k] += $col["ms"]
    if ($col["part"] != "first") msr[k] += $col["ms"]
    fl[k] += $col["flips"]; sat[k] += $col["sat"]; to[k] += $col["timeout"]
    ch[k] += $col["children"]; of[k] += $col["own_finds"]; ob[k] += $col["own_blocks"]
    if ($col["own_finds"] > 0) { pay[k]++; if (o == "import") payi[k]++ }
    bl[k] = $col["blocks"]; z3[k] += $col["z3_ms"]
  }
  function pct(a, b) { return b > 0 ? sprintf("%.0f%%", 100 * a / b) : "-" }
  END {
    print "| window (s) | expansions | time (s) | on imports | on own children | on retries/resumed | flips | sat | timeouts | Z3 share | children | expansions that found | own finds | own blocks | blocks at end |"
    print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for (k = 0; k <= last; k++)
      printf "| %d-%d | %d | %.0f | %s | %s | %s | %d | %d | %d | %s | %d | %d (%d imports) | %d | %d | %s |\n",
        k * w, (k + 1) * w, n[k], ms[k] / 1000, pct(msi[k], ms[k]), pct(msc[k], ms[k]), pct(msr[k], ms[k]),
        fl[k], sat[k], to[k], pct(z3[k], ms[k]), ch[k], pay[k], payi[k], of[k], ob[k], (k in bl ? bl[k] : "-")
  }' "$F"
