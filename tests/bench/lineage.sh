#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.lineage (issue 36): bench/lineage.sh on a sync dir made here. An
# AFL++ find descended from the worker's input through an import counts in
# the worker's line (direct when the import is its parent, through a
# splice after that); a find the AFL++ time: field puts in one window
# counts there whatever its mtime (AFL++ rewrites files it trims); an
# import's time is capped by the next find's; --end leaves out what came
# later; a cycle in the names ends;
# an instance that is a symlink or has a name outside [A-Za-z0-9._-] is
# left out; --ancestors lists a crash's ancestors with hostile characters
# escaped, and an unknown file is refused with one line.
set -euo pipefail
SRC=$(cd "$1" && pwd)
fail() { echo "FAIL bench.lineage: $*" >&2; exit 1; }
# shellcheck source=tests/bench/syncdir.sh
. "$(dirname "$0")/syncdir.sh"
stats main $T0
stats glassbox $T0 worker
stats lent1 $((T0 + 300))
mk main/queue 'id:000000,time:0,execs:0,orig:a' 0
mk main/queue 'id:000001,src:000000,time:5000,execs:1,op:havoc,rep:2' 2900 # found at 5 s, trimmed later
mk main/queue 'id:000002,sync:glassbox,src:000001' 3000                     # capped at 700 s by the next find
mk main/queue 'id:000003,src:000002,time:700000,execs:9,op:havoc,rep:2' 700
mk main/queue 'id:000004,src:000003+000001,time:1300000,execs:9,op:splice,rep:2' 1300
mk main/queue 'id:000005,src:000006,time:2000000,execs:9,op:havoc,rep:2' 2000 # a cycle
mk main/queue 'id:000006,src:000005,time:2001000,execs:9,op:havoc,rep:2' 2001
mk main/crashes 'id:000000,sig:06,src:000004,time:1400000,execs:9,op:havoc,rep:2' 1400
mk glassbox/queue 'id:000000,orig:a' 0
mk glassbox/queue 'id:000001,src:000000,op:gen,pos:3,+cov' 10
mk lent1/queue 'id:000000,time:0,execs:0,orig:a' 300
mk lent1/queue 'id:000001,src:000000,time:100000,execs:9,op:havoc,rep:2' 400
# Left out: a symlinked instance and one with a hostile name.
mkdir -p "$W/elsewhere/queue"
echo x >"$W/elsewhere/queue/id:000000,src:000000,time:1000,op:havoc"
ln -s "$W/elsewhere" "$S/link"
stats 'pe%cent' $T0
mk 'pe%cent/queue' 'id:000000,src:000000,time:1000,op:havoc' 1

out=$("$SRC/bench/lineage.sh" "$S" --window 600 2>"$W/err") || fail "lineage.sh failed: $(cat "$W/err")"
want='| 0-600 | 2 | 0 | 0 | 0 | 0 | 0 | 0 |
| 600-1200 | 1 | 1 | 1 | 1 | 0 | 0 | 0 |
| 1200-1800 | 1 | 1 | 0 | 0 | 1 | 1 | 0 |
| 1800-2400 | 2 | 0 | 0 | 0 | 0 | 0 | 0 |
| all | 6 | 2 | 1 | 1 | 1 | 1 | 0 |'
[ "$(grep '^| [0-9a]' <<<"$out")" = "$want" ] || fail "windows:
$out
want:
$want"
grep -q "left out the instance 'pe%cent'" "$W/err" || fail "the hostile instance was not noted: $(cat "$W/err")"
out=$("$SRC/bench/lineage.sh" "$S" --window 600 --end 1800 2>/dev/null) || fail "lineage.sh --end failed"
[ "$(grep '^| all' <<<"$out")" = '| all | 4 | 2 | 1 | 1 | 1 | 1 | 0 |' ] ||
  fail "--end 1800 still counts what came after: $(grep '^| all' <<<"$out")"

mv "$S/main/crashes/id:000000,sig:06,src:000004,time:1400000,execs:9,op:havoc,rep:2" \
  "$S/main/crashes/id:000000,sig:06,src:000004,time:1400000,op:x|y\`z"
out=$("$SRC/bench/lineage.sh" "$S" --ancestors 'main/crashes/id:000000,sig:06,src:000004,time:1400000,op:x|y`z') ||
  fail "--ancestors failed"
rows=$(grep -c '^| [0-9]' <<<"$out")
[ "$rows" = 8 ] || fail "--ancestors: $rows rows (want 8):
$out"
[ "$(grep -c '| yes | yes |$' <<<"$out")" = 2 ] || fail "--ancestors: not 2 inputs of the worker's:
$out"
grep -qF '| 1400.0 | main/crashes/id:000000,sig:06,src:000004,time:1400000,op:x\|y\`z |  | yes |' <<<"$out" ||
  fail "--ancestors: the crash's row is missing or unescaped:
$out"
rm -r "$S/pe%cent"
if msg=$("$SRC/bench/lineage.sh" "$S" --ancestors 'main/queue/id:999999' 2>&1); then fail "an unknown file was accepted"; fi
[ "$(wc -l <<<"$msg")" = 1 ] && grep -q "no such queue or crash file" <<<"$msg" || fail "unknown file: '$msg'"
echo "PASS bench.lineage: finds in the worker's line by window, times from time: fields, hostile names left out or escaped"
