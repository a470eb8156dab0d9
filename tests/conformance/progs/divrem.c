/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: udiv and urem by constants. Property: abort() reached. */
// seed: 00 00
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 2)
        return 0;
    volatile unsigned seven = 7, five = 5;
    if (d[0] / seven == 13 && d[1] % five == 3 && d[1] > 200)
        abort();
    return 0;
}
