#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# libFuzzer as a peer: `demo.lf CORPUS -reload=1` and `glassbox fuzz
# --libfuzzer-dir CORPUS` trade inputs both ways. Glassbox's queue entries
# appear in CORPUS under their SHA-1, libFuzzer reloads them with new
# coverage (RELOAD lines), and Glassbox imports libFuzzer's files.
. "$(dirname "$0")/lib.sh"
budget=${GB_LF_BUDGET:-20}
mkdir -p "$WORK/corpus"
timeout $((budget + 30)) "$H/demo.lf" "$WORK/corpus" "$SRC/harnesses/demo/seeds" -reload=1 \
  -max_total_time="$budget" -artifact_prefix="$WORK/" >"$WORK/lf.log" 2>&1 &
lf=$!
"$BIN/glassbox" fuzz -q -i "$SRC/harnesses/demo/seeds" -o "$WORK/sync" \
  --libfuzzer-dir "$WORK/corpus" -V "$budget" -- "$H/demo.trace" "$H/demo.cov"
wait "$lf" || true # libFuzzer exits non-zero if it crashes; either way is fine here
Q=$WORK/sync/glassbox/queue
n_imp=$(count_ids "$Q" 'sync:libfuzzer')
[ "$n_imp" -ge 1 ] || fail "glassbox imported nothing from the libFuzzer corpus"
exported=0
for f in "$Q"/id:*; do
  case "$f" in *sync:libfuzzer*) continue ;; esac
  sha=$(sha1sum <"$f" | cut -c1-40)
  [ -f "$WORK/corpus/$sha" ] && exported=$((exported + 1))
done
[ "$exported" -ge 1 ] || fail "none of glassbox's queue entries is in the libFuzzer corpus under its SHA-1"
reloads=$(grep -c 'RELOAD' "$WORK/lf.log" || true)
[ "$reloads" -ge 1 ] || fail "libFuzzer never reloaded new coverage from the corpus: $(tail -3 "$WORK/lf.log")"
pass "glassbox imported $n_imp libFuzzer inputs; $exported of its own are in the corpus; libFuzzer reloaded new coverage $reloads times"
