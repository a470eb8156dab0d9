/* SPDX-License-Identifier: Apache-2.0 */
/* Conformance: 16-, 32- and 64-bit loads from the input buffer.
 * Property: abort() reached. */
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
    if (a == 0xbeef && b == 0x12345678u && c == 0x0102030405060708ull)
        abort();
    return 0;
}
