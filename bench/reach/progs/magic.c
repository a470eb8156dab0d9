/* SPDX-License-Identifier: Apache-2.0 */
/* bench/reach: magic-gated targets. */
#include "reach_bench.h"

__attribute__((noinline)) static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 16)
        return 0;
    if (d[0] == 'M')
        TARGET(1);
    if (le32(d + 1) == 0x31584247u) /* "GBX1" */
        TARGET(2);
    if (le32(d + 5) == 0xdeadbeefu && le32(d + 9) == 0x0badf00du)
        TARGET(3);
    unsigned at = 8 + (d[13] & 7u);
    if (d[at] == 'Q' && d[14] == 'q')
        TARGET(4);
    if (d[15] == (uint8_t)(d[1] + d[2]) && d[1] == 'a' && d[2] == 'b')
        TARGET(5);
    return 0;
}
