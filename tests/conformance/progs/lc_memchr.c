/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: memchr's model. Its result is an ite chain over the bytes
 * scanned, so a branch on where the match is can move it.
 * Property: abort() when the first ':' is at offset 5. */
// seed: 61 61 61 61 61 61 61 61
// pc-bytes: b0 b1 b2 b3 b4 b5 b6 b7
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    const uint8_t *p = memchr(d, ':', n);
    long at = p ? (long)(p - d) : -1;
    printf("%ld\n", at);
    if (at == 5)
        abort();
    return 0;
}
