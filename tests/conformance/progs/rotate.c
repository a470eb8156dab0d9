/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: rotates (llvm.fshl / fshr at -O2), by constant and by
 * symbolic amounts. Property: abort() reached. */
// seed: 00 00 00 00 00
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
static uint32_t rol(uint32_t x, unsigned s) { return (x << (s & 31)) | (x >> ((32 - s) & 31)); }
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 5)
        return 0;
    uint32_t x;
    memcpy(&x, d, 4);
    if (rol(x, 5) == 0xdeadbeefu && rol(0x80000001u, d[4]) == 0x00000006u)
        abort();
    return 0;
}
