/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox reach ground truth: the CDSE thesis's Listing 1.1 (abs and
 * difference), whose assertion result >= 0 holds over the integers but
 * not in 32-bit two's complement: x = INT_MIN stays negative after
 * x = -x, and y - x can overflow. A bit-precise engine reaches it. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static volatile int sink;

/* The target's side effect, in a call the optimizer cannot merge away. */
__attribute__((noinline)) static void hit(int v)
{
    sink = v;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 8)
        return 0;
    int32_t x = (int32_t)((uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 |
                          (uint32_t)d[3] << 24);
    int32_t y = (int32_t)((uint32_t)d[4] | (uint32_t)d[5] << 8 | (uint32_t)d[6] << 16 |
                          (uint32_t)d[7] << 24);
    if (x < 0)
        x = (int32_t)(0u - (uint32_t)x); /* -x, wrapping as the hardware does */
    if (y < 0)
        y = (int32_t)(0u - (uint32_t)y);
    int32_t result = (int32_t)((uint32_t)x - (uint32_t)y);
    if (x < y)
        result = (int32_t)((uint32_t)y - (uint32_t)x);
    if (result < 0)
        hit(1); /* TARGET: the assertion result >= 0 fails */
    return 0;
}
