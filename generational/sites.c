/* SPDX-License-Identifier: Apache-2.0 */
/* Per (site, direction) payoff of flipping it: directions that paid are
 * tried first, directions that keep paying nothing are backed off. Beside
 * them, the constants each direction's equality was flipped to: a table
 * walk's site compares the input with a new constant at each step, and
 * each constant gets one try past the back-off. */
#include "search_int.h"

#define GOLDEN 0x9e3779b97f4a7c15ull /* Fibonacci hashing of the key */

static uint64_t site_hash(uint64_t key)
{
    return key * GOLDEN;
}

GB_HMAP_KEYED_FUNCS(gb_sites, gb_site_stat_t, uint64_t, site_hash, gb_calloc, gb_free)

gb_site_stat_t *gb_sites_get(gb_sites_t *t, uint32_t site, unsigned dir)
{
    uint64_t key = ((uint64_t)site << 1 | dir) + 1;
    int fresh;
    gb_site_stat_t *ss = gb_sites_put(t, key, &fresh);
    if (ss && fresh)
        ss->key = key; /* tries, unpaid and paid start at 0 */
    return ss;
}

/* A constant's record: keyed apart from every (site, direction) one by
 * the top bit (those keys are below 2^34). */
static uint64_t const_key(uint32_t site, unsigned dir, uint64_t value)
{
    uint64_t w[2] = {(uint64_t)site << 1 | dir, value};
    return gb_hash64(w, sizeof w, 0) | 1ull << 63;
}

int gb_sites_new_const(gb_sites_t *t, uint32_t site, unsigned dir, uint64_t value)
{
    gb_site_stat_t *ss = gb_sites_get(t, site, dir);
    if (!ss || ss->consts >= GB_SITE_CONSTS)
        return 0;
    uint64_t key = const_key(site, dir, value);
    if (gb_sites_find(t, key))
        return 0;
    ss->consts++; /* before the put, which may move *ss */
    int fresh;
    gb_site_stat_t *cs = gb_sites_put(t, key, &fresh);
    if (!cs)
        return 0;
    cs->key = key;
    return 1;
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

void gb_sites_release(gb_sites_t *t)
{
    gb_sites_free(t);
}
