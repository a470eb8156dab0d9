/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: int-to-double conversion and FP arithmetic (sitofp, fmul)
 * are expressions, not pins, and fptosi back to an integer too. Property:
 * abort() when the little-endian int x has x * 0.5 in (100.25, 100.75)
 * and (int)(x * 0.5) == 100 (x = 201); the seed has x = 16. (An fsub and
 * fabs on the way made the query 3x slower in Z3 and the test flaky on a
 * loaded machine; fabs is an AND on the sign bit.) */
// seed: 10 00 00 00
// pc-bytes: b0 b1 b3
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
    if (h > 100.25 && h < 100.75 && q == 100)
        abort();
    return 0;
}
