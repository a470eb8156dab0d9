/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: llvm.bswap (16, 32 and 64 bits). Property: abort(). */
// seed: 00 00 00 00 00 00 00 00 00 00 00 00 00 00
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 14)
        return 0;
    uint16_t a;
    uint32_t b;
    uint64_t c;
    memcpy(&a, d, 2);
    memcpy(&b, d + 2, 4);
    memcpy(&c, d + 6, 8);
    if (__builtin_bswap16(a) == 0x1234 && __builtin_bswap32(b) == 0xcafebabeu &&
        __builtin_bswap64(c) == 0x1122334455667788ull)
        abort();
    return 0;
}
