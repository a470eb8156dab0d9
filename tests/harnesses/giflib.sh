#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# giflib's DGifSlurp harness (harnesses/giflib) on every build kind.
. "$2/tests/harnesses/lib.sh"
gb_harness_check giflib gif_slurp
