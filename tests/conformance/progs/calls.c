/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: arguments and return values through calls, recursion.
 * Property: abort() reached. */
// seed: 00 00 00
#include <stdint.h>
#include <stdlib.h>
__attribute__((noinline)) static unsigned mix(unsigned a, unsigned b) { return a * 257 + b; }
__attribute__((noinline)) static unsigned rsum(const uint8_t *d, int k)
{
    return k == 0 ? 0 : d[k - 1] + rsum(d, k - 1);
}
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 3)
        return 0;
    if (mix(d[0], d[1]) == 0x4142 && rsum(d, 3) == 0x41 + 0x42 + 0x10)
        abort();
    return 0;
}
