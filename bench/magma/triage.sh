#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Triage against Magma's ground truth (issue 38): every crash file of the
# given campaigns is labelled with the bug whose canary it triggers (a
# replay on NAME.plain with GB_MAGMA_LOG, as bugs.sh does), then bucketed
# by `glassbox triage` on NAME.asan with the canaries logging only
# (GB_MAGMA_NO_ABORT=1), so each input ends in what the bug itself does:
# an ASan or UBSan report, or nothing (a bug that corrupts no memory);
# with --canaries abort, each ends at its canary's abort instead, the
# crash the fuzzers saved (its state: the canary's function and callers).
# Prints, as Markdown, buckets against bugs: per bug its inputs, those that
# crash under ASan and the buckets they fall in (more than one: split);
# per bucket the bugs of its inputs (more than one: merged).
#   bench/magma/triage.sh BUILD_DIR DIR... [--name NAME] [-o OUT] [--jobs N]
#                         [--state-frames N] [--canaries log|abort]
# --name: the harness the campaigns ran (needed when the build holds more).
# DIR: a sync dir, a run dir or a whole results dir of run.sh: every
# */crashes/id:* file below it. OUT (default build/magma-triage/TARGET)
# gets pile/ (the crash files, named BUG-N or none-N), report/ (the
# triage), labels.tsv (file, bug), buckets.tsv (bucket, likely bug, type,
# state, inputs, bugs) and summary.md.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "bench/magma/triage.sh: $*" >&2; exit 2; }
# shellcheck source=bench/magma/harness.sh
. "$ROOT/bench/magma/harness.sh"
[ $# -ge 2 ] || die "usage: bench/magma/triage.sh BUILD_DIR DIR... [--name NAME] [-o OUT] [--jobs N] [--state-frames N]"
BUILD=$1
shift
DIRS=() OUT="" JOBS=2 FRAMES=3 CANARIES=log NAME=""
while [ $# -gt 0 ]; do
  case $1 in
  -o) [ $# -ge 2 ] || die "-o needs a directory"; OUT=$2; shift ;;
  --name) [ $# -ge 2 ] || die "--name needs a harness name"; NAME=$2; shift ;;
  --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a number"; JOBS=$2; shift ;;
  --state-frames) [[ ${2:-} =~ ^[1-8]$ ]] || die "--state-frames needs 1..8"; FRAMES=$2; shift ;;
  --canaries) [[ ${2:-} =~ ^(log|abort)$ ]] || die "--canaries needs log or abort"; CANARIES=$2; shift ;;
  -*) die "unknown option '$1'" ;;
  *) [ -d "$1" ] || die "no directory $1"; DIRS+=("$1") ;;
  esac
  shift
