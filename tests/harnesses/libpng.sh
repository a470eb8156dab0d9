#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# libpng's read harnesses (harnesses/libpng) on every build kind; the
# checked one is fuzzed.
. "$2/tests/harnesses/lib.sh"
gb_harness_check libpng png_read
