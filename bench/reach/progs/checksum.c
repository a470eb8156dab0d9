/* SPDX-License-Identifier: Apache-2.0 */
/* bench/reach: targets behind checksums and length fields; the last one
 * is unreachable (the same checksum must match and differ, in two
 * functions). */
#include "reach_bench.h"

__attribute__((noinline)) static uint8_t sum8(const uint8_t *p, size_t n)
{
    uint8_t s = 0;
    for (size_t i = 0; i < n; i++)
        s = (uint8_t)(s + p[i]);
    return s;
}

__attribute__((noinline)) static uint8_t xor8(const uint8_t *p, size_t n)
{
    uint8_t s = 0;
    for (size_t i = 0; i < n; i++)
        s ^= p[i];
    return s;
}

__attribute__((noinline)) static int sum_ok(const uint8_t *d)
{
    return sum8(d + 1, 6) == d[0];
}

__attribute__((noinline)) static int sum_bad(const uint8_t *d)
{
    return sum8(d + 1, 6) != d[0];
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 12)
        return 0;
    if (d[1] == 'S' && sum_ok(d))
        TARGET(1);
    if (d[1] == 'X' && xor8(d + 2, 6) == 0x7f)
        TARGET(2);
    uint32_t h = 5381;
    for (size_t i = 2; i < 6; i++)
        h = h * 33 + d[i];
    if (d[1] == 'H' && h == 2090069583u) /* "abcd" in d[2..5] */
        TARGET(3);
    if (d[8] == n && d[9] == 'L')
        TARGET(4);
    if (sum_ok(d) && sum_bad(d))
        TARGET(5);
    return 0;
}
