#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Atomic publishing (issue 13): every file a peer may read (queue/,
# crashes/, hangs/, fuzzer_stats, the clause and answer files) reaches its
# place by rename or link from a stage file, never by writing it where it
# lies. The demo is fuzzed under strace (the glassbox process only, not the
# targets), and every open for writing under OUT is checked against the
# few that may write in place: stage files, plot_data, expansions.tsv and
# .expanded (whole
# lines appended, as AFL++ appends its plot_data), the private
# .cur_input files, and the claims (created empty with O_EXCL).
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || fail "strace is missing (scripts/build installs it)"
OUT=$WORK/out
# LeakSanitizer cannot run under ptrace: a sanitized glassbox (scripts/test
# --sanitize) is checked for leaks by the other tests.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
strace -qq -y -e trace=openat,open,creat,rename,renameat,renameat2,link,linkat -o "$WORK/st.raw" \
  "$BIN/glassbox" fuzz -q -V 6 -i "$SRC/harnesses/demo/seeds" -o "$OUT" -- "$H/demo.trace" \
  "$H/demo.cov" 2>"$WORK/err" || fail "glassbox fuzz under strace failed: $(cat "$WORK/err")"
# Files are opened, linked and renamed by directory descriptor (-y names
# them): "openat(5</d>, \"f\"" becomes "openat(\"/d/f\"", so every name
# below is a whole path.
sed -E -e 's/AT_FDCWD<[^>]*>/AT_FDCWD/g' -e 's/[0-9]+<([^>]*)>, "([^"]*)"/"\1\/\2"/g' \
  "$WORK/st.raw" >"$WORK/st"
in_place=$(grep -E '^(openat\((AT_FDCWD, )?|open\(|creat\()"'"$OUT"'/' "$WORK/st" |
  grep -E 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND|^creat' |
  grep -vE '"[^"]*/(\.tmp/[^"]*|\.gb-tmp\.[^"/]*|plot_data|expansions\.tsv|\.expanded|\.cur_input|\.cur_trace_input)"' |
  grep -vE '"[^"]*/\.glassbox-claims/[^"/]*", O_WRONLY\|O_CREAT\|O_EXCL' || true)
[ -z "$in_place" ] || fail "files written where peers read them: $in_place"
queued=$(grep -cE '^(link|linkat|rename|renameat2?)\(.*"'"$OUT"'/glassbox/queue/id:' "$WORK/st" || true)
stats=$(grep -cE '^(rename|renameat2?)\(.*"'"$OUT"'/glassbox/fuzzer_stats"' "$WORK/st" || true)
crashes=$(grep -cE '^(link|linkat|rename|renameat2?)\(.*"'"$OUT"'/glassbox/crashes/id:' "$WORK/st" || true)
[ "$queued" -ge 10 ] && [ "$queued" -eq "$(count_ids "$OUT/glassbox/queue")" ] ||
  fail "$queued queue entries published by rename or link, $(count_ids "$OUT/glassbox/queue") in queue/"
[ "$stats" -ge 1 ] || fail "fuzzer_stats was never replaced by a rename"
[ "$crashes" -eq "$(count_ids "$OUT/glassbox/crashes")" ] ||
  fail "$crashes crashes published by rename or link, $(count_ids "$OUT/glassbox/crashes") in crashes/"
pass "$queued queue entries, $crashes crashes and $stats fuzzer_stats published by rename or link; nothing written in place"
