#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Inputs expanded again wait for first expansions (issue 36;
# generational/README.md): with --again-seconds 1, a retry round's part
# that has run a second stops when an input waits for its first
# expansion, that input is expanded, and the retry goes on later with the
# flips it had left. factor.c's 24 gates time out and make no child, so a
# lone seed's worker does nothing but retry rounds, each longer than the
# last (2, 4, 8 times the timeout). Once the third round has begun, a
# fake peer queues an input; the worker reads it within its 5 s sync, so
# the retry part it is in must stop for it, before its 24 flips.
. "$(dirname "$0")/lib.sh"
P=$BUILD/tests/e2e SYNC=$WORK/sync
mkdir -p "$WORK/seeds" "$SYNC/fake/queue"
head -c 192 /dev/zero | tr '\0' A >"$WORK/seeds/a"
"$BIN/glassbox" fuzz -q --solver-timeout 60 --again-seconds 1 --status-every 200 -V 40 \
  -i "$WORK/seeds" -o "$SYNC" -- "$P/factor.trace" "$P/factor.cov" 2>"$WORK/err" &
pid=$!
S=$SYNC/glassbox/fuzzer_stats
for _ in $(seq 1 400); do
  [ "$(stat_of "$S" retry_rounds 2>/dev/null)" -ge 3 ] 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
[ "$(stat_of "$S" retry_rounds 2>/dev/null)" -ge 3 ] 2>/dev/null ||
  { kill "$pid" 2>/dev/null; fail "no third retry round: $(tail -2 "$WORK/err")"; }
head -c 192 /dev/zero | tr '\0' C >"$SYNC/fake/queue/.tmp"
mv "$SYNC/fake/queue/.tmp" "$SYNC/fake/queue/id:000000,orig:c"
wait "$pid" || fail "fuzz exited $?: $(tail -2 "$WORK/err")"

# the rows as "input origin part flips"
rows=$(awk -F'\t' 'NR>1 {print $3, $4, $5, $9}' "$SYNC/glassbox/expansions.tsv")
shown=$(tr '\n' ';' <<<"$rows")
yielded=$(stat_of "$S" expansions_yielded)
[ "${yielded:-0}" -ge 1 ] || fail "expansions_yielded is '$yielded': $shown"
# the import's first expansion comes right after a seed's retry part cut short
read -r q part flips < <(awk '$2=="import" && $3=="first" {print p; exit} {p=$1" "$3" "$4}' \
  <<<"$rows")
[[ "$part" == retry* ]] && [ "${flips:-24}" -lt 24 ] ||
  fail "the import's first expansion did not follow a retry part cut short: $shown"
# and the seed's retry went on later with the flips it had left
awk -v q="$q" '$1==q && $3=="resumed"' <<<"$rows" | grep -q . ||
  fail "input $q's cut retry was not resumed: $shown"
pass "a retry part ($part of input $q) stopped after $flips of 24 flips for the import's first expansion, and went on later"
