/* SPDX-License-Identifier: Apache-2.0 */
/* A set of 64-bit hashes (gb_base.h) on gb_hmap.h. */
#include "gb_base.h"

/* The keys are XXH3 values already; the multiply keeps the slots where
 * the hand-written set had them. */
static uint64_t hset_hash(uint64_t key)
{
    return key * 0x9e3779b97f4a7c15ull;
}

GB_HMAP_KEYED_FUNCS(gb_u64set, gb_hkey_t, uint64_t, hset_hash, gb_calloc, gb_free)

int gb_hset_add(gb_hset_t *h, uint64_t key)
{
    key = key ? key : 1; /* a collision we accept */
    int fresh;
    gb_hkey_t *s = gb_u64set_put(h, key, &fresh);
    if (!s)
        return -1;
    s->key = key;
    return fresh;
}

int gb_hset_has(const gb_hset_t *h, uint64_t key)
{
    return gb_u64set_find(h, key ? key : 1) != NULL;
}

void gb_hset_free(gb_hset_t *h)
{
    gb_u64set_free(h);
}
