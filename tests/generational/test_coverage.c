/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the rule for saving a crash (generational/coverage.c): a
 * crash is new when it covers a (block, hit-count bucket) pair no saved
 * crash covered, as in AFL++; a new set of blocks made of seen pairs is
 * not, a higher bucket of a seen block is. */
#include <string.h>

#include "check.h"
#include "search_int.h"

static uint8_t seen[GB_MAP_SIZE];
static uint8_t map[GB_MAP_SIZE];

/* crash(blocks, counts, n): 1 if the run that hit blocks[i] counts[i]
 * times is a new crash. */
static int crash(const uint32_t *blocks, const uint8_t *counts, size_t n)
{
    memset(map, 0, sizeof map);
    for (size_t i = 0; i < n; i++)
        map[blocks[i]] = counts[i];
    return gb_cov_crash_new(seen, map, sizeof map);
}

int main(void)
{
    const uint8_t one[] = {1, 1, 1};
    CHECK(crash((uint32_t[]){1, 2}, one, 2) == 1);               /* the first crash */
    CHECK(crash((uint32_t[]){1, 2}, one, 2) == 0);               /* the same map */
    CHECK(crash((uint32_t[]){1, 3}, one, 2) == 1);               /* a new block */
    CHECK(crash((uint32_t[]){2, 3}, one, 2) == 0);               /* a new set, every pair seen */
    CHECK(crash((uint32_t[]){1}, one, 1) == 0);                  /* a subset */
    CHECK(crash((uint32_t[]){1, 2}, (uint8_t[]){1, 2}, 2) == 1); /* block 2 twice: a new bucket */
    CHECK(crash((uint32_t[]){1, 2}, (uint8_t[]){1, 3}, 2) == 1); /* 3 is a bucket of its own */
    CHECK(crash((uint32_t[]){2}, (uint8_t[]){5}, 1) == 1);       /* 4-7 */
    CHECK(crash((uint32_t[]){2}, (uint8_t[]){7}, 1) == 0);       /* 4-7 again */
    CHECK(crash((uint32_t[]){2}, (uint8_t[]){200}, 1) == 1);     /* 128 and more */
    CHECK(crash((uint32_t[]){GB_MAP_SIZE - 1}, one, 1) == 1);    /* the last block */
    /* the map's length bounds the scan: a count past it is not read */
    memset(map, 0, sizeof map);
    map[9] = 1;
    CHECK(gb_cov_crash_new(seen, map, 9) == 0);
    CHECK(gb_cov_crash_new(seen, map, 10) == 1);
    return check_exit("generational.coverage");
}
