#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 35: a failing step inside a library's lib_build fails the build.
# debsrc.sh once ran lib_build on the left of "||", where bash ignores
# set -e, so a failed ./configure or a guard like expat's XML_DTD check
# went unnoticed and the build carried on.
set -euo pipefail
. "$(dirname "$0")/../../harnesses/lib/debsrc.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
GB_CC=cc GB_CFLAGS=-O1 GB_ENV=(GB_TEST_VAR=1)
# A step fails in the middle: the steps after it must not run.
lib_build() { false; echo "after the failure" >after; }
if gb_run_lib_build "$work" "$work/log"; then fail "a failing step in lib_build passed"; fi
[ ! -e "$work/after" ] || fail "lib_build went on after a failing step"
# A failing command inside a pipeline fails it too (pipefail).
lib_build() { false | cat; echo x >after2; }
if gb_run_lib_build "$work" "$work/log"; then fail "a failing pipeline in lib_build passed"; fi
[ ! -e "$work/after2" ] || fail "lib_build went on after a failing pipeline"
# A good build passes, in its directory, with the environment exported.
lib_build() { [ "$CC" = cc ] && [ "$GB_TEST_VAR" = 1 ] && [ "$JOBS" -ge 1 ]; echo built >out; }
gb_run_lib_build "$work" "$work/log" || fail "a good lib_build failed: $(cat "$work/log")"
[ "$(cat "$work/out")" = built ] || fail "lib_build did not run in its directory"
# The caller's errexit is back on afterwards.
case $- in *e*) ;; *) fail "set -e is off after gb_run_lib_build" ;; esac
echo "PASS: debsrc.sh: a failing step in lib_build fails the build"
