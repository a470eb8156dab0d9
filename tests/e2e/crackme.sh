#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Acceptance: an 8-byte magic, a table-driven CRC-32 over the next 8 bytes
# and two specific byte values are cracked from an all-zero seed within
# 60 s. $3 = harness name (crackme or crackme-O0).
. "$(dirname "$0")/lib.sh"
name=$3
start=$(date +%s%N)
"$BIN/glassbox" fuzz -q -V 60 -i "$SRC/harnesses/crackme/seeds" -o "$WORK/out" -- \
  "$H/$name.trace" "$H/$name.cov"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
S=$WORK/out/glassbox/fuzzer_stats
[ "$(stat_of "$S" saved_crashes)" -ge 1 ] || fail "$name: no crash found in 60 s ($(stat_of "$S" execs_done) execs)"
replay_crashes "$WORK/out/glassbox/crashes" "$H/$name.cov"
f=$(ls "$WORK"/out/glassbox/crashes/id:* | head -1)
magic=$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')
expect_eq magic "$magic" 894742580d0a1a0a
pass "$name: cracked in ${ms} ms wall, first crash after $(stat_of "$S" first_crash_ms) ms, $(stat_of "$S" execs_done) execs"
