/* SPDX-License-Identifier: Apache-2.0 */
/* Learned conflict clauses (CDSE): sets of literals that never hold
 * together, indexed so that a query is checked against them without a scan,
 * and their file format (docs/clauses.md). */
#include <stdlib.h>
#include <string.h>

#include "symbolic_int.h"

#define CL_MAGIC "GBCLAUSE"
#define CL_VERSION 1u
#define CL_HEADER 24u

typedef struct clause {
    uint32_t off, n; /* literals lits[off .. off+n), ascending */
    uint32_t next;   /* next clause watched by the same literal, or GB_NONE */
    uint8_t local;   /* learned (or loaded) by this worker: saved again */
} clause_t;

/* One literal: the clauses watching it and how many clauses contain it. */
typedef struct lslot {
    uint64_t key; /* literal; 0 = empty (literal 0 is stored as 1) */
    uint32_t head, count;
} lslot_t;

/* A clause's hash, or a literal of a query. */
typedef struct hkey {
    uint64_t key; /* 0 = empty */
} hkey_t;

static uint64_t key_hash(uint64_t key)
{
    return key * 0x9e3779b97f4a7c15ull >> 16;
}

GB_HMAP_DEFINE_KEYED(litmap, lslot_t, uint64_t, key_hash, gb_calloc, gb_free)
GB_HMAP_DEFINE_KEYED(keyset, hkey_t, uint64_t, key_hash, gb_calloc, gb_free)

struct gb_clauses {
    clause_t *cl;
    size_t n, cap;
    uint64_t *lits;
    size_t nl, lcap;
    litmap_t map;
    keyset_t dedup; /* hashes of stored clauses */
    size_t nlocal;
    uint64_t local_added; /* local clauses ever stored */
    uint64_t evicted;     /* clauses dropped at the cap */
};

#define CL_HASH_SEED 0x636c61757365ull

static uint64_t lit_key(uint64_t l) { return l ? l : 1; }

gb_clauses_t *gb_clauses_new(void)
{
    gb_clauses_t *c = gb_calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (litmap_init(&c->map, NULL, 512) != 0 || keyset_init(&c->dedup, NULL, 512) != 0) {
        gb_clauses_free(c);
        return NULL;
    }
    return c;
}

void gb_clauses_free(gb_clauses_t *c)
{
    if (!c)
        return;
    gb_free(c->cl);
    gb_free(c->lits);
    litmap_free(&c->map);
    keyset_free(&c->dedup);
    gb_free(c);
}

uint64_t gb_clauses_local_added(const gb_clauses_t *c) { return c->local_added; }
uint64_t gb_clauses_evicted(const gb_clauses_t *c) { return c->evicted; }

size_t gb_clauses_bytes(const gb_clauses_t *c)
{
    return c->cap * sizeof *c->cl + c->lcap * sizeof *c->lits +
           c->map.cap * sizeof *c->map.slots + c->dedup.cap * sizeof *c->dedup.slots;
}

size_t gb_clauses_count(const gb_clauses_t *c, size_t *local)
{
    if (local)
        *local = c->nlocal;
    return c->n;
}

static lslot_t *map_find(const gb_clauses_t *c, uint64_t key)
{
    return litmap_find(&c->map, key);
}

/* The slot of `key`, created (no clauses, count 0) if absent. */
static lslot_t *map_get(gb_clauses_t *c, uint64_t key)
{
    int fresh;
    lslot_t *s = litmap_put(&c->map, key, &fresh);
    if (s && fresh)
        *s = (lslot_t){key, GB_NONE, 0};
    return s;
}

