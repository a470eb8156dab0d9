/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox reach ground truth: branches on single bits of bytes before
 * compares of the whole bytes, and a helper called both far from the
 * target and right before it. Under the seed's bits ('A' = 0x41) the
 * compare d[2] == 'N' is refuted exactly, so a directed search that only
 * flips exactly must first find which bit tests to flip, among 32
 * diamonds; and the helper, which returns next to the target, must not
 * make every run look one step from it. */
#include <stddef.h>
#include <stdint.h>

static volatile int sink;

__attribute__((noinline)) static void side(int v)
{
    sink += v;
}

__attribute__((noinline)) static unsigned le16(const uint8_t *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

#define BIT(i, b)                                                                                  \
    if (d[i] & (1u << (b)))                                                                        \
        side(100 * (i) + 10 * (b) + 1);                                                            \
    else                                                                                           \
        side(100 * (i) + 10 * (b) + 2);
#define BITS(i) BIT(i, 0) BIT(i, 1) BIT(i, 2) BIT(i, 3)

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 8)
        return 0;
    if (le16(d) == 0x5a5a)
        side(1000);
    BITS(0)
    BITS(1)
    BITS(2)
    BITS(3)
    BITS(4)
    BITS(5)
    BITS(6)
    BITS(7)
    if (d[2] == 'N' && d[3] == 'E' && le16(d + 6) == 0x5432)
        side(-1); /* TARGET */
    return 0;
}
