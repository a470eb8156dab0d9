/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a conditional expression (select at -O2) on a symbolic
 * condition. Property: abort() reached. */
// seed: 00 00 00
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 3)
        return 0;
    unsigned x = d[0] > 100 ? d[1] : d[2];
    unsigned y = x + (d[0] & 1 ? 3 : 5);
    if (y == 80 && d[1] != d[2])
        abort();
    return 0;
}
