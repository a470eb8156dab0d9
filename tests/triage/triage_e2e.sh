#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# glassbox triage on the planted bugs (bugs/bugs.c): many crashing inputs
# per bug under AFL++, libFuzzer and plain names give exactly one bucket
# per bug; repro.sh reproduces each from a clean shell; input.min is no
# larger and replays the same state; the flaky bug is flaky; a second
# triage adds to the report without duplicating buckets; bad inputs are
# notes, not failures; summary.sarif passes Microsoft's SARIF validator,
# and a broken copy does not.
# Usage: triage_e2e.sh BUILD_DIR BUGS_ASAN BUGS_AFL_ASAN BUGS_PLAIN
set -euo pipefail
BUILD=$1 ASAN=$2 AFL=$3 PLAIN=$4
GB=$BUILD/bin/glassbox
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gb-triage.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# js FILE EXPR: EXPR evaluated with d = the JSON in FILE, printed.
js() { node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const r = eval(process.argv[2]); console.log(typeof r === "object" ? JSON.stringify(r) : r);' "$1" "$2"; }
command -v node >/dev/null || fail "node is needed to read the JSON (scripts/build installs it)"

# ---- inputs: 6 bugs x several inputs, three engines' names --------------------
# bug letter -> expected type and state (innermost first, joined by " < ").
declare -A TYPE=(
  [H]="heap-buffer-overflow READ" [U]="heap-use-after-free READ"
  [N]="SEGV on unknown address WRITE" [O]="UBSan signed-integer-overflow"
  [A]="heap-buffer-overflow WRITE" [B]="heap-buffer-overflow WRITE")
declare -A STATE=(
  [H]="heap_read < LLVMFuzzerTestOneInput" [U]="use_after_free < LLVMFuzzerTestOneInput"
  [N]="null_write < LLVMFuzzerTestOneInput" [O]="add_overflow < LLVMFuzzerTestOneInput"
  [A]="store < path_a < LLVMFuzzerTestOneInput" [B]="store < path_b < LLVMFuzzerTestOneInput")
declare -A COUNT=()
SYNC=$WORK/sync LF=$WORK/lf PLAINDIR=$WORK/plain
mkdir -p "$SYNC/main/crashes" "$SYNC/glassbox/crashes" "$SYNC/main/queue" "$LF" "$PLAINDIR"
id=0
for bug in H U N O A B; do
  for k in 0 1 2 3; do
    data="$bug$(printf '\\x%02x' $k)$(head -c $((k * 7 + 3)) /dev/zero | tr '\0' x)"
    case $((k % 3)) in
      0) f="$SYNC/main/crashes/id:$(printf %06d $id),sig:06,src:000000,time:1,execs:9,op:havoc,rep:2" ;;
      1) printf "$data" >"$WORK/tmp"; f="$LF/crash-$(sha1sum <"$WORK/tmp" | cut -c1-40)" ;;
      2) f="$PLAINDIR/$bug-input-$k.bin" ;;
    esac
    printf "$data" >"$f"
    id=$((id + 1))
    COUNT[$bug]=$(( ${COUNT[$bug]:-0} + 1 ))
  done
done
# Glassbox's own instance too, with its README.txt, and non-inputs.
printf 'H\x01yyyyyyyyy' >"$SYNC/glassbox/crashes/id:000000,sig:06,src:000003,op:glassbox"
COUNT[H]=$(( ${COUNT[H]} + 1 ))
echo "Command line used to find this crash: ..." >"$SYNC/glassbox/crashes/README.txt"
printf 'queue entry' >"$SYNC/main/queue/id:000000,orig:seed"
printf 'fine' >"$PLAINDIR/no-longer-crashes"
printf 'Hhidden' >"$PLAINDIR/.hidden"
ln -s /etc/hostname "$PLAINDIR/link-out-of-tree"
mkdir "$PLAINDIR/subdir"
mkdir "$WORK/empty"

