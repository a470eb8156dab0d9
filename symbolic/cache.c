/* SPDX-License-Identifier: Apache-2.0 */
/* Answers to earlier queries, keyed by the XXH3-128 of the canonical sliced
 * query (docs/clauses.md): SAT with its model, UNSAT, or a timeout together
 * with the time limit it ran out of. In memory, and saved with the campaign. */
#include <string.h>

#include "symbolic_int.h"

#define CA_MAGIC "GBANSWER"
#define CA_VERSION 1u

typedef struct centry {
    uint64_t key[2];
    uint8_t status, optimistic;
    uint32_t tmo, n, off; /* model bytes at pool[off .. off+n) */
} centry_t;

/* The index over e[]: a slot holds an entry's position + 1 (0 = empty),
 * and the key is read from the entry. */
GB_HMAP_TYPE(ans_index, uint32_t, const struct gb_cache *)

struct gb_cache {
    centry_t *e;
    size_t n, cap;
    ans_index_t idx;
    uint32_t *poff; /* model pool: offsets and values */
    uint8_t *pval;
    size_t pn, pcap;
    size_t saved; /* entries already in the file */
    uint64_t evicted; /* entries dropped at the cap */
};

static uint64_t key_hash(const gb_cache_t *c, const uint64_t *key)
{
    (void)c;
    return key[0] ^ (key[1] >> 7);
}

static uint64_t slot_hash(const gb_cache_t *c, const uint32_t *s)
{
    return key_hash(c, c->e[*s - 1].key);
}

static int slot_match(const gb_cache_t *c, const uint32_t *s, const uint64_t *key)
{
    const centry_t *x = &c->e[*s - 1];
    return x->key[0] == key[0] && x->key[1] == key[1];
}

static int slot_empty(const uint32_t *s)
{
    return *s == 0;
}

GB_HMAP_FUNCS(ans_index, uint32_t, const uint64_t *, const gb_cache_t *, key_hash, slot_hash,
              slot_match, slot_empty, gb_calloc, gb_free)

gb_cache_t *gb_cache_new(void)
{
    gb_cache_t *c = gb_calloc(1, sizeof *c);
    if (c && ans_index_init(&c->idx, c, 512) != 0) {
        gb_free(c);
        return NULL;
    }
    return c;
}

void gb_cache_free(gb_cache_t *c)
{
    if (!c)
        return;
    gb_free(c->e);
    ans_index_free(&c->idx);
    gb_free(c->poff);
    gb_free(c->pval);
    gb_free(c);
}

size_t gb_cache_count(const gb_cache_t *c) { return c->n; }

/* The entry with `key`, or GB_NONE. */
static uint32_t find(const gb_cache_t *c, const uint64_t key[2])
{
    const uint32_t *s = ans_index_find(&c->idx, key);
    return s ? *s - 1 : GB_NONE;
}

int gb_cache_get(const gb_cache_t *c, const uint64_t key[2], gb_answer_t *a)
{
    uint32_t i = find(c, key);
    if (i == GB_NONE)
        return 0;
    const centry_t *x = &c->e[i];
    a->status = x->status;
    a->optimistic = x->optimistic;
    a->tmo = x->tmo;
    a->n = x->n;
    a->offs = c->poff + x->off;
    a->vals = c->pval + x->off;
    return 1;
}

/* Room for one more entry and nbytes more model bytes. */
static int grow(gb_cache_t *c, size_t nbytes)
{
    if (gb_grow(&c->e, &c->cap, c->n + 1, sizeof *c->e, 256) != 0)
        return -1;
    /* The pool exists as soon as any entry does, one without a model (an
     * UNSAT answer) too: gb_cache_get points every entry into it, and
     * pointer arithmetic on NULL is undefined even for an offset of 0. */
    if (!c->pval || c->pn + nbytes > c->pcap) {
        size_t nc = c->pcap ? c->pcap * 2 : 4096;
        while (nc < c->pn + nbytes)
            nc *= 2;
        uint32_t *no = gb_realloc(c->poff, nc * sizeof *no);
        if (no)
            c->poff = no;
        uint8_t *nv = no ? gb_realloc(c->pval, nc) : NULL;
        if (!nv)
            return -1;
        c->pval = nv;
        c->pcap = nc;
    }
    return 0;
}

