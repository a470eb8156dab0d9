/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: __builtin_expect passes its value through.
 * Property: abort() reached. */
// seed: 00
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 1)
        return 0;
    long v = __builtin_expect((long)d[0] * 3, 0);
    if (__builtin_expect(v == 3 * 'E', 0))
        abort();
    return 0;
}
