/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: memmem's model: a match at each position is the AND of its
 * byte compares. Property: abort() when "KEY" first occurs at offset 4. */
// seed: 61 61 61 61 61 61 61 61 61 61
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7 b8 b9
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    const uint8_t *p = memmem(d, n, "KEY", 3);
    long at = p ? (long)(p - d) : -1;
    printf("%ld\n", at);
    if (at == 4)
        abort();
    return 0;
}
