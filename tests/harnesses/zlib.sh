#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# zlib's inflate and gzip harnesses (harnesses/zlib) on every build kind.
. "$2/tests/harnesses/lib.sh"
gb_harness_check zlib zlib_inflate zlib_gzip
