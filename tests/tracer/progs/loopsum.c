/* SPDX-License-Identifier: Apache-2.0 */
/* A loop that sums uint64_t squares up to a bound from the input: at -O2
 * clang replaces it by its closed form, computed in i65 (zext to i65,
 * mul, lshr, trunc), which the tracer lowers to two halves, so the sum
 * stays an expression over the bound's bytes rather than a pin. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 2)
        return 0;
    uint64_t lim = d[0] | (uint64_t)d[1] << 8;
    uint64_t s = 0;
    for (uint64_t i = 0; i < lim; i++)
        s += i * i;
    if (s == 0x1234567)
        puts("sum matched");
    printf("%llu\n", (unsigned long long)s);
    return 0;
}
