/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: memrchr's model (the last match wins).
 * Property: abort() when the last '/' is at offset 2 of 8 bytes. */
// seed: 2f 61 61 61 61 61 61 61
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    const uint8_t *p = memrchr(d, '/', n);
    long at = p ? (long)(p - d) : -1;
    printf("%ld\n", at);
    if (at == 2 && n == 8)
        abort();
    return 0;
}
