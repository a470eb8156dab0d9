/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: saturating add and subtract (llvm.uadd.sat / usub.sat at
 * -O2). Property: abort() reached. */
// seed: 00 00 00 00
#include <stdint.h>
#include <stdlib.h>
static uint8_t sat_add(uint8_t a, uint8_t b)
{
    uint8_t r = (uint8_t)(a + b);
    return r < a ? 0xff : r;
}
static uint8_t sat_sub(uint8_t a, uint8_t b) { return a > b ? (uint8_t)(a - b) : 0; }
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 4)
        return 0;
    if (sat_add(d[0], d[1]) == 0xff && d[0] == 0xf0 && d[1] > 0x20 && sat_sub(d[2], d[3]) == 0x42)
        abort();
    return 0;
}
