/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: atol's model (a call at -O0, strtol at -O2), with a sign.
 * Property: abort() on -7 from a seed of -1. */
// seed: 2d 31 61 61 61 61
// pc-bytes: b0 b1 b2
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char buf[32];
    if (n < 4 || n >= sizeof buf)
        return 0;
    memcpy(buf, d, n);
    buf[n] = 0;
    long b = atol(buf);
    printf("%ld\n", b);
    if (b == -7)
        abort();
    return 0;
}
