/* SPDX-License-Identifier: Apache-2.0 */
/* Per (site, direction) payoff of flipping it: directions that paid are
 * tried first, directions that keep paying nothing are backed off. */
#include "search_int.h"

#define GOLDEN 0x9e3779b97f4a7c15ull /* Fibonacci hashing of the key */

gb_site_stat_t *gb_sites_get(gb_sites_t *t, uint32_t site, unsigned dir)
{
    if (2 * (t->n + 1) > t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 1024;
        gb_site_stat_t *ns = gb_calloc(nc, sizeof *ns);
        if (!ns)
            return NULL;
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->slots[i].key)
                continue;
            size_t k = (size_t)(t->slots[i].key * GOLDEN) & (nc - 1);
            while (ns[k].key)
                k = (k + 1) & (nc - 1);
            ns[k] = t->slots[i];
        }
        gb_free(t->slots);
        t->slots = ns;
        t->cap = nc;
    }
    uint64_t key = ((uint64_t)site << 1 | dir) + 1;
    size_t k = (size_t)(key * GOLDEN) & (t->cap - 1);
    while (t->slots[k].key && t->slots[k].key != key)
        k = (k + 1) & (t->cap - 1);
    if (!t->slots[k].key) {
        t->slots[k].key = key;
        t->n++;
    }
    return &t->slots[k];
}

int gb_sites_worth(const gb_site_stat_t *ss)
{
    uint32_t u = ss->unpaid;
    return u < GB_SITE_FREE_TRIES || (u & (u - 1)) == 0;
}

void gb_sites_record(gb_site_stat_t *ss, int paid)
{
    ss->tries++;
    ss->unpaid = paid ? 0 : ss->unpaid + 1;
    ss->paid += (uint32_t)(paid != 0);
}

void gb_sites_free(gb_sites_t *t)
{
    gb_free(t->slots);
    t->slots = NULL;
    t->n = t->cap = 0;
}
