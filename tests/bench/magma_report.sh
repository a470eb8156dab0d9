#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench.magma_report (issue 36): bench/magma/report.sh on a results dir
# made here: Magma's rule (a run that did not trigger a bug counts at its
# length in the median), runs from two sessions (rows with and without
# the commit column), a hostile bug name escaped in the Markdown, and a
# dir that is not run.sh's refused with one line.
set -euo pipefail
SRC=$(cd "$1" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/gb-magma-report.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL bench.magma_report: $*" >&2; exit 1; }
R=$SRC/bench/magma/report.sh
{
  printf 'target\tconfig\trep\tseconds\tbug\treached\ttriggered\tfirst_trigger_s\tcommit\n'
  printf 't\tafl\t1\t3600\tB1\tyes\tyes\t100\n'      # an older row: no commit
  printf 't\tafl\t2\t3600\tB1\tyes\tno\tNA\tc0ffee1\n'
  printf 't\tafl\t3\t3600\tB1\tyes\tyes\t300\tc0ffee1\n'
  printf 't\tafl+glassbox\t1\t3600\tB1\tyes\tyes\t10\tc0ffee2\n'
  printf 't\tafl+glassbox\t1\t3600\tB|2\tno\tno\tNA\tc0ffee2\n'
  printf 't\tafl\t1\t3600\tB|2\tyes\tno\tNA\n'
} >"$W/bugs.tsv"
"$R" "$W" >"$W/out.md" || fail "report.sh failed"
row() { awk -F'\t' -v c="$1" -v b="$2" '$2 == c && $3 == b { print $4, $5, $6, $7 }' "$W/summary.tsv"; }
[ "$(row afl B1)" = "3 3 2 300.0" ] || fail "afl B1: '$(row afl B1)', want runs 3, reached 3, triggered 2, median 300 (100, 300, 3600)"
[ "$(row afl+glassbox B1)" = "1 1 1 10.0" ] || fail "afl+glassbox B1: '$(row afl+glassbox B1)'"
[ "$(row afl 'B|2')" = "1 1 0 3600.0" ] || fail "afl B|2: '$(row afl 'B|2')', want the run's length"
grep -qF '| B1 | 2/3 | 300.0 | 3/3 | 1/1 | 10.0 | 1/1 |' "$W/out.md" || fail "B1's Markdown row: $(grep 'B1' "$W/out.md")"
grep -qF '| B\|2 | 0/1 | - | 1/1 | 0/1 | - | 0/1 |' "$W/out.md" || fail "a | in a bug's name is not escaped: $(grep 'B.2' "$W/out.md")"
grep -qF 'afl rep 2: 3600 s, commit c0ffee1' "$W/out.md" || fail "the runs' commits are not listed"
"$R" "$W" --only-triggered | grep -qF 'B\|2' && fail "--only-triggered kept a bug no run triggered"
mkdir "$W/bad" && printf 'a\tb\n' >"$W/bad/bugs.tsv"
if msg=$("$R" "$W/bad" 2>&1); then fail "a bugs.tsv of another form was accepted"; fi
[ "$(wc -l <<<"$msg")" = 1 ] && grep -q "not run.sh's header" <<<"$msg" || fail "bad dir: '$msg'"
echo "PASS bench.magma_report: Magma's median, commits per run, escaping, a bad dir refused"
