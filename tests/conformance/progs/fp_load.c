/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a double loaded straight from input bytes is its bytes'
 * bits, with no pin, and the fcmp on it is a branch in Z3's FP theory.
 * Property: abort() when the first 8 bytes are a double in
 * (1234.5, 1234.625) and byte 8 is 'D'; the seed holds 1.0 and 'D'. */
// seed: 00 00 00 00 00 00 f0 3f 44
// pc-bytes: b0 b6 b7
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 9)
        return 0;
    double v;
    memcpy(&v, d, sizeof v);
    printf("%.17g\n", v);
    if (v > 1234.5 && v < 1234.625 && d[8] == 'D')
        abort();
    return 0;
}
