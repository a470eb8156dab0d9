/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: int-to-double conversion and FP arithmetic (sitofp, fmul,
 * fsub, fabs) are expressions, not pins, and fptosi back to an integer
 * too. Property: abort() when the little-endian int x has x * 0.5 within
 * 0.25 of 100.5 and (int)(x * 0.5) == 100 (x = 201); the seed has x = 16. */
// seed: 10 00 00 00
// pc-bytes: b0 b1 b3
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 4)
        return 0;
    int32_t x;
    memcpy(&x, d, sizeof x);
    double h = (double)x * 0.5;
    int q = (int)h;
    printf("%.17g %d\n", h, q);
    if (fabs(h - 100.5) < 0.25 && q == 100)
        abort();
    return 0;
}
