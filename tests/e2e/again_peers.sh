#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Beside an active peer, --again-seconds also caps how much a retry's
# timeouts grow (GB_AGAIN_PATIENCE_PEERS, generational/README.md): one
# doubling in all, not one per round. factor.c's 24 gates all run to the
# solver's time limit, so a retry part's wall time follows its timeouts:
# a lone worker's third round takes about 4 times its first (8 against 2
# times the limit). With the cap, rounds 2 and 3 ask round 1's queries
# at round 1's limit, and the solver's answer cache already holds them as
# timeouts at that limit, so they take next to nothing. A fake peer has
# queued an input before the worker starts, so it counts as active from
# the first sync on. --again-seconds 1000 turns the rule on without ever
# cutting a part, so only the cap is at work.
. "$(dirname "$0")/lib.sh"
P=$BUILD/tests/e2e SYNC=$WORK/sync
mkdir -p "$WORK/seeds" "$SYNC/fake/queue"
head -c 192 /dev/zero | tr '\0' A >"$WORK/seeds/a"
head -c 192 /dev/zero | tr '\0' C >"$SYNC/fake/queue/id:000000,orig:c"
"$BIN/glassbox" fuzz -q --solver-timeout 60 --again-seconds 1000 --status-every 200 -V 60 \
  -i "$WORK/seeds" -o "$SYNC" -- "$P/factor.trace" "$P/factor.cov" 2>"$WORK/err" &
pid=$!
X=$SYNC/glassbox/expansions.tsv
# the seed's retry parts as "part ms flips timeouts"
seed_retries() { awk -F'\t' 'NR>1 && $4=="seed" && $5 ~ /^retry/ {print $5, $2, $9, $12}' "$X" 2>/dev/null; }
for _ in $(seq 1 600); do
  seed_retries | grep -q '^retry3 ' && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -INT "$pid" 2>/dev/null
wait "$pid" || fail "fuzz exited $?: $(tail -2 "$WORK/err")"
rows=$(seed_retries)
shown=$(tr '\n' ';' <<<"$rows")
grep -q '^retry3 ' <<<"$rows" || fail "no third retry round of the seed: $shown $(tail -2 "$WORK/err")"
find "$SYNC/glassbox/queue" -name '*sync:fake*' | grep -q . || fail "the fake peer's input was not imported"
read -r _ ms1 f1 t1 < <(grep '^retry1 ' <<<"$rows")
read -r _ ms3 f3 t3 < <(grep '^retry3 ' <<<"$rows")
# both rounds must be the slow kind this measure rests on: every flip a timeout
[ "$f1" -ge 20 ] && [ "$t1" -eq "$f1" ] && [ "$f3" -eq "$f1" ] && [ "$t3" -eq "$f3" ] ||
  fail "the seed's retries were not all timeouts: $shown"
[ "$ms3" -lt $((ms1 * 3 / 2)) ] ||
  fail "the third retry round took ${ms3} ms against the first's ${ms1} ms (uncapped: ~4 times): $shown"
pass "beside a peer, the seed's third retry round took ${ms3} ms, its first ${ms1} ms ($f3 timeouts each)"
