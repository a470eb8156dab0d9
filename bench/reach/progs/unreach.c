/* SPDX-License-Identifier: Apache-2.0 */
/* bench/reach: targets no input reaches, each behind checks that
 * contradict each other across functions, and one diamond chain. */
#include "reach_bench.h"

__attribute__((noinline)) static int above(const uint8_t *d, unsigned k)
{
    return d[k] > 200;
}

__attribute__((noinline)) static int below(const uint8_t *d, unsigned k)
{
    return d[k] < 100;
}

__attribute__((noinline)) static int differ(const uint8_t *d)
{
    return (d[2] ^ d[3]) == 0x11;
}

__attribute__((noinline)) static int equal(const uint8_t *d)
{
    return d[2] == d[3];
}

__attribute__((noinline)) static uint16_t be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

/* The same field read again elsewhere: the compiler cannot see the two
 * calls agree (one function, it folds the contradiction away). */
__attribute__((noinline)) static uint16_t field(const uint8_t *p)
{
    return (uint16_t)((unsigned)p[0] * 256u + p[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 8)
        return 0;
    if (above(d, 0) && below(d, 0))
        TARGET(1);
    if (differ(d) && equal(d))
        TARGET(2);
    if (be16(d + 4) > 0x1000 && field(d + 4) < 0x0800)
        TARGET(3);
    int k = 0;
    if (d[6] & 1)
        k++;
    if (d[6] & 2)
        k++;
    if (d[7] & 1)
        k++;
    if (above(d, 1) && k == 3 && below(d, 1))
        TARGET(4);
    if (d[0] == 'A' && above(d, 0))
        TARGET(5);
    return 0;
}
