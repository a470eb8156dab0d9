#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What a Glassbox worker did over a run, from its expansions.tsv
# (docs/campaign.md): per time window, the expansions, the time they took,
# how that time split between seeds, peers' inputs and the worker's own
# children, the flips and their answers, the children made and the new
# blocks the worker's own children found. Markdown on stdout.
# --parts splits each window instead between first expansions and inputs
# expanded again (the rest of a suspended expansion, a retry round's
# flips), with the longest part that found nothing: where a worker's late
# turns go (issue 36).
#   bench/expansions.sh EXPANSIONS_TSV [--window SECONDS] [--parts]
set -euo pipefail
die() { echo "bench/expansions.sh: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: bench/expansions.sh EXPANSIONS_TSV [--window SECONDS] [--parts]"
F=$1 WIN=600 PARTS=0
shift
while [ $# -gt 0 ]; do
  case $1 in
  --window) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--window needs a positive number of seconds"; WIN=$2; shift ;;
  --parts) PARTS=1 ;;
  *) die "unknown argument '$1'" ;;
  esac
  shift
done
[ -f "$F" ] || die "$F: no such file"
head -1 "$F" | grep -q "^time_s	ms	input	origin	part" || die "$F: not an expansions.tsv (docs/campaign.md)"

awk -F'\t' -v w="$WIN" -v parts="$PARTS" '
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
    a = $col["part"] == "first" ? "f" : "a"
    pn[a, k]++; pms[a, k] += $col["ms"]; pof[a, k] += $col["own_finds"]; pob[a, k] += $col["own_blocks"]
    pto[a, k] += $col["timeout"]
    if ($col["own_finds"] == 0 && $col["ms"] > dry[k]) {
      dry[k] = $col["ms"]; dryw[k] = sprintf("%.1f s (input %s, %s %s)", $col["ms"] / 1000, $col["input"], $col["origin"], $col["part"])
    }
  }
  function pct(a, b) { return b > 0 ? sprintf("%.0f%%", 100 * a / b) : "-" }
  function part(a, k) {
    return sprintf("%d | %.0f | %d | %d | %d", pn[a, k], pms[a, k] / 1000, pof[a, k], pob[a, k], pto[a, k])
  }
  END {
    if (parts) {
      print "| window (s) | first expansions | time (s) | own finds | own blocks | timeouts | expanded again | time (s) | own finds | own blocks | timeouts | longest part without a find |"
      print "|---|---|---|---|---|---|---|---|---|---|---|---|"
      for (k = 0; k <= last; k++)
        printf "| %d-%d | %s | %s | %s |\n", k * w, (k + 1) * w, part("f", k), part("a", k), (k in dry ? dryw[k] : "-")
      exit
    }
    print "| window (s) | expansions | time (s) | on imports | on own children | on retries/resumed | flips | sat | timeouts | Z3 share | children | expansions that found | own finds | own blocks | blocks at end |"
    print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for (k = 0; k <= last; k++)
      printf "| %d-%d | %d | %.0f | %s | %s | %s | %d | %d | %d | %s | %d | %d (%d imports) | %d | %d | %s |\n",
        k * w, (k + 1) * w, n[k], ms[k] / 1000, pct(msi[k], ms[k]), pct(msc[k], ms[k]), pct(msr[k], ms[k]),
        fl[k], sat[k], to[k], pct(z3[k], ms[k]), ch[k], pay[k], payi[k], of[k], ob[k], (k in bl ? bl[k] : "-")
  }' "$F"
