/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: shl, lshr, ashr, or. Property: abort() reached. */
// seed: 00 00
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 2)
        return 0;
    uint32_t v = ((uint32_t)d[0] << 7) | (d[1] >> 3);
    int32_t s = (int32_t)((uint32_t)d[1] << 24) >> 28;
    if (v == 0x3a9fu && s == -1)
        abort();
    return 0;
}
