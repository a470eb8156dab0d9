/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of gb_hmap.h: puts, look-ups and updates across many sizes,
 * with a good and a deliberately bad hash, against a sorted-array reference
 * on random operations; failed growth leaves the map as it was; iteration,
 * a context-keyed index map (as hash-consing uses) and the multimap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gb_base.h"
#include "gb_hmap.h"


/* ---- an allocator that counts and fails on demand --------------------- */

static long live;         /* blocks allocated and not freed */
static long fail_in = -1; /* allocations left before they fail; < 0: never */

static void *t_calloc(size_t n, size_t size)
{
    if (fail_in == 0)
        return NULL;
    if (fail_in > 0)
        fail_in--;
    void *p = calloc(n, size);
    live += p != NULL;
    return p;
}

static void t_free(void *p)
{
    live -= p != NULL;
    free(p);
}

/* ---- the map under test: 64-bit key -> 64-bit value ------------------- */

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next_rand(void)
{
    return check_xorshift(&rng);
}

static int bad_hash; /* 1: every key lands on one of four slots */

static uint64_t kv_hash(uint64_t k)
{
    if (bad_hash)
        return k & 3;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    return k ^ (k >> 33);
}

typedef struct kv {
    uint64_t key; /* 0 = empty */
    uint64_t val;
} kv_t;

GB_HMAP_DEFINE_KEYED(kvmap, kv_t, uint64_t, kv_hash, t_calloc, t_free)

static uint64_t *kv_get(const kvmap_t *m, uint64_t k)
{
    kv_t *s = kvmap_find(m, k);
    return s ? &s->val : NULL;
}

static int kv_set(kvmap_t *m, uint64_t k, uint64_t v)
{
    int fresh;
    kv_t *s = kvmap_put(m, k, &fresh);
    if (!s)
        return -1;
    CHECK(fresh ? s->key == 0 : s->key == k);
    s->key = k;
    s->val = v;
    return fresh;
}

static int pow2(size_t x)
{
    return x && !(x & (x - 1));
}

/* Every entry once by iteration; 1 if the walk matched n entries with
 * val == f(key). */
static int walk_ok(const kvmap_t *m, uint64_t mul)
{
    size_t pos = 0, seen = 0;
    for (kv_t *s; (s = kvmap_next(m, &pos));) {
        if (s->val != s->key * mul || kv_get(m, s->key) != &s->val)
            return 0;
        seen++;
    }
    return seen == m->n;
}

static void fill_and_check(size_t n)
{
    kvmap_t m;
    CHECK(kvmap_init(&m, NULL, 0) == 0 && m.n == 0 && m.cap == 0);
    int ok = 1;
    for (size_t i = 0; i < n; i++)
        ok &= kv_set(&m, i * 7919 + 1, i) == 1;
    CHECK(ok && m.n == n);
    CHECK(n == 0 || (pow2(m.cap) && m.cap >= 2 * n && m.cap < 8 * n + 32));
    for (size_t i = 0; i < n; i++) /* update: same slot, not a new entry */
        ok &= kv_set(&m, i * 7919 + 1, (i * 7919 + 1) * 3) == 0;
    CHECK(ok && m.n == n);
    for (size_t i = 0; i < n; i++) {
        uint64_t *v = kv_get(&m, i * 7919 + 1);
        ok &= v && *v == (i * 7919 + 1) * 3;
        ok &= kv_get(&m, i * 7919 + 2) == NULL; /* absent, between present keys */
    }
    CHECK(ok);
    CHECK(walk_ok(&m, 3));
    kvmap_free(&m);
    CHECK(m.n == 0 && m.cap == 0 && !m.slots && !kvmap_find(&m, 1));
}

static void test_sizes(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 100, 1000, 65536, 100000};
    for (bad_hash = 0; bad_hash < 2; bad_hash++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            if (!bad_hash || sizes[i] <= 2000) /* the bad hash makes puts linear */
                fill_and_check(sizes[i]);
    bad_hash = 0;
}

