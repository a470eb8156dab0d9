/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a float read from input bytes (a load of float type from
 * symbolic memory) is its bytes' bits: no pin, and its compares are FP
 * branches, so a flip can change the float as well as the bytes around
 * it. Property: magic "FL" after the float, with the float in [1, 2),
 * reaches the abort. */
// seed: 00 00 c0 3f 41 41
// pc-bytes: b0 b3
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 6)
        return 0;
    float f;
    memcpy(&f, d, 4);
    if (f >= 1.0f && f < 2.0f && d[4] == 'F' && d[5] == 'L')
        abort();
    printf("%g\n", (double)f);
    return 0;
}
