/* SPDX-License-Identifier: Apache-2.0 */
/* A set of 64-bit hashes (gb_base.h). */
#include <string.h>

#include "gb_base.h"

/* Open addressing; key 0 is stored as 1 (a collision we accept). */
int gb_hset_add(gb_hset_t *h, uint64_t key)
{
    key = key ? key : 1;
    if (2 * (h->n + 1) > h->cap) {
        size_t nc = h->cap ? 2 * h->cap : 1024;
        uint64_t *ns = gb_calloc(nc, sizeof *ns);
        if (!ns)
            return -1;
        for (size_t i = 0; i < h->cap; i++) {
            if (!h->slots[i])
                continue;
            size_t k = (size_t)(h->slots[i] * 0x9e3779b97f4a7c15ull) & (nc - 1);
            while (ns[k])
                k = (k + 1) & (nc - 1);
            ns[k] = h->slots[i];
        }
        gb_free(h->slots);
        h->slots = ns;
        h->cap = nc;
    }
    size_t k = (size_t)(key * 0x9e3779b97f4a7c15ull) & (h->cap - 1);
    while (h->slots[k]) {
        if (h->slots[k] == key)
            return 0;
        k = (k + 1) & (h->cap - 1);
    }
    h->slots[k] = key;
    h->n++;
    return 1;
}

int gb_hset_has(const gb_hset_t *h, uint64_t key)
{
    key = key ? key : 1;
    if (!h->cap)
        return 0;
    for (size_t k = (size_t)(key * 0x9e3779b97f4a7c15ull) & (h->cap - 1); h->slots[k];
         k = (k + 1) & (h->cap - 1))
        if (h->slots[k] == key)
            return 1;
    return 0;
}

void gb_hset_free(gb_hset_t *h)
{
    gb_free(h->slots);
    memset(h, 0, sizeof *h);
}
