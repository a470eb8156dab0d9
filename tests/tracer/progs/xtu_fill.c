/* SPDX-License-Identifier: Apache-2.0 */
/* The other file of xtu_main.c: a copy loop (`buf, len` first, so the
 * caller clears what it wrote when it is not traced), built with glassbox-cc
 * or with plain clang. */
#include <stddef.h>
#include <stdint.h>
void gb_xtu_fill(uint8_t *dst, size_t n, const uint8_t *src);
void gb_xtu_fill(uint8_t *dst, size_t n, const uint8_t *src)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = src[i];
}
