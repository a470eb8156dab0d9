#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.found (issue 36): bench/found.sh on a sync dir made here. An AFL++
# queue entry rewritten long after it was found (a trim) counts from its
# instance's start_time plus its time: field; a crash file, a Glassbox
# worker's file and an entry of an instance without fuzzer_stats count
# from their mtimes; a time: field past the mtime (a resumed instance)
# does not make the entry later; a name with a space stays whole.
set -euo pipefail
SRC=$(cd "$1" && pwd)
fail() { echo "FAIL bench.found: $*" >&2; exit 1; }
# shellcheck source=tests/bench/syncdir.sh
. "$(dirname "$0")/syncdir.sh"
stats main $((T0 + 2))
stats glassbox $T0 worker
mk main/queue 'id:000001,src:000000,time:5000,execs:1,op:havoc' 900     # trimmed at 900 s: 7 s
mk main/queue 'id:000002,src:000001,time:99000000,execs:1,op:havoc' 40 # a stamp past the mtime: 40 s
mk main/queue 'id:000003,sync:glassbox,src:000001' 30                  # no time: field: 30 s
mk main/crashes 'id:000000,sig:06,src:000001,time:1000,op:havoc' 50     # a crash: its mtime
mk glassbox/queue 'id:000001,src:000000,op:gen,pos:3 two words' 12     # a space in the name
mk other/queue 'id:000001,src:000000,time:1000,op:havoc' 70            # no fuzzer_stats: 70 s
out=$("$SRC/bench/found.sh" "$S" | awk -v t0="$T0" -v s="$S/" '{ p = substr($0, index($0, " ") + 1); sub(s, "", p); printf "%d %s\n", $1 - t0, p }' | sort -k2)
want="12 glassbox/queue/id:000001,src:000000,op:gen,pos:3 two words
50 main/crashes/id:000000,sig:06,src:000001,time:1000,op:havoc
7 main/queue/id:000001,src:000000,time:5000,execs:1,op:havoc
40 main/queue/id:000002,src:000001,time:99000000,execs:1,op:havoc
30 main/queue/id:000003,sync:glassbox,src:000001
70 other/queue/id:000001,src:000000,time:1000,op:havoc"
[ "$out" = "$want" ] || fail "times:
$out
want:
$want"
if msg=$("$SRC/bench/found.sh" "$W/none" 2>&1); then fail "a missing dir was accepted"; fi
[ "$(wc -l <<<"$msg")" = 1 ] && grep -q "no such directory" <<<"$msg" || fail "missing dir: '$msg'"
echo "PASS bench.found: AFL++ entries from their time: fields, the rest from mtimes"
