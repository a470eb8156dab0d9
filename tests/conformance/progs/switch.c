/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: a switch with many cases, one behind another.
 * Property: abort() reached. */
// seed: 61 00
#include <stdint.h>
#include <stdlib.h>
static int f(uint8_t c)
{
    switch (c) {
    case 'a': return 1;
    case 'b': return 2;
    case 'k': return 7;
    case 'q': return 11;
    case 200: return 5;
    default: return 0;
    }
}
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n >= 2 && f(d[0]) == 11 && f(d[1]) == 7)
        abort();
    return 0;
}
