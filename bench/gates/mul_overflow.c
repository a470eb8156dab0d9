/* SPDX-License-Identifier: Apache-2.0 */
/* Gate (issue 37, checked product): a table of COUNT entries of SIZE bytes (32-bit and
 * 16-bit, big-endian) sized with __builtin_mul_overflow; a product that does not overflow
 * must end 144 bytes into a 4096-byte page, with at least 3 entries of at least 16 bytes.
 * The seed's table is small and page-aligned. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint32_t mo_sink;

/* The bug: the last entry straddles the page the reader mapped (abort stands for the
 * read past it). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 10 || memcmp(data, "TBL", 3) != 0 || data[3] != 1)
        return 0;
    uint32_t count =
        (uint32_t)data[4] << 24 | (uint32_t)data[5] << 16 | (uint32_t)data[6] << 8 | data[7];
    uint16_t each = (uint16_t)(data[8] << 8 | data[9]);
    uint32_t total;
    if (__builtin_mul_overflow(count, (uint32_t)each, &total))
        return 0;
    if (count >= 3 && each >= 16 && (total & 0xfff) == 144)
        abort();
    mo_sink += total;
    return 0;
}
