/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: add, mul, sub and xor on bytes. Property: abort() reached. */
// seed: 01 02 03
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 3)
        return 0;
    unsigned v = d[0] * 3u + d[1] - (d[2] ^ 0x55u);
    if (v == 700u)
        abort();
    return 0;
}