/* At GB_CACHE_MAX entries the older half goes: the newer half is put
 * again into a fresh cache (O(entries), once per half a cap), and the file
 * is written anew at the next save. */
static int evict_older_half(gb_cache_t *c)
{
    gb_cache_t *k = gb_cache_new();
    if (!k)
        return -1;
    for (size_t i = c->n / 2; i < c->n; i++) {
        const centry_t *x = &c->e[i];
        gb_answer_t a = {x->status, x->optimistic, x->tmo, x->n, c->poff + x->off,
                         c->pval + x->off};
        if (gb_cache_put(k, x->key, &a) < 0) {
            gb_cache_free(k);
            return -1;
        }
    }
    k->evicted = c->evicted + c->n / 2;
    k->saved = SIZE_MAX; /* differs from n: dirty */
    gb_free(c->e);
    ans_index_free(&c->idx);
    gb_free(c->poff);
    gb_free(c->pval);
    *c = *k;
    gb_free(k);
    c->idx.ctx = c; /* the index reads keys through its owner */
    return 0;
}

uint64_t gb_cache_evicted(const gb_cache_t *c) { return c->evicted; }

size_t gb_cache_bytes(const gb_cache_t *c)
{
    return c->cap * sizeof *c->e + c->idx.cap * sizeof *c->idx.slots +
           c->pcap * (sizeof *c->poff + sizeof *c->pval);
}

int gb_cache_put(gb_cache_t *c, const uint64_t key[2], const gb_answer_t *a)
{
    uint32_t i = find(c, key);
    if (i != GB_NONE && (c->e[i].status != GB_Q_TIMEOUT || a->status == GB_Q_TIMEOUT)) {
        if (c->e[i].status == GB_Q_TIMEOUT && a->tmo > c->e[i].tmo)
            c->e[i].tmo = a->tmo; /* a longer limit ran out too */
        return 0;
    }
    if (i == GB_NONE && c->n >= GB_CACHE_MAX) {
        if (evict_older_half(c) != 0)
            return -1;
        i = GB_NONE; /* positions moved; the key is still absent */
    }
    if (grow(c, a->n) != 0)
        return -1;
    if (i == GB_NONE) { /* new entry; else a timeout that now has an answer */
        int fresh;
        uint32_t *slot = ans_index_put(&c->idx, key, &fresh);
        if (!slot)
            return -1;
        i = (uint32_t)c->n++;
        *slot = i + 1;
    }
    c->e[i] = (centry_t){{key[0], key[1]}, (uint8_t)a->status, (uint8_t)a->optimistic, a->tmo,
                         (uint32_t)a->n, (uint32_t)c->pn};
    if (a->n) { /* an answer without a model may have NULL offs and vals: memcpy's UB */
        memcpy(c->poff + c->pn, a->offs, a->n * sizeof *a->offs);
        memcpy(c->pval + c->pn, a->vals, a->n);
    }
    c->pn += a->n;
    return 1;
}

/* ---- Files ------------------------------------------------------------ */

/* Layout (little-endian): magic, u32 version, u32 count, then per entry
 * u64 key[2], u8 status, u8 optimistic, u16 0, u32 timeout ms, u32 n,
 * n x (u32 offset, u8 value); last, XXH3-64 of everything before. */
