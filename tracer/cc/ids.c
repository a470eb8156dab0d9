/* SPDX-License-Identifier: Apache-2.0 */
/* Deterministic block and site ids: hashes of (module, function, ordinals),
 * so that separately compiled trace and cov builds name the same blocks. */
#include <string.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include "cc_int.h"

static uint64_t hash_ids(const gb_ids_t *ids, const unsigned *ords, int nords)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, ids->module, strlen(ids->module) + 1);
    XXH3_64bits_update(&st, ids->func, strlen(ids->func) + 1);
    for (int i = 0; i < nords; i++) {
        char num[16];
        int n = 0;
        unsigned v = ords[i];
        do
            num[n++] = (char)('0' + v % 10);
        while ((v /= 10) != 0);
        if (i > 0)
            XXH3_64bits_update(&st, "", 1);
        for (int k = n - 1; k >= 0; k--)
            XXH3_64bits_update(&st, &num[k], 1);
    }
    return XXH3_64bits_digest(&st);
}

uint32_t gb_ids_block(const gb_ids_t *ids, unsigned block_ordinal)
{
    return (uint32_t)(hash_ids(ids, &block_ordinal, 1) % GB_MAP_SIZE);
}

uint32_t gb_ids_site(const gb_ids_t *ids, unsigned block_ordinal, unsigned inst_ordinal)
{
    unsigned o[2] = {block_ordinal, inst_ordinal};
    return (uint32_t)hash_ids(ids, o, 2);
}
