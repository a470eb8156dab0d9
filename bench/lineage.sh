#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What the campaign owes to the inputs a Glassbox worker made, from the
# names of the sync dir's queue/ and crashes/ files (AFL++'s src:, sync:,
# orig: and time: fields, and Glassbox's, docs/campaign.md). An input is
# the worker's when the worker made it (its own child: neither a seed nor
# an import) or it is an import of one; it is in the worker's line when it
# is the worker's or any parent is in the line (a splice has two parents).
# Per time window: the AFL++ instances' finds (their own queue entries),
# how many are in the worker's line and how many have a worker's input as
# a direct parent, the worker's inputs they imported, and the same for
# their crash files. Markdown on stdout. --ancestors FILE lists one
# file's ancestors instead (FILE relative to SYNC_DIR, as
# main/crashes/id:000000,...).
#
# Times: AFL++ rewrites a queue file when it trims it, so its mtime is not
# when it was found. Times come from bench/found.sh (an AFL++ queue entry:
# its instance's start_time plus its time: field; other files: mtime), and
# an AFL++ entry without a time: field (an import) is placed between its
# neighbours by id, no later than its mtime. A worker is an instance whose
# fuzzer_stats has traces_done; an instance whose name is not made of
# letters, digits, '.', '_' and '-' is left out, with a note.
# --end SECONDS leaves out what came later (a file saved after -V).
#   bench/lineage.sh SYNC_DIR [--window SECONDS] [--start UNIX_S] [--end SECONDS]
#                    [--ancestors FILE]
set -euo pipefail
die() { echo "bench/lineage.sh: $*" >&2; exit 2; }
usage="usage: bench/lineage.sh SYNC_DIR [--window SECONDS] [--start UNIX_S] [--end SECONDS] [--ancestors FILE]"
[ $# -ge 1 ] || die "$usage"
case $1 in -h | --help) echo "$usage"; exit 0 ;; esac
SYNC=$1 WIN=600 START="" END="" ANC=""
shift
while [ $# -gt 0 ]; do
  case $1 in
  --window) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--window needs a positive number of seconds"; WIN=$2; shift ;;
  --start) [[ ${2:-} =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--start needs Unix seconds"; START=$2; shift ;;
  --end) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--end needs a positive number of seconds"; END=$2; shift ;;
  --ancestors) [ -n "${2:-}" ] || die "--ancestors needs a file below SYNC_DIR"; ANC=$2; shift ;;
  *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
