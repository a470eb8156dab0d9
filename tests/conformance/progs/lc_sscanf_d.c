/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: sscanf two decimals (%d, then %i after a comma and spaces);
 * both values are expressions of their digits, so a condition on their sum
 * can be solved, with more digits than the seed has.
 * Property: abort() when a is positive and a + b == 2024. */
// seed: 31 32 2c 20 33 34 20 61 62 63 64 65 66 0a
// pc-bytes: b0 b1 b2 b3 b4 b5 b6
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char line[32];
    if (n >= sizeof line)
        return 0;
    memcpy(line, d, n);
    line[n] = 0;
    int a = 0, b = 0;
    int r = sscanf(line, "%d , %i", &a, &b);
    printf("%d %d %d\n", r, a, b);
    if (r == 2 && a > 0 && a + b == 2024)
        abort();
    return 0;
}