/* 1 if `h` was new (and is now recorded), 0 if present, -1 out of memory. */
static int dedup_add(gb_clauses_t *c, uint64_t h)
{
    int fresh;
    hkey_t *s = keyset_put(&c->dedup, h ? h : 1, &fresh);
    if (!s)
        return -1;
    s->key = h ? h : 1;
    return fresh;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int reserve(gb_clauses_t *c, size_t nlits)
{
    if (gb_grow(&c->cl, &c->cap, c->n + 1, sizeof *c->cl, 256) != 0)
        return -1;
    if (gb_grow(&c->lits, &c->lcap, c->nl + nlits, sizeof *c->lits, 1024) != 0)
        return -1;
    return 0;
}

/* Stores the sorted, duplicate-free literals of a new clause and watches it
 * through its rarest literal (the one in the fewest clauses so far): a
 * query that contains the clause contains that literal, and rare literals
 * keep the lists walked per query short. */
static int store(gb_clauses_t *c, const uint64_t *l, size_t n, int local)
{
    if (reserve(c, n) != 0)
        return -1;
    uint64_t best = 0;
    uint32_t best_count = UINT32_MAX;
    for (size_t i = 0; i < n; i++) { /* map_get may move slots: keep keys only */
        lslot_t *s = map_get(c, l[i]);
        if (!s)
            return -1;
        if (s->count < best_count) {
            best = l[i];
            best_count = s->count;
        }
    }
    for (size_t i = 0; i < n; i++)
        map_find(c, l[i])->count++;
    lslot_t *w = map_find(c, best);
    uint32_t id = (uint32_t)c->n;
    c->cl[c->n++] = (clause_t){(uint32_t)c->nl, (uint32_t)n, w->head, (uint8_t)(local != 0)};
    w->head = id;
    memcpy(c->lits + c->nl, l, n * sizeof *l);
    c->nl += n;
    c->nlocal += local != 0;
    c->local_added += local != 0;
    return 1;
}

/* At GB_CLAUSES_MAX the older half goes: the rest is stored again into
 * fresh arrays and indexes (a clause learned long ago is about paths the
 * search has left; each eviction costs O(clauses) once per half a cap). */
static int evict_older_half(gb_clauses_t *c)
{
    gb_clauses_t *k = gb_clauses_new();
    if (!k)
        return -1;
    for (size_t i = c->n / 2; i < c->n; i++) {
        const clause_t *x = &c->cl[i];
        const uint64_t *l = c->lits + x->off;
        if (dedup_add(k, gb_hash64(l, x->n * sizeof *l, CL_HASH_SEED)) < 0 ||
            store(k, l, x->n, x->local) < 0) {
            gb_clauses_free(k);
            return -1;
        }
    }
    k->local_added = c->local_added;
    k->evicted = c->evicted + c->n / 2;
    gb_free(c->cl);
    gb_free(c->lits);
    litmap_free(&c->map);
    keyset_free(&c->dedup);
    *c = *k; /* the maps hold no pointer to their owner */
    gb_free(k);
    return 0;
}

int gb_clauses_add(gb_clauses_t *c, const uint64_t *lits, size_t n, int local)
{
    if (n == 0 || n > GB_CLAUSE_MAX)
        return 0;
    uint64_t l[GB_CLAUSE_MAX];
    for (size_t i = 0; i < n; i++)
        l[i] = lit_key(lits[i]);
    qsort(l, n, sizeof *l, cmp_u64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || l[m - 1] != l[i])
            l[m++] = l[i];
    uint64_t h = gb_hash64(l, m * sizeof *l, CL_HASH_SEED);
    if (keyset_find(&c->dedup, h ? h : 1))
        return 0;
    if (c->n >= GB_CLAUSES_MAX && evict_older_half(c) != 0)
        return -1;
    int fresh = dedup_add(c, h);
    if (fresh <= 0)
        return fresh;
    return store(c, l, m, local);
}

/* ---- Matching -------------------------------------------------------- */

static int subset(const gb_clauses_t *c, const clause_t *x, const keyset_t *set)
{
    for (uint32_t i = 0; i < x->n; i++)
        if (!keyset_find(set, c->lits[x->off + i]))
            return 0;
    return 1;
}

int gb_clauses_match(const gb_clauses_t *c, const uint64_t *lits, size_t n)
{
    if (c->n == 0 || n == 0)
        return 0;
    keyset_t set;
    if (keyset_init(&set, NULL, n) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) { /* reserved: no put fails */
        int fresh;
        keyset_put(&set, lit_key(lits[i]), &fresh)->key = lit_key(lits[i]);
    }
    int hit = 0;
    for (size_t i = 0; i < n && !hit; i++) {
        const lslot_t *s = map_find(c, lit_key(lits[i]));
        for (uint32_t id = s ? s->head : GB_NONE; id != GB_NONE && !hit; id = c->cl[id].next)
            hit = subset(c, &c->cl[id], &set);
    }
    keyset_free(&set);
    return hit;
}

/* ---- Files ------------------------------------------------------------ */

int gb_clauses_save(const gb_clauses_t *c, const char *path, const char *tmpdir, gb_err_t *e)
{
    size_t nl = 0, ncl = 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->cl[i].local) {
            nl += c->cl[i].n;
            ncl++;
        }
    size_t len = CL_HEADER + 4 * ncl + 8 * nl + 8;
    uint8_t *buf = gb_malloc(len), *p;
    if (!buf)
        return gb_err_set(e, "out of memory saving clauses");
    memcpy(buf, CL_MAGIC, 8);
    gbt_put32(buf + 8, CL_VERSION);
    gbt_put32(buf + 12, (uint32_t)ncl);
    gbt_put64(buf + 16, nl);
    p = buf + CL_HEADER;
    for (size_t i = 0; i < c->n; i++) {
        if (!c->cl[i].local)
            continue;
        gbt_put32(p, c->cl[i].n);
        p += 4;
        for (uint32_t k = 0; k < c->cl[i].n; k++, p += 8)
            gbt_put64(p, c->lits[c->cl[i].off + k]);
    }
    gbt_put64(p, gb_hash64(buf, len - 8, 0));
    int r = gb_write_atomic(path, tmpdir, buf, len, e);
    gb_free(buf);
    return r;
}