int gb_cache_save(gb_cache_t *c, const char *path, const char *tmpdir, gb_err_t *e)
{
    size_t len = 16 + 8 + c->n * 28 + c->pn * 5;
    uint8_t *buf = gb_malloc(len), *p = buf;
    if (!buf)
        return gb_err_set(e, "out of memory saving the answer cache");
    memcpy(p, CA_MAGIC, 8);
    gbt_put32(p + 8, CA_VERSION);
    gbt_put32(p + 12, (uint32_t)c->n);
    p += 16;
    for (size_t i = 0; i < c->n; i++) {
        const centry_t *x = &c->e[i];
        gbt_put64(p, x->key[0]);
        gbt_put64(p + 8, x->key[1]);
        p[16] = x->status;
        p[17] = x->optimistic;
        gbt_put16(p + 18, 0);
        gbt_put32(p + 20, x->tmo);
        gbt_put32(p + 24, x->n);
        p += 28;
        for (uint32_t k = 0; k < x->n; k++, p += 5) {
            gbt_put32(p, c->poff[x->off + k]);
            p[4] = c->pval[x->off + k];
        }
    }
    gbt_put64(p, gb_hash64(buf, len - 8, 0));
    int r = gb_write_atomic(path, tmpdir, buf, len, e);
    gb_free(buf);
    if (r == 0)
        c->saved = c->n;
    return r;
}

int gb_cache_dirty(const gb_cache_t *c) { return c->n != c->saved; }

static int check_file(const uint8_t *d, size_t len, const char *path, gb_err_t *e)
{
    if (len < 24 || memcmp(d, CA_MAGIC, 8) != 0 || gbt_get32(d + 8) != CA_VERSION)
        return gb_err_set(e, "answer cache %s: not a version %u Glassbox answer file", path,
                          CA_VERSION);
    if (gbt_get64(d + len - 8) != gb_hash64(d, len - 8, 0))
        return gb_err_set(e, "answer cache %s: checksum mismatch (corrupted)", path);
    size_t off = 16;
    for (uint32_t i = 0, n = gbt_get32(d + 12); i < n; i++) {
        if (len - 8 - off < 28 || d[off + 16] > GB_Q_TIMEOUT ||
            (len - 8 - off - 28) / 5 < gbt_get32(d + off + 24))
            return gb_err_set(e, "answer cache %s: bad entry %u at byte %zu", path, i, off);
        off += 28 + 5 * (size_t)gbt_get32(d + off + 24);
    }
    return off == len - 8 ? 0 : gb_err_set(e, "answer cache %s: trailing bytes", path);
}

int gb_cache_load_mem(gb_cache_t *c, const uint8_t *d, size_t len, const char *name, gb_err_t *e)
{
    int r = check_file(d, len, name, e);
    size_t off = 16;
    for (uint32_t i = 0, n = r == 0 ? gbt_get32(d + 12) : 0; i < n && r == 0; i++) {
        const uint8_t *p = d + off;
        uint64_t key[2] = {gbt_get64(p), gbt_get64(p + 8)};
        gb_answer_t a = {p[16], p[17], gbt_get32(p + 20), gbt_get32(p + 24), NULL, NULL};
        a.offs = gb_malloc((a.n + 1) * sizeof *a.offs);
        a.vals = gb_malloc(a.n + 1);
        for (size_t k = 0; a.offs && a.vals && k < a.n; k++) {
            a.offs[k] = gbt_get32(p + 28 + 5 * k);
            a.vals[k] = p[28 + 5 * k + 4];
        }
        if (!a.offs || !a.vals || gb_cache_put(c, key, &a) < 0)
            r = gb_err_set(e, "out of memory loading %s", name);
        gb_free(a.offs);
        gb_free(a.vals);
        off += 28 + 5 * a.n;
    }
    if (r == 0)
        c->saved = c->n;
    return r;
}

int gb_cache_load(gb_cache_t *c, const char *path, gb_err_t *e)
{
    uint8_t *d;
    size_t len;
    if (gb_read_file(path, (size_t)1 << 30, &d, &len, e) != 0)
        return -1;
    int r = gb_cache_load_mem(c, d, len, path, e);
    gb_free(d);
    return r;
}
