/* SPDX-License-Identifier: Apache-2.0 */
/* memcmp against a 5-byte magic: the model makes one constraint over b0..b4,
 * then a 16-bit little-endian length compared with a constant. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 7 || memcmp(d, "MAGIC", 5) != 0)
        return 0;
    unsigned len = (unsigned)d[5] | (unsigned)d[6] << 8;
    if (len == 0x1234)
        puts("length matched");
    return 0;
}
