/* SPDX-License-Identifier: Apache-2.0 */
/* Scoring: the blocks (and AFL hit-count buckets) a run covered that no
 * run covered before, merged into the global map. */
#include "search_int.h"

/* AFL's hit-count buckets: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+. */
static uint8_t bucket(uint8_t n)
{
    if (n <= 3)
        return (uint8_t)(1u << (n - 1));
    if (n <= 7)
        return 8;
    if (n <= 15)
        return 16;
    if (n <= 31)
        return 32;
    return n <= 127 ? 64 : 128;
}

void gb_cov_score(gb_cov_t *c, const uint8_t *map, size_t n, gb_score_t *out)
{
    uint32_t fresh = 0, nov = 0;
    for (size_t i = 0; i < n && i < GB_MAP_SIZE; i++) {
        if (!map[i])
            continue;
        uint8_t b = bucket(map[i]);
        if (!c->virgin[i])
            fresh++;
        if (!(c->virgin[i] & b)) {
            c->virgin[i] |= b;
            nov++;
        }
    }
    c->blocks += fresh;
    c->novel_total += nov;
    out->fresh = fresh;
    out->novelty = nov;
}

uint64_t gb_cov_sig(const uint8_t *map, size_t n)
{
    uint8_t bits[GB_MAP_SIZE / 8] = {0};
    for (size_t i = 0; i < n && i < GB_MAP_SIZE; i++)
        if (map[i])
            bits[i >> 3] |= (uint8_t)(1u << (i & 7));
    return gb_hash64(bits, sizeof bits, 0);
}

int gb_cov_crash_new(uint8_t *seen, const uint8_t *map, size_t n)
{
    int fresh = 0;
    for (size_t i = 0; i < n && i < GB_MAP_SIZE; i++) {
        if (!map[i])
            continue;
        uint8_t b = bucket(map[i]);
        if (!(seen[i] & b)) {
            seen[i] |= b;
            fresh = 1;
        }
    }
    return fresh;
}
