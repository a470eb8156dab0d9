#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cJSON's parse-and-print harness (harnesses/cjson) on every build kind.
. "$2/tests/harnesses/lib.sh"
gb_harness_check cjson cjson_parse
