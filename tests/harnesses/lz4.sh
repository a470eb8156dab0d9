#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lz4's frame harnesses (harnesses/lz4) on every build kind; the checked
# one is fuzzed.
. "$2/tests/harnesses/lib.sh"
gb_harness_check lz4 lz4_frame