[ -d "$SYNC" ] || die "$SYNC: no such directory"
if [ -z "$START" ]; then # the campaign's start: the earliest instance's
  START=$(cat "$SYNC"/*/fuzzer_stats 2>/dev/null | sed -n 's/^start_time *: *\([0-9][0-9]*\).*/\1/p' | sort -n | head -1)
  [ -n "$START" ] || die "no start_time in $SYNC/*/fuzzer_stats: give --start"
fi

# The instances, as "NAME WORKER(1/0)" lines: those with a queue/, not
# symlinks, with a plain name.
instances() {
  local d inst
  for d in "$SYNC"/*/; do
    inst=$(basename "$d")
    [ -d "$d/queue" ] && [ ! -L "${d%/}" ] || continue
    [[ $inst =~ ^[A-Za-z0-9._-]+$ ]] || { echo "bench/lineage.sh: left out the instance '${inst//[[:cntrl:]]/?}'" >&2; continue; }
    if grep -q '^traces_done *:' "$d/fuzzer_stats" 2>/dev/null; then echo "$inst 1"; else echo "$inst 0"; fi
  done
}

# One line per file of those instances: instance, worker, q or c, name,
# when it was found (bench/found.sh: an AFL++ entry from its time: field);
# in id order within an instance. A file name with a tab is left out.
files() {
  "$(dirname "$0")/found.sh" "$SYNC" | awk -v insts="$(instances)" '
    BEGIN { n = split(insts, l, "\n"); for (i = 1; i <= n; i++) if (split(l[i], a, " ") == 2) wk[a[1]] = a[2] }
    {
      p = substr($0, index($0, " ") + 1); m = split(p, c, "/")
      if (m < 3 || !(c[m - 2] in wk) || index(c[m], "\t")) next
      printf "%s\t%s\t%s\t%s\t%s\n", c[m - 2], wk[c[m - 2]], c[m - 1] == "queue" ? "q" : "c", c[m], $1
    }' | LC_ALL=C sort -t$'\t' -k1,1 -k3,3 -k4,4
}

files | awk -F'\t' -v start="$START" -v w="$WIN" -v end="$END" -v anc="$ANC" '
  function field(name, key,   n, a, i) { # the value of key: in a comma list
    n = split(name, a, ",")
    for (i = 1; i <= n; i++) if (index(a[i], key ":") == 1) return substr(a[i], length(key) + 2)
    return ""
  }
  function mine(k,   r) { # the worker made it, or it is an import of such
    if (k in memo_m) return memo_m[k]
    memo_m[k] = 0
    r = kindof[k] == "made" ? isw[inst_of[k]] : kindof[k] == "import" ? mine(par[k, 1]) : 0
    return memo_m[k] = r
  }
  function inline(k,   i, r) { # in the worker line
    if (k in memo_l) return memo_l[k]
    memo_l[k] = 0 # a cycle in hostile names ends here
    r = mine(k)
    for (i = 1; i <= npar[k] && !r; i++) r = inline(par[k, i])
    return memo_l[k] = r
  }
  {
    inst = $1; wk = $2; kind = $3; name = $4; t = $5 - start
    id = field(name, "id"); k = inst "/" kind "/" id
    if (k in path) next
    path[k] = inst "/" (kind == "q" ? "queue" : "crashes") "/" name; inst_of[k] = inst; isw[inst] = wk
    seq[++n] = k; found[k] = t; grp[k] = inst SUBSEP kind
    np = 0; src = field(name, "src"); peer = field(name, "sync")
    if (!wk && field(name, "time") ~ /^[0-9]+$/) stamp[k] = t
    if (field(name, "orig") != "") { kindof[k] = "seed"; stamp[k] = 0 }
    else if (peer != "") { kindof[k] = "import"; par[k, ++np] = peer "/q/" src; from[k] = peer }
    else {
      kindof[k] = "made"
      if (src ~ /^crash/) par[k, ++np] = inst "/c/" substr(src, 6)
      else if (src != "") { m = split(src, s2, "+"); for (i = 1; i <= m; i++) par[k, ++np] = inst "/q/" s2[i] }
    }
    npar[k] = np
  }
  function esc(s) { # a name is data: no Markdown, no table cell break
    gsub(/[][\\`*_<>|]/, "\\\\&", s)
    return s
  }
  function walk(k,   i) { # every ancestor of k once, into seen[]
    if (k in seen) return
    seen[k] = 1
    for (i = 1; i <= npar[k]; i++) walk(par[k, i])
  }
  END {
    # when[]: a stamp, or for an AFL++ entry without one (an import) the
    # latest of the stamps before it (by id), capped by the next stamp and
    # by when found.sh says (its mtime).
    for (i = n; i >= 1; i--) {
      k = seq[i]; g = grp[k]
      if (k in stamp) nxt[g] = stamp[k]
      else if (g in nxt) cap[k] = nxt[g]
    }
    for (i = 1; i <= n; i++) {
      k = seq[i]; g = grp[k]; t = found[k]
      if (k in stamp) t = stamp[k]
      else if (!isw[inst_of[k]]) {
        if ((k in cap) && cap[k] < t) t = cap[k]
        if ((g in prev) && prev[g] > t) t = prev[g]
      }
      if (t < 0) t = 0
      when[k] = t; prev[g] = t
    }
    if (anc != "") {
      for (k in path) if (path[k] == anc) target = k
      if (target == "") exit 3
      walk(target)
      m = 0
      for (k in seen) if (k in path) order[++m] = k
      for (i = 2; i <= m; i++) { x = order[i]; for (j = i - 1; j >= 1 && when[order[j]] > when[x]; j--) order[j + 1] = order[j]; order[j + 1] = x }
      print "| s | file | the worker'"'"'s | in the worker'"'"'s line |"
      print "|---|---|---|---|"
      for (i = 1; i <= m; i++) printf "| %.1f | %s | %s | %s |\n", when[order[i]], esc(path[order[i]]), mine(order[i]) ? "yes" : "", inline(order[i]) ? "yes" : ""
      for (k in seen) if (!(k in path)) printf "(not on disk: %s)\n", esc(k)
      exit 0
    }
    last = 0
    for (i = 1; i <= n; i++) {
      k = seq[i]
      if (isw[inst_of[k]] || (end != "" && when[k] > end + 0)) continue
      b = int(when[k] / w); if (b > last) last = b
      q = grp[k] == inst_of[k] SUBSEP "q"
      if (kindof[k] == "import") { if (q && isw[from[k]]) imp[b]++; continue }
      if (kindof[k] != "made") continue
      l = inline(k); d = 0
      for (j = 1; j <= npar[k]; j++) if (mine(par[k, j])) d = 1
      if (q) { f[b]++; fl[b] += l; fd[b] += d } else { c[b]++; cl[b] += l; cd[b] += d }
    }
    print "| window (s) | AFL++ finds | in the worker'"'"'s line | a parent the worker'"'"'s | worker inputs imported | AFL++ crash files | in the worker'"'"'s line | a parent the worker'"'"'s |"
    print "|---|---|---|---|---|---|---|---|"
    for (b = 0; b <= last; b++) {
      printf "| %d-%d | %d | %d | %d | %d | %d | %d | %d |\n", b * w, (b + 1) * w, f[b], fl[b], fd[b], imp[b], c[b], cl[b], cd[b]
      F += f[b]; FL += fl[b]; FD += fd[b]; I += imp[b]; C += c[b]; CL += cl[b]; CD += cd[b]
    }
    printf "| all | %d | %d | %d | %d | %d | %d | %d |\n", F, FL, FD, I, C, CL, CD
  }' || {
  rc=$?
  [ "$rc" = 3 ] && die "$(printf '%s' "$ANC" | tr '[:cntrl:]' '?'): no such queue or crash file in the sync dir"
  exit "$rc"
}