/* Checks the whole file before adding anything, so a bad file adds none. */
static int validate(const uint8_t *d, size_t len, const char *path, gb_err_t *e)
{
    if (len < CL_HEADER + 8 || memcmp(d, CL_MAGIC, 8) != 0)
        return gb_err_set(e, "clauses file %s: not a Glassbox clause file", path);
    if (gbt_get32(d + 8) != CL_VERSION)
        return gb_err_set(e, "clauses file %s: unsupported version %u", path, gbt_get32(d + 8));
    if (gbt_get64(d + len - 8) != gb_hash64(d, len - 8, 0))
        return gb_err_set(e, "clauses file %s: checksum mismatch (corrupted)", path);
    uint64_t ncl = gbt_get32(d + 12), nl = gbt_get64(d + 16), seen = 0;
    size_t off = CL_HEADER;
    for (uint64_t i = 0; i < ncl; i++) {
        uint32_t n = off + 4 <= len - 8 ? gbt_get32(d + off) : 0;
        if (n == 0 || n > GB_CLAUSE_MAX || (len - 8 - off - 4) / 8 < n)
            return gb_err_set(e, "clauses file %s: bad clause %llu at byte %zu", path,
                              (unsigned long long)i, off);
        off += 4 + 8 * (size_t)n;
        seen += n;
    }
    if (off != len - 8 || seen != nl)
        return gb_err_set(e, "clauses file %s: length does not match its %llu clauses", path,
                          (unsigned long long)ncl);
    return 0;
}

int gb_clauses_load_mem(gb_clauses_t *c, const uint8_t *d, size_t len, const char *name,
                        int local, size_t *added, gb_err_t *e)
{
    *added = 0;
    int r = validate(d, len, name, e);
    uint32_t ncl = r == 0 ? gbt_get32(d + 12) : 0;
    size_t off = CL_HEADER;
    uint64_t l[GB_CLAUSE_MAX];
    for (uint32_t i = 0; i < ncl && r == 0; i++) {
        uint32_t n = gbt_get32(d + off);
        for (uint32_t k = 0; k < n; k++)
            l[k] = gbt_get64(d + off + 4 + 8 * k);
        off += 4 + 8 * (size_t)n;
        int a = gb_clauses_add(c, l, n, local);
        if (a < 0)
            r = gb_err_set(e, "out of memory loading %s", name);
        *added += a > 0;
    }
    return r;
}

int gb_clauses_load(gb_clauses_t *c, const char *path, int local, size_t *added, gb_err_t *e)
{
    uint8_t *d;
    size_t len;
    *added = 0;
    if (gb_read_file(path, (size_t)1 << 30, &d, &len, e) != 0)
        return -1;
    int r = gb_clauses_load_mem(c, d, len, path, local, added, e);
    gb_free(d);
    return r;
}
