/* SPDX-License-Identifier: Apache-2.0 */
/* The bounds that keep a long campaign's memory flat (issue 13): the
 * learned clauses and the answer cache each drop their older half at
 * their cap (GB_CLAUSES_MAX, GB_CACHE_MAX), keep answering from the newer
 * half, and the cache still saves and loads whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "symbolic_int.h"

static void clauses_bound(void)
{
    gb_clauses_t *c = gb_clauses_new();
    CHECK(c != NULL);
    const size_t total = GB_CLAUSES_MAX + 10;
    int bad = 0;
    for (uint64_t i = 0; i < total; i++) {
        uint64_t l[2] = {4 * i + 8, 4 * i + 9};
        bad += gb_clauses_add(c, l, 2, 1) != 1;
    }
    CHECK(bad == 0);
    size_t local;
    CHECK(gb_clauses_count(c, &local) == GB_CLAUSES_MAX / 2 + 10);
    CHECK(local == GB_CLAUSES_MAX / 2 + 10);
    CHECK(gb_clauses_evicted(c) == GB_CLAUSES_MAX / 2);
    CHECK(gb_clauses_local_added(c) == total);
    /* the newest and one of the newer half still prune; the oldest not */
    uint64_t newest[3] = {4 * (total - 1) + 8, 4 * (total - 1) + 9, 3};
    uint64_t newer[2] = {4 * (GB_CLAUSES_MAX / 2 + 1) + 9, 4 * (GB_CLAUSES_MAX / 2 + 1) + 8};
    uint64_t oldest[2] = {8, 9};
    CHECK(gb_clauses_match(c, newest, 3) == 1);
    CHECK(gb_clauses_match(c, newer, 2) == 1);
    CHECK(gb_clauses_match(c, oldest, 2) == 0);
    /* a dropped clause can be learned again; a kept one is known */
    CHECK(gb_clauses_add(c, oldest, 2, 1) == 1);
    CHECK(gb_clauses_add(c, newest, 2, 1) == 0);
    gb_clauses_free(c);
}

static void put(gb_cache_t *c, uint64_t i)
{
    uint32_t off[2] = {(uint32_t)i, (uint32_t)i + 1};
    uint8_t val[2] = {(uint8_t)i, (uint8_t)(i >> 8)};
    uint64_t key[2] = {i * 0x9e3779b97f4a7c15ull + 1, i};
    gb_answer_t a = {GB_Q_SAT, 0, 0, 2, off, val};
    CHECK(gb_cache_put(c, key, &a) == 1);
}

static int has(const gb_cache_t *c, uint64_t i)
{
    uint64_t key[2] = {i * 0x9e3779b97f4a7c15ull + 1, i};
    gb_answer_t a;
    if (!gb_cache_get(c, key, &a))
        return 0;
    return a.status == GB_Q_SAT && a.n == 2 && a.offs[0] == (uint32_t)i &&
           a.vals[1] == (uint8_t)(i >> 8);
}

static void cache_bound(void)
{
    char dir[] = "/tmp/gb-bounds.XXXXXX", path[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/answers", dir);
    gb_cache_t *c = gb_cache_new();
    gb_err_t e;
    const uint64_t total = GB_CACHE_MAX + 10;
    for (uint64_t i = 0; i < GB_CACHE_MAX; i++)
        put(c, i);
    CHECK(gb_cache_save(c, path, dir, &e) == 0 && !gb_cache_dirty(c));
    for (uint64_t i = GB_CACHE_MAX; i < total; i++)
        put(c, i);
    CHECK(gb_cache_count(c) == GB_CACHE_MAX / 2 + 10);
    CHECK(gb_cache_evicted(c) == GB_CACHE_MAX / 2);
    CHECK(gb_cache_dirty(c));
    CHECK(has(c, total - 1) && has(c, GB_CACHE_MAX / 2 + 3) && !has(c, 0) && !has(c, 17));
    CHECK(gb_cache_save(c, path, dir, &e) == 0 && !gb_cache_dirty(c));
    gb_cache_t *d = gb_cache_new();
    CHECK(gb_cache_load(d, path, &e) == 0);
    CHECK(gb_cache_count(d) == GB_CACHE_MAX / 2 + 10 && has(d, total - 1) && !has(d, 0));
    gb_cache_free(d);
    gb_cache_free(c);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    clauses_bound();
    cache_bound();
    if (check_failures)
        fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures != 0;
}
