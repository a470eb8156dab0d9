/* SPDX-License-Identifier: Apache-2.0 */
/* A call to a function of another file: when that file is instrumented,
 * the bytes it copied keep their shadows (a library's read callback filling
 * a chunk header); when it is not, the bytes it wrote lose them. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
void gb_xtu_fill(uint8_t *dst, size_t n, const uint8_t *src);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    uint8_t buf[8];
    if (n < 12)
        return 0;
    memcpy(buf, d + 4, 8); /* buf[0] is b4 */
    gb_xtu_fill(buf, 4, d); /* now buf[0] is b0, or concrete if fill is not traced */
    if (buf[0] == 'Q')
        puts("Q");
    return 0;
}