done
[ ${#DIRS[@]} -gt 0 ] || die "no DIR given"
NAME=$(magma_harness "$BUILD" "$NAME")
REPLAY=$BUILD/$NAME.plain
ASAN=$BUILD/$NAME.asan
[ -x "$ASAN" ] || die "no $NAME.asan in $BUILD"
GB=${GLASSBOX:-$ROOT/build/bin/glassbox}
[ -x "$GB" ] || die "no glassbox at $GB (scripts/build, or set GLASSBOX)"
command -v node >/dev/null || die "node is needed to read triage's JSON (scripts/build installs it)"
TARGET=$(basename "$(cd "$BUILD" && pwd)")
OUT=${OUT:-$ROOT/build/magma-triage/$TARGET}
[ ! -e "$OUT/report" ] || die "$OUT/report exists: give another -o (a triage report adds up)"
mkdir -p "$OUT/pile"
OUT=$(cd "$OUT" && pwd)

# ---- labels: which canary each crash file triggers -------------------------------
find "${DIRS[@]}" -path '*/crashes/id:*' -type f -print0 | sort -z >"$OUT/files"
[ -s "$OUT/files" ] || die "no crash files (*/crashes/id:*) below ${DIRS[*]}"
rm -f "$OUT/replay.log"
GB_MAGMA_LOG="$OUT/replay.log" xargs -0 -r -n 500 "$REPLAY" <"$OUT/files" >/dev/null 2>&1 || true
awk '$1 == "file" { if (f != "") print f "\t" (b == "" ? "none" : b); f = substr($0, 6); b = ""; next }
     $1 == "triggered" && b == "" { b = $2 }
     END { if (f != "") print f "\t" (b == "" ? "none" : b) }' "$OUT/replay.log" >"$OUT/labels.tsv"
# The pile: each file under its label, so the report's inputs name their bug.
n=0
while IFS=$'\t' read -r f bug; do
  n=$((n + 1))
  cp "$f" "$OUT/pile/$bug-$n"
done <"$OUT/labels.tsv"
echo "bench/magma/triage.sh: $n crash files labelled ($(cut -f2 "$OUT/labels.tsv" | sort | uniq -c | tr -s ' ' | tr '\n' ',' | sed 's/,$//'))" >&2

# ---- triage with the canaries logging only --------------------------------------
NO_ABORT=1
[ "$CANARIES" = log ] || NO_ABORT=0
GB_MAGMA_NO_ABORT=$NO_ABORT "$GB" triage -i "$OUT/pile" -o "$OUT/report" --jobs "$JOBS" \
  --state-frames "$FRAMES" -- "$ASAN" >"$OUT/triage.out" 2>"$OUT/triage.err" ||
  die "glassbox triage failed: $(tail -3 "$OUT/triage.err")"

# ---- buckets against bugs --------------------------------------------------------
node - "$OUT" "$TARGET" "$("$GB" --version | head -1)" "$CANARIES" <<'EOF'
const fs = require("fs"), [out, target, version, canaries] = process.argv.slice(2);
const s = JSON.parse(fs.readFileSync(out + "/report/summary.json", "utf8"));
const label = p => p.split("/").pop().replace(/-[0-9]+$/, "");
const bugs = {}; // bug -> {files, crashed, buckets:Set}
for (const f of fs.readdirSync(out + "/pile")) {
  const b = label(f);
  (bugs[b] = bugs[b] || {files: 0, crashed: 0, buckets: new Set()}).files++;
}
const rows = [];
for (const b of s.buckets) {
  const c = JSON.parse(fs.readFileSync(`${out}/report/${b.dir}/crash.json`, "utf8"));
  const of = {};
  for (const i of c.inputs) of[label(i.path)] = (of[label(i.path)] || 0) + 1;
  for (const [bug, k] of Object.entries(of)) { bugs[bug].crashed += k; bugs[bug].buckets.add(b.id); }
  rows.push({id: b.id, bug: b.likely_bug, type: b.type, state: b.state.join(" < "), n: c.inputs.length, of});
}
const esc = t => String(t).replace(/[|\\`*_<>\[\]]/g, m => "\\" + m).replace(/[\x00-\x1f\x7f]/g, "?");
fs.writeFileSync(out + "/buckets.tsv", "bucket\tlikely_bug\ttype\tstate\tinputs\tbugs\n" + rows.map(r =>
  [r.id, r.bug, r.type, r.state, r.n, Object.entries(r.of).map(([b, k]) => `${b}:${k}`).join(",")]
    .map(x => String(x).replace(/[\t\n]/g, " ")).join("\t")).join("\n") + "\n");
const named = Object.keys(bugs).filter(b => b !== "none").sort();
const split = named.filter(b => bugs[b].buckets.size > 1);
const merged = rows.filter(r => Object.keys(r.of).filter(b => b !== "none").length > 1);
let md = `### Triage of ${esc(target)}'s crash files against Magma's canaries (canaries ${canaries === "log" ? "logging only" : "aborting"})\n\n`;
md += `${version}; ${s.bucket_rule ? "bucket rule " + s.bucket_rule.version + ", " + s.bucket_rule.state_frames + " state frames" : ""}; `;
md += `${s.totals.buckets} buckets, ${s.totals.likely_bugs} likely bugs; ${named.length} bugs triggered by the files; `;
md += `**${split.length} split, ${merged.length} merged**.\n\n`;
md += "| bug | crash files | crash under ASan | buckets |\n| --- | --- | --- | --- |\n";
for (const b of [...named, ...(bugs.none ? ["none"] : [])])
  md += `| ${esc(b === "none" ? "(no canary)" : b)} | ${bugs[b].files} | ${bugs[b].crashed} | ${bugs[b].buckets.size} |\n`;
md += "\n| bucket | likely bug | type | state | inputs by bug |\n| --- | --- | --- | --- | --- |\n";
for (const r of rows)
  md += `| ${r.id} | ${r.bug} | ${esc(r.type)} | ${esc(r.state)} | ${esc(Object.entries(r.of).map(([b, k]) => b + ": " + k).join(", "))} |\n`;
md += `\n"crash under ASan" counts the inputs in buckets (byte-identical files count once)` +
  (canaries === "log" ? "; the rest ran clean with the canary only logging: a bug that corrupts no memory, or one ASan does not see.\n" : ".\n");
fs.writeFileSync(out + "/summary.md", md);
process.stdout.write(md);
EOF
