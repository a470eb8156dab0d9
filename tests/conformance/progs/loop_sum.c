/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: phis through a loop accumulating a checksum.
 * Property: abort() reached. */
// seed: 00 00 00 00 00
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 5)
        return 0;
    uint32_t sum = 0;
    for (int i = 0; i < 4; i++)
        sum = sum * 31 + d[i];
    if (sum == d[4] * 1000u + 12345u && d[4] > 2)
        abort();
    return 0;
}
