#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# libspng's decode harnesses (harnesses/libspng) on every build kind; the
# checked one is fuzzed.
. "$2/tests/harnesses/lib.sh"
gb_harness_check libspng spng_decode
