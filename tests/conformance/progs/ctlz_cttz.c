/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: llvm.ctlz and llvm.cttz. Property: abort() reached. */
// seed: 01 00 00 00 01 00
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 6)
        return 0;
    uint32_t a;
    uint16_t b;
    memcpy(&a, d, 4);
    memcpy(&b, d + 4, 2);
    if (a && b && __builtin_clz(a) == 5 && __builtin_ctz(b) == 9)
        abort();
    return 0;
}
