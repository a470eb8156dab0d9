#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Flip selection from the static CFG (docs/cfg-format.md) on cfgskip.c:
# seeds AB. and XY. cover both diamonds. The first expansion flips the
# gate first (its abort block is the one uncovered block beside the path:
# the frontier goes first, generational/README.md), and that one child
# crashes; after that every flip leads into covered code: the first
# seed's other 2 flips and the other seed's 3 are skipped (before the
# frontier went first, path order made 3 children and skipped 6). With --no-cfg, or
# on a cov build stripped of its .gb_cfg section (and a trace build
# likewise), every flip is solved; a corrupt section is one line of error.
# Then cfgdisp.c, a decoder that calls handlers through a table of
# function pointers beside an address-taken logger of another type.
. "$(dirname "$0")/lib.sh"
P=$BUILD/tests/e2e
mkdir -p "$WORK/seeds"
printf 'AB.' >"$WORK/seeds/1"
printf 'XY.' >"$WORK/seeds/2"
run() { # run OUT TRACE COV [options]: fuzz to the end, stderr to OUT.err
  local out=$1 t=$2 c=$3
  shift 3
  "$BIN/glassbox" fuzz -q "$@" -i "$WORK/seeds" -o "$WORK/$out" -- "$t" "$c" 2>"$WORK/$out.err" ||
    fail "fuzz $out: $(cat "$WORK/$out.err")"
}

run cfg "$P/cfgskip.trace" "$P/cfgskip.cov"
S=$WORK/cfg/glassbox/fuzzer_stats
expect_eq flips_skipped_cfg "$(stat_of "$S" flips_skipped_cfg)" 5
expect_eq children_generated "$(stat_of "$S" children_generated)" 1
expect_eq saved_crashes "$(stat_of "$S" saved_crashes)" 1
blocks=$(stat_of "$S" blocks_covered)
pass "cfg: 5 flips skipped, 1 child, the abort found"

run nocfg "$P/cfgskip.trace" "$P/cfgskip.cov" --no-cfg
S=$WORK/nocfg/glassbox/fuzzer_stats
expect_eq flips_skipped_cfg "$(stat_of "$S" flips_skipped_cfg)" 0
expect_eq children_generated "$(stat_of "$S" children_generated)" 12
expect_eq blocks_covered "$(stat_of "$S" blocks_covered)" "$blocks"
pass "--no-cfg: every flip solved (12 children), the same $blocks blocks covered"

objcopy --remove-section=.gb_cfg "$P/cfgskip.trace" "$WORK/old.trace"
objcopy --remove-section=.gb_cfg "$P/cfgskip.cov" "$WORK/old.cov"
run old "$WORK/old.trace" "$WORK/old.cov"
expect_eq flips_skipped_cfg "$(stat_of "$WORK/old/glassbox/fuzzer_stats" flips_skipped_cfg)" 0
grep -q 'no static CFG' "$WORK/old.err" || fail "no note about the missing CFG: $(cat "$WORK/old.err")"
pass "binaries without .gb_cfg: nothing skipped, and a note says why"

# Only the cov build lost it: the trace build's copy is used.
run half "$P/cfgskip.trace" "$WORK/old.cov"
expect_eq flips_skipped_cfg "$(stat_of "$WORK/half/glassbox/fuzzer_stats" flips_skipped_cfg)" 5
pass "cov build without .gb_cfg: the trace build's CFG is used"

printf 'GBCF\001\000\000\000\003\000\000\000' >"$WORK/v1.bin"
objcopy --update-section .gb_cfg="$WORK/v1.bin" "$P/cfgskip.cov" "$WORK/bad.cov"
set +e
"$BIN/glassbox" fuzz -q -i "$WORK/seeds" -o "$WORK/bad" -- "$P/cfgskip.trace" "$WORK/bad.cov" \
  2>"$WORK/bad.err"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a bad .gb_cfg: exit status $rc, want 1"
[ "$(wc -l <"$WORK/bad.err")" -eq 1 ] || fail "a bad .gb_cfg: want one line: $(cat "$WORK/bad.err")"
# A section written before signatures (version 1): rebuild, says the message.
grep -q 'unsupported .gb_cfg version 1 (this glassbox reads 2 to 3): rebuild the target' \
  "$WORK/bad.err" || fail "a bad .gb_cfg: $(cat "$WORK/bad.err")"
[ ! -e "$WORK/bad" ] || fail "a bad .gb_cfg left an output directory"
pass "$(cat "$WORK/bad.err")"

# cfgdisp.c from "xBD0": once the handlers and the logger ran, 3 flips
# lead only into covered code (through the dispatch, back out of it, and
# out of the harness) and are skipped; the campaign covers what --no-cfg
# covers. Before signatures and the returns of .gb_cfg version 2, an
# indirect call or a return from a non-static function made everything
# address-taken reachable, and nothing was skipped here.
mkdir -p "$WORK/dseeds"
printf 'xBD0' >"$WORK/dseeds/1"
rund() { # rund OUT [options]
  local out=$1
  shift
  "$BIN/glassbox" fuzz -q "$@" -i "$WORK/dseeds" -o "$WORK/$out" -- "$P/cfgdisp.trace" \
    "$P/cfgdisp.cov" 2>"$WORK/$out.err" || fail "fuzz $out: $(cat "$WORK/$out.err")"
}
rund disp
rund dispno --no-cfg
S=$WORK/disp/glassbox/fuzzer_stats
N=$WORK/dispno/glassbox/fuzzer_stats
expect_eq flips_skipped_cfg "$(stat_of "$S" flips_skipped_cfg)" 3
expect_eq execs_done "$(stat_of "$S" execs_done)" 7
expect_eq "execs_done, --no-cfg" "$(stat_of "$N" execs_done)" 8
expect_eq blocks_covered "$(stat_of "$S" blocks_covered)" "$(stat_of "$N" blocks_covered)"
pass "cfgdisp: 3 flips skipped, 7 runs instead of 8, the same $(stat_of "$S" blocks_covered) blocks"
