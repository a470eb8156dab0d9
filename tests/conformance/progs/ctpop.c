/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: llvm.ctpop. Property: abort() reached. */
// seed: 00 00
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 2)
        return 0;
    unsigned v = d[0] | (unsigned)d[1] << 8;
    if (__builtin_popcount(v) == 13 && d[0] == 0xfb)
        abort();
    return 0;
}