# ---- first triage: exactly one bucket per bug ------------------------------------------
R=$WORK/report
"$GB" triage -i "$SYNC" -i "$LF" -i "$PLAINDIR" -i "$WORK/empty" -i "$WORK/missing" -o "$R" \
  --jobs 2 -- "$ASAN" >"$WORK/out1" 2>"$WORK/err1" || fail "triage failed: $(cat "$WORK/err1")"
cat "$WORK/out1"
S=$R/summary.json
[ -f "$S" ] && [ -f "$R/summary.sarif" ] || fail "no summary.json / summary.sarif"
[ "$(js "$S" 'd.buckets.length')" = 6 ] || fail "want 6 buckets, got $(js "$S" 'd.buckets.map(b => b.type)')"
for bug in H U N O A B; do
  want_state=$(printf '%s' "${STATE[$bug]}" | sed 's/ < /","/g')
  n=$(js "$S" "d.buckets.filter(b => b.type === '${TYPE[$bug]}' &&
        JSON.stringify(b.state) === JSON.stringify([\"$want_state\"])).length")
  [ "$n" = 1 ] || fail "bug $bug: $n buckets of type '${TYPE[$bug]}' and state '${STATE[$bug]}'"
  cnt=$(js "$S" "d.buckets.find(b => b.type === '${TYPE[$bug]}' &&
        JSON.stringify(b.state) === JSON.stringify([\"$want_state\"])).count")
  [ "$cnt" = "${COUNT[$bug]}" ] || fail "bug $bug: count $cnt, want ${COUNT[$bug]}"
done
[ "$(js "$S" 'd.last_run.no_longer_crash')" = 1 ] || fail "the non-crashing input is not reported"
notes=$(js "$S" 'd.last_run.notes.map(n => n.path.split("/").pop() + ": " + n.what).join("\n")')
for want in "no-longer-crashes: no longer crashes" "link-out-of-tree: skipped: symbolic link" \
            "subdir: skipped: directory" "README.txt: skipped: not an input" \
            ".hidden: skipped: hidden" "empty: empty" "missing: missing"; do
  grep -qF "$want" <<<"$notes" || fail "summary notes lack '$want': $notes"
done
grep -q "missing" "$WORK/err1" || fail "no warning about the missing -i dir on stderr"
grep -q "queue" <<<"$(js "$S" 'd.last_run.notes.map(n => n.path).join(" ")')" &&
  fail "a queue entry was taken as a crash"
[ "$(js "$S" 'd.engine.version')" != "" ] || fail "no engine version"
# The table: one line per bucket with id, type, count, flaky.
[ "$(grep -c '^[0-9a-f]\{16\} ' "$WORK/out1")" = 6 ] || fail "table has not 6 bucket lines"

# ---- each bucket directory ---------------------------------------------------------------
for dir in "$R"/[0-9a-f]*/; do
  b=$(basename "$dir")
  for f in input input.min report.txt crash.json repro.sh; do
    [ -s "$dir/$f" ] || fail "$b/$f missing or empty"
  done
  C=$dir/crash.json
  [ "$(js "$C" 'd.id')" = "$b" ] || fail "$b: crash.json id"
  [ "$(js "$C" 'd.binary.build_id.length')" = 40 ] || fail "$b: no build id"
  [ "$(js "$C" 'd.frames.filter(f => f.in_state && f.file.endsWith("bugs.c") && f.line > 0).length > 0')" = true ] ||
    fail "$b: no state frame with file:line"
  [ "$(js "$C" 'd.sanitizer_options.ASAN_OPTIONS.includes("abort_on_error=1")')" = true ] || fail "$b: options"
  [ "$(js "$C" 'd.signal_name')" = SIGABRT ] || fail "$b: signal $(js "$C" 'd.signal_name')"
  [ "$(js "$C" 'd.flaky')" = false ] || fail "$b: flaky"
  [ "$(js "$C" 'd.inputs.length')" = "$(js "$C" 'd.count')" ] || fail "$b: inputs vs count"
  # input.min: no larger, and it replays the bucket's crash.
  [ "$(stat -c %s "$dir/input.min")" -le "$(stat -c %s "$dir/input")" ] || fail "$b: input.min larger"
  want="$(js "$C" 'd.type') @ $(js "$C" 'd.state.join(" < ")')"
  got=$("$GB" replay "$dir/input.min" -- "$ASAN" | sed 's/^[^:]*: crash SIGABRT //; s/ ([^@]*)$//') || true
  [ "$got" = "$want" ] || fail "$b: input.min replays as '$got', want '$want'"
  # repro.sh from a clean shell: non-zero with the expected report; 0 on a harmless input.
  set +e
  env -i bash "$dir/repro.sh" >"$WORK/repro.out" 2>&1; st=$?
  env -i bash "$dir/repro.sh" "$PLAINDIR/no-longer-crashes" >/dev/null 2>&1; st_ok=$?
  set -e
  [ "$st" -ge 128 ] || fail "$b: repro.sh exited $st: $(tail -3 "$WORK/repro.out")"
  grep -q "repro.sh: crashed" "$WORK/repro.out" || fail "$b: repro.sh says no crash"
  first_fn=$(js "$C" 'd.state[0]')
  grep -q "in $first_fn .*bugs.c" "$WORK/repro.out" || fail "$b: repro.sh report is not symbolized at $first_fn"
  [ "$st_ok" = 0 ] || fail "$b: repro.sh on a harmless input exited $st_ok"
done
echo "PASS: 6 bugs, 6 buckets, repro.sh and input.min of each"

# ---- the flaky bug, added to the same report ---------------------------------------------
mkdir "$WORK/flaky"
printf 'F1' >"$WORK/flaky/crash-f1"
printf 'F22' >"$WORK/flaky/id:000009,sig:06,src:000001"
GB_TEST_FLAKY_COUNTER=$WORK/counter "$GB" triage -i "$WORK/flaky" -o "$R" -- "$ASAN" >"$WORK/out2" ||
  fail "triage of the flaky inputs failed"
[ "$(js "$S" 'd.buckets.length')" = 7 ] || fail "flaky: want 7 buckets, got $(js "$S" 'd.buckets.length')"
[ "$(js "$S" 'd.buckets.filter(b => b.type === "abort" && b.flaky && b.count === 2 &&
      b.state[0] === "flaky").length')" = 1 ] || fail "the flaky bug is not one flaky abort bucket: $(cat "$WORK/out2")"
grep -q "abort .* yes " "$WORK/out2" || fail "the table does not say flaky"
[ "$(js "$S" 'd.last_run.flaky')" = 2 ] || fail "last_run.flaky"
echo "PASS: the flaky bug is one flaky bucket"

# ---- incremental: more crashes, no duplicated buckets ----------------------------------------
mkdir "$WORK/more"
printf 'H\x02zzzzzzzzzzzzzzzzzzz' >"$WORK/more/new-heap"
printf 'B\x03' >"$WORK/more/crash-new-b"
cp "$PLAINDIR/H-input-2.bin" "$WORK/more/same-bytes-new-name"
before_h=$(js "$S" "d.buckets.find(b => b.type === '${TYPE[H]}').count")
before_b=$(js "$S" "d.buckets.find(b => b.state[1] === 'path_b').count")
# (--input=X and -iX, getopt's forms: both are inputs.)
"$GB" triage --input="$WORK/more" -i"$SYNC" -o "$R" --jobs=2 -- "$ASAN" >"$WORK/out3" || fail "third triage failed"
[ "$(js "$S" 'd.buckets.length')" = 7 ] || fail "incremental: $(js "$S" 'd.buckets.length') buckets, want 7"
[ "$(ls -d "$R"/[0-9a-f]*/ | wc -l)" = 7 ] || fail "incremental: bucket dirs duplicated"
[ "$(js "$S" "d.buckets.find(b => b.type === '${TYPE[H]}').count")" = $((before_h + 1)) ] ||
  fail "incremental: heap bucket count did not grow by one"
[ "$(js "$S" "d.buckets.find(b => b.state[1] === 'path_b').count")" = $((before_b + 1)) ] ||
  fail "incremental: path_b bucket count did not grow by one"
[ "$(js "$S" 'd.last_run.ran')" = 2 ] || fail "incremental: ran $(js "$S" 'd.last_run.ran'), want 2"
[ "$(js "$S" 'd.last_run.new_buckets')" = 0 ] || fail "incremental: new buckets"
[ "$(js "$S" 'd.totals.no_longer_crash')" = 1 ] || fail "totals forget the input that no longer crashes"
[ "$(js "$S" 'd.totals.triaged_inputs')" = "$(wc -l <"$R/.seen")" ] || fail "totals.triaged_inputs vs .seen"
hb=$(js "$S" "d.buckets.find(b => b.type === '${TYPE[H]}').id")
grep -q "new-heap" "$R/$hb/crash.json" || fail "incremental: the new input is not listed"
grep -q "H-input-2.bin" "$R/$hb/crash.json" || fail "incremental: earlier inputs forgotten"
[ "$(js "$R/$hb/crash.json" 'd.inputs.map(i => i.engine).sort().filter((e, k, a) => a.indexOf(e) === k).join(",")')" = \
  "afl,libfuzzer,plain" ] || fail "inputs do not say whose naming they had"
echo "PASS: a second triage adds to the buckets"

# ---- forkserver build: same buckets ------------------------------------------------------------
R2=$WORK/report-afl
"$GB" triage -i "$SYNC" -i "$LF" -i "$PLAINDIR" -o "$R2" --jobs 2 -- "$AFL" >/dev/null ||
  fail "triage through the forkserver failed"
[ "$(js "$R2/summary.json" 'd.binary.forkserver')" = true ] || fail "the AFL++ build ran without its forkserver"
[ "$(js "$R2/summary.json" 'd.buckets.map(b => b.id).sort().join(" ")')" = \
  "$(js "$S" 'd.buckets.filter(b => b.type !== "abort").map(b => b.id).sort().join(" ")')" ] ||
  fail "the forkserver build gives other buckets"
echo "PASS: the forkserver build gives the same buckets"

# ---- bad inputs: no sanitizer, no symbolizer, a hang ----------------------------------------------
mkdir "$WORK/bad"
printf 'N\x01' >"$WORK/bad/null1"; printf 'N\x02xx' >"$WORK/bad/null2"; printf 'T' >"$WORK/bad/hang"
"$GB" triage -i "$WORK/bad" -o "$WORK/r-plain" -t 500 -- "$PLAIN" >/dev/null 2>"$WORK/err4" ||
  fail "triage of a binary without sanitizers failed"
P=$WORK/r-plain/summary.json
grep -q "no sanitizer" "$WORK/err4" || fail "no warning about the missing sanitizer"
[ "$(js "$P" 'd.warnings.some(w => w.includes("no sanitizer"))')" = true ] || fail "summary lacks the sanitizer warning"
[ "$(js "$P" 'd.buckets.map(b => b.type).sort().join(",")')" = "signal SIGSEGV,timeout" ] ||
  fail "plain binary buckets: $(js "$P" 'd.buckets.map(b => b.type)')"
"$GB" triage -i "$WORK/bad" -o "$WORK/r-nosym" -t 500 --symbolizer /nonexistent/llvm-symbolizer -- "$ASAN" \
  >/dev/null 2>"$WORK/err5" || fail "triage without a symbolizer failed"
N=$WORK/r-nosym/summary.json
grep -q "no llvm-symbolizer" "$WORK/err5" || fail "no warning about the missing symbolizer"
[ "$(js "$N" 'd.buckets.length')" = 2 ] || fail "without symbolizer: $(js "$N" 'd.buckets.length') buckets, want 2"
[ "$(js "$N" 'd.buckets.find(b => b.type.startsWith("SEGV")).state[0].includes("+0x")')" = true ] ||
  fail "without symbolizer the state should be module+offset"
echo "PASS: no sanitizer, no symbolizer and a hang are reported, not fatal"

# ---- usage errors: one line, non-zero ----------------------------------------------------------------
expect_fail() { if "$@" >/dev/null 2>"$WORK/err"; then fail "$*: should fail"; fi
  [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "$*: want one error line: $(cat "$WORK/err")"; }
expect_fail "$GB" triage -o "$WORK/x" -- "$ASAN"
expect_fail "$GB" triage -i "$SYNC" -o "$WORK/x" -- /nonexistent/bin
expect_fail "$GB" triage -i "$SYNC" -o /proc/nope -- "$ASAN"
# A report another triage is writing is refused, and left as it was.
before=$(md5sum <"$S")
flock "$R/.lock" "$GB" triage -i "$WORK/more" -o "$R" -- "$ASAN" >/dev/null 2>"$WORK/err" &&
  fail "a locked report was written"
grep -q "another glassbox triage is writing" "$WORK/err" || fail "lock error: $(cat "$WORK/err")"
[ "$(md5sum <"$S")" = "$before" ] || fail "a locked report was changed"
# A torn .seen line (a crash while writing it, by hand) is skipped.
printf '{"sha1": "12' >>"$R/.seen"
"$GB" triage -i "$WORK/more" -o "$R" -- "$ASAN" >/dev/null || fail "a torn .seen line stopped triage"
[ "$(js "$S" 'd.last_run.duplicates')" = 3 ] || fail "after a torn .seen line: $(js "$S" 'd.last_run')"

# ---- SARIF: Microsoft's validator, installed into the build dir -------------------------------------
NPM=$BUILD/npm
MT=$NPM/node_modules/.bin/sarif-multitool
if [ ! -x "$MT" ]; then
  npm install --prefix "$NPM" --no-audit --no-fund --loglevel=error @microsoft/sarif-multitool@5.7.0 \
    >"$WORK/npm.log" 2>&1 || fail "npm install @microsoft/sarif-multitool failed: $(tail -5 "$WORK/npm.log")"
fi
# npm may not run the package's postinstall (which only sets the execute bit).
chmod u+x "$NPM"/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool 2>/dev/null || true
[ -x "$MT" ] || fail "sarif-multitool is not installed in $NPM"
# validate exits 0 even on errors: its own SARIF log says what it found.
sarif_errors() {
  rm -f "$WORK/val.sarif"
  "$MT" validate "$1" -o "$WORK/val.sarif" >"$WORK/val.out" 2>&1 || fail "sarif-multitool did not run: $(tail -5 "$WORK/val.out")"
  [ -s "$WORK/val.sarif" ] || fail "sarif-multitool wrote no log: $(tail -5 "$WORK/val.out")"
  js "$WORK/val.sarif" 'd.runs.map(r => (r.results || []).filter(x => x.level === "error").length).reduce((a, b) => a + b, 0)'
}
n=$(sarif_errors "$R/summary.sarif")
[ "$n" = 0 ] || fail "summary.sarif: $n validation errors: $(grep -i error "$WORK/val.out" | head -5)"
F=$R/summary.sarif
[ "$(js "$F" 'd.version')" = 2.1.0 ] || fail "SARIF version"
[ "$(js "$F" 'd.runs[0].results.length')" = 7 ] || fail "SARIF: not one result per bucket"
[ "$(js "$F" 'd.runs[0].results.every(r => r.ruleId === d.runs[0].tool.driver.rules[r.ruleIndex].id)')" = true ] ||
  fail "SARIF: ruleId and ruleIndex disagree"
[ "$(js "$F" 'd.runs[0].results.filter(r => r.locations[0].physicalLocation.artifactLocation.uri.endsWith("bugs.c") &&
      r.locations[0].physicalLocation.region.startLine > 0).length')" = 7 ] || fail "SARIF: a result lacks its source line"
# The same log with a required property gone must fail validation.
node -e 'const fs = require("fs"); const d = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  delete d.runs[0].results[0].message; delete d.runs[0].tool.driver.name;
  fs.writeFileSync(process.argv[2], JSON.stringify(d));' "$F" "$WORK/broken.sarif"
n=$(sarif_errors "$WORK/broken.sarif")
[ "$n" -ge 1 ] || fail "the validator accepted a SARIF log without message and driver name"
echo "PASS: summary.sarif validates; a broken one does not ($n errors)"