/* A zeroed map is empty and usable. */
static void test_zeroed(void)
{
    kvmap_t m = {0};
    size_t pos = 0;
    CHECK(!kvmap_find(&m, 5) && !kvmap_next(&m, &pos));
    kvmap_clear(&m);
    CHECK(kv_set(&m, 5, 15) == 1 && *kv_get(&m, 5) == 15 && m.n == 1);
    kvmap_clear(&m);
    CHECK(m.n == 0 && m.cap > 0 && !kvmap_find(&m, 5));
    CHECK(kv_set(&m, 5, 15) == 1 && m.n == 1);
    kvmap_free(&m);
}

/* ---- random operations against a sorted array -------------------------- */

typedef struct ref {
    kv_t *v;
    size_t n;
} ref_t;

static size_t ref_pos(const ref_t *r, uint64_t k)
{
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->v[mid].key < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint64_t *ref_get(const ref_t *r, uint64_t k)
{
    size_t i = ref_pos(r, k);
    return i < r->n && r->v[i].key == k ? &r->v[i].val : NULL;
}

static void ref_set(ref_t *r, uint64_t k, uint64_t v)
{
    size_t i = ref_pos(r, k);
    if (i == r->n || r->v[i].key != k) {
        memmove(r->v + i + 1, r->v + i, (r->n - i) * sizeof *r->v);
        r->n++;
    }
    r->v[i] = (kv_t){k, v};
}

static int same_as_ref(const kvmap_t *m, const ref_t *r)
{
    if (m->n != r->n)
        return 0;
    for (size_t i = 0; i < r->n; i++) {
        uint64_t *v = kv_get(m, r->v[i].key);
        if (!v || *v != r->v[i].val)
            return 0;
    }
    size_t pos = 0, seen = 0;
    for (kv_t *s; (s = kvmap_next(m, &pos)); seen++) {
        uint64_t *v = ref_get(r, s->key);
        if (!v || *v != s->val)
            return 0;
    }
    return seen == r->n;
}

/* A key from a small range (many updates and hits) or a wide one. */
static uint64_t rand_key(void)
{
    uint64_t x = next_rand();
    return (x & 1) ? ((x >> 1) % 3000) + 1 : (x | 1);
}

static void random_ops(size_t ops)
{
    enum { MAXN = 6000 };
    ref_t r = {malloc(MAXN * sizeof(kv_t)), 0};
    kvmap_t m = {0};
    int ok = r.v != NULL;
    for (size_t i = 0; ok && i < ops; i++) {
        uint64_t k = rand_key(), op = next_rand() % 100;
        if (op < 45 && r.n < MAXN) {
            ok = kv_set(&m, k, i) >= 0;
            ref_set(&r, k, i);
        } else if (op < 98) {
            uint64_t *a = kv_get(&m, k), *b = ref_get(&r, k);
            ok = (!a && !b) || (a && b && *a == *b);
        } else if (op < 99) {
            ok = kvmap_reserve(&m, m.n + next_rand() % 5000) == 0;
        } else if (next_rand() % 30 == 0) {
            kvmap_clear(&m);
            r.n = 0;
        }
        if (ok && i % 4096 == 0)
            ok = same_as_ref(&m, &r);
    }
    CHECK(ok && same_as_ref(&m, &r));
    kvmap_free(&m);
    free(r.v);
}

static void test_random(void)
{
    random_ops(300000);
    bad_hash = 1;
    random_ops(6000);
    bad_hash = 0;
}

/* ---- failed growth ----------------------------------------------------- */

/* Fills m until the next new key needs more slots. */
static void fill_to_edge(kvmap_t *m, uint64_t first)
{
    for (uint64_t k = first; (m->n + 1) * 2 <= m->cap || m->cap == 0; k++)
        kv_set(m, k, k);
}

static void test_grow_failure(void)
{
    kvmap_t m;
    fail_in = 0;
    CHECK(kvmap_init(&m, NULL, 100) == -1 && m.n == 0 && m.cap == 0); /* usable, empty */
    fail_in = -1;
    fill_to_edge(&m, 1);
    size_t n = m.n, cap = m.cap;
    kv_t *slots = m.slots, *copy = malloc(cap * sizeof *copy);
    memcpy(copy, slots, cap * sizeof *copy);
    fail_in = 0;
    int fresh = -1;
    CHECK(kvmap_put(&m, 1000000, &fresh) == NULL && fresh == 1);
    CHECK(kvmap_add(&m, 1000000) == NULL);
    CHECK(kvmap_reserve(&m, 10 * n) == -1);
    CHECK(m.n == n && m.cap == cap && m.slots == slots && !memcmp(slots, copy, cap * sizeof *copy));
    CHECK(!kvmap_find(&m, 1000000) && walk_ok(&m, 1));
    CHECK(kv_set(&m, 1, 1) == 0); /* an update needs no memory */
    fail_in = -1;
    CHECK(kv_set(&m, 1000000, 1000000) == 1 && m.n == n + 1 && m.cap == 2 * cap);
    CHECK(walk_ok(&m, 1));
    /* reserve: the puts it made room for need no memory */
    CHECK(kvmap_reserve(&m, m.n + 500) == 0);
    fail_in = 0;
    int ok = 1;
    for (uint64_t k = 0; k < 500; k++)
        ok &= kv_set(&m, 2000000 + k, 2000000 + k) == 1;
    fail_in = -1;
    CHECK(ok && walk_ok(&m, 1));
    kvmap_free(&m);
    free(copy);
}

/* A fresh slot given back leaves the map as it was. */
static void test_unput(void)
{
    kvmap_t m = {0};
    for (uint64_t k = 1; k <= 100; k++)
        kv_set(&m, k, k);
    int fresh;
    kv_t *s = kvmap_put(&m, 5000, &fresh);
    CHECK(s && fresh && m.n == 101);
    if (s)
        kvmap_unput(&m, s);
    CHECK(m.n == 100 && !kvmap_find(&m, 5000) && walk_ok(&m, 1));
    CHECK(kv_set(&m, 5000, 5000) == 1 && m.n == 101 && walk_ok(&m, 1));
    kvmap_free(&m);
}

/* The same through base's allocation wrapper and its failure injection. */
typedef struct gslot {
    uint64_t key;
} gslot_t;
static uint64_t g_hash(uint64_t k)
{
    return k * 0x9e3779b97f4a7c15ull >> 20;
}
GB_HMAP_DEFINE_KEYED(gset, gslot_t, uint64_t, g_hash, gb_calloc, gb_free)

static int gset_add_key(gset_t *s, uint64_t k)
{
    int fresh;
    gslot_t *g = gset_put(s, k, &fresh);
    if (g)
        g->key = k;
    return g ? fresh : -1;
}

static void test_gb_alloc(void)
{
    gset_t s = {0};
    int ok = 1;
    for (uint64_t k = 1; k <= 8; k++)
        ok &= gset_add_key(&s, k) == 1;
    gb_alloc_fail_after(0);
    CHECK(gset_add_key(&s, 9) == -1 && s.n == 8 && gset_add_key(&s, 8) == 0);
    gb_alloc_fail_after(-1);
    CHECK(ok && gset_add_key(&s, 9) == 1 && s.n == 9);
    for (uint64_t k = 1; k <= 9; k++)
        ok &= gset_find(&s, k) && gset_find(&s, k)->key == k;
    CHECK(ok && !gset_find(&s, 10));
    gset_free(&s);
}

/* ---- an index map: slots hold positions in an array the context owns --- */

typedef struct words {
    const char *w[512];
    size_t n;
} words_t;

static uint64_t w_hash(const words_t *ws, const char *k)
{
    (void)ws;
    return gb_hash64(k, strlen(k), 0);
}
static uint64_t w_slot_hash(const words_t *ws, const uint32_t *s)
{
    return w_hash(ws, ws->w[*s - 1]);
}
static int w_match(const words_t *ws, const uint32_t *s, const char *k)
{
    return !strcmp(ws->w[*s - 1], k);
}
static int w_empty(const uint32_t *s)
{
    return *s == 0;
}

GB_HMAP_DEFINE(wmap, uint32_t, const char *, const words_t *, w_hash, w_slot_hash, w_match, w_empty,
               t_calloc, t_free)

/* The index of word k, added to ws when new: hash-consing. */
static uint32_t intern(wmap_t *m, words_t *ws, const char *k)
{
    int fresh;
    uint32_t *s = wmap_put(m, k, &fresh);
    if (!s)
        return UINT32_MAX;
    if (fresh) {
        ws->w[ws->n++] = k;
        *s = (uint32_t)ws->n; /* index + 1 */
    }
    return *s - 1;
}

static void test_index_map(void)
{
    static char buf[300][8];
    words_t ws = {{0}, 0};
    wmap_t m;
    CHECK(wmap_init(&m, &ws, 0) == 0);
    int ok = 1;
    for (int i = 0; i < 300; i++) {
        snprintf(buf[i], sizeof buf[i], "w%d", i);
        ok &= intern(&m, &ws, buf[i]) == (uint32_t)i;
    }
    for (int i = 0; i < 300; i++) { /* equal content, another pointer */
        char k[8];
        snprintf(k, sizeof k, "w%d", i);
        ok &= intern(&m, &ws, k) == (uint32_t)i;
    }
    CHECK(ok && ws.n == 300 && m.n == 300 && !wmap_find(&m, "w300"));
    /* reset: the caller re-adds its entries in array order */
    uint32_t *before = m.slots;
    fail_in = 0;
    CHECK(wmap_reset(&m, 1000) == -1 && m.slots == before && m.n == 300);
    fail_in = -1;
    CHECK(wmap_reset(&m, 1000) == 0 && m.n == 0 && m.cap >= 2000 && !wmap_find(&m, "w1"));
    for (size_t i = 0; i < ws.n; i++)
        *wmap_add_reserved(&m, ws.w[i]) = (uint32_t)i + 1;
    for (int i = 0; i < 300; i++)
        ok &= intern(&m, &ws, buf[i]) == (uint32_t)i;
    CHECK(ok && ws.n == 300 && m.n == 300);
    wmap_free(&m);
}

/* ---- multimap ------------------------------------------------------------ */

/* Key of the i-th entry added: runs of three, so entries of one key sit
 * side by side as well as apart. */
static uint64_t multi_key(uint64_t i)
{
    return 4 + (i / 3) % 5;
}

static void test_multimap(void)
{
    bad_hash = 1; /* the keys' chains interleave */
    kvmap_t m = {0};
    int ok = 1;
    for (uint64_t i = 0; i < 300; i++) {
        kv_t *s = kvmap_add(&m, multi_key(i)); /* keys 4..8, 60 entries each */
        ok &= s && s->key == 0;
        if (s)
            *s = (kv_t){multi_key(i), i};
    }
    CHECK(ok && m.n == 300);
    for (uint64_t k = 4; k <= 8; k++) {
        uint64_t want = 0, count = 0;
        for (kv_t *s = kvmap_find(&m, k); s; s = kvmap_find_next(&m, k, s), count++) {
            while (multi_key(want) != k)
                want++;
            ok &= s->key == k && s->val == want++; /* in the order they were added */
        }
        ok &= count == 60;
    }
    CHECK(ok && !kvmap_find(&m, 9));
    kvmap_free(&m);
    bad_hash = 0;
}

int main(void)
{
    test_sizes();
    test_zeroed();
    test_random();
    test_grow_failure();
    test_unput();
    test_gb_alloc();
    test_index_map();
    test_multimap();
    CHECK(live == 0); /* every slot array freed */
    if (check_failures)
        fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures != 0;
}
