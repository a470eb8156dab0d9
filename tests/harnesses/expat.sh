#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Expat's XML_Parse harness (harnesses/expat) on every build kind.
. "$2/tests/harnesses/lib.sh"
gb_harness_check expat expat_parse
