#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 35: a harness that defines the sanitizers' default-option hooks
# and LLVMFuzzerInitialize (many real harnesses do) links in every build
# kind of `glassbox build`, each build runs it, and the harness's own
# defaults win over the runtime's (its detect_leaks=0 lets a leak pass).
. "$(dirname "$0")/lib.sh"
cat >"$WORK/hooks.c" <<'C'
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
const char *__asan_default_options(void) { return "detect_leaks=0"; }
const char *__ubsan_default_options(void) { return "print_stacktrace=1"; }
const char *__lsan_default_options(void) { return "report_objects=1"; }
static int inited;
int LLVMFuzzerInitialize(int *argc, char ***argv) { (void)argc; (void)argv; inited = 1; return 0; }
static void *volatile kept;
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
  if (!inited) { fprintf(stderr, "LLVMFuzzerInitialize did not run\n"); abort(); }
  if (n >= 2 && d[0] == 'L' && d[1] == 'K') { kept = malloc(64); kept = 0; }
  if (n >= 2 && d[0] == 'H' && d[1] == 'K') abort();
  return 0;
}
C
"$BIN/glassbox" build -o "$WORK/out" "$WORK/hooks.c" >/dev/null 2>"$WORK/err" ||
  fail "a harness with its own hooks does not build: $(cat "$WORK/err"; tail -3 "$WORK/out/hooks.build.log")"
for b in trace cov lf asan afl cmplog; do [ -x "$WORK/out/hooks.$b" ] || fail "no hooks.$b"; done
printf 'ok' >"$WORK/ok"
printf 'LK' >"$WORK/leak"
printf 'HK' >"$WORK/crash"
for b in trace cov asan afl cmplog; do
  as_target "$WORK/out/hooks.$b" "$WORK/ok" >/dev/null 2>&1 || fail "hooks.$b fails on a harmless input (LLVMFuzzerInitialize?)"
  if as_target "$WORK/out/hooks.$b" "$WORK/crash" >/dev/null 2>&1; then fail "hooks.$b does not crash"; fi
done
as_target "$WORK/out/hooks.lf" -runs=1 "$WORK/ok" >/dev/null 2>&1 || fail "hooks.lf does not run"
# The harness's detect_leaks=0, not the replay build's own defaults
# (tracer/rt/san_defaults.c, which keep an abort's stack: e2e.build).
as_target "$WORK/out/hooks.asan" "$WORK/leak" >/dev/null 2>"$WORK/leak.txt" ||
  fail "hooks.asan reports a leak its harness's defaults turn off: $(head -3 "$WORK/leak.txt")"
pass "hooks: a harness's own sanitizer hooks and LLVMFuzzerInitialize link and run in every build"
