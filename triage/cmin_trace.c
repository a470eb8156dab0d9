/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox cmin: a coverage map as a compact list of elements (map index
 * x hit-count bucket), delta-varint encoded. */
#include <string.h>

#include "cmin_int.h"

/* ---- Coverage traces ---------------------------------------------------- */

/* AFL's hit-count buckets: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+. */
uint8_t cmin_bucket_of(uint8_t hits)
{
    if (hits <= 3)
        return (uint8_t)(hits - 1);
    if (hits < 8)
        return 3;
    if (hits < 16)
        return 4;
    if (hits < 32)
        return 5;
    return hits < 128 ? 6 : 7;
}

/* The element ids of a map, ascending. Zero words are skipped eight bytes
 * at a time: most of a map is zero. */
size_t cmin_scan_map(const uint8_t *map, size_t size, int edges_only, const uint8_t *bk,
                     uint32_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i < size; i += 8) {
        size_t end = i + 8 <= size ? i + 8 : size;
        if (end - i == 8) {
            uint64_t w;
            memcpy(&w, map + i, 8);
            if (!w)
                continue;
        }
        for (size_t j = i; j < end; j++)
            if (map[j])
                out[n++] = (uint32_t)j * CMIN_BUCKETS + (edges_only ? 0u : bk[map[j]]);
    }
    return n;
}

/* Delta-varint encoding: a typical element costs one or two bytes. `out`
 * holds at least 5 bytes per element. */
size_t cmin_encode(const uint32_t *el, size_t n, uint8_t *out)
{
    size_t k = 0;
    uint32_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t d = el[i] - prev;
        prev = el[i];
        while (d >= 0x80) {
            out[k++] = (uint8_t)(d | 0x80);
            d >>= 7;
        }
        out[k++] = (uint8_t)d;
    }
    return k;
}

/* Iterates a trace: *pos = 0 and *el = 0 first; 1 while an element came. */
int cmin_decode_next(const uint8_t *t, size_t len, size_t *pos, uint32_t *el)
{
    if (*pos >= len)
        return 0;
    uint32_t d = 0;
    unsigned shift = 0;
    while (*pos < len) {
        uint8_t b = t[(*pos)++];
        d |= (uint32_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
        shift += 7;
    }
    *el += d;
    return 1;
}
