#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Seeds for the cJSON harness: small JSON texts, one per construct (every
# value type, escapes, \u with a surrogate pair, numbers with exponents,
# nesting, trailing bytes after the value). Usage: mkseeds.sh DIR
set -euo pipefail
d=$1/cjson_parse
mkdir -p "$d"
printf '%s' '{"name":"glassbox","n":42,"pi":3.14159,"ok":true,"no":false,"none":null,"list":[1,2,3]}' >"$d/object.json"
printf '%s' '[[], {}, [[1, [2, [3]]]], {"a": {"b": {"c": []}}}]' >"$d/nested.json"
printf '%s' '"tab\t nl\n quote\" backslash\\ slash\/ e\u00e9 smile\ud83d\ude00"' >"$d/string.json"
printf '%s' '[0, -0, 1e10, -2.5E-3, 123456789012345678901234567890, 0.000001]' >"$d/numbers.json"
printf '%s\n\t %s' '  {"key" : "value"}' 'trailing' >"$d/whitespace-trailing.json"
