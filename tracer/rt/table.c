/* SPDX-License-Identifier: Apache-2.0 */
/* Constant tables: glassbox-cc registers every constant global of at most
 * GBT_TABLE_MAX bytes from a module constructor (and the runtime registers
 * libc's ctype tables). A load whose symbolic address falls inside one
 * becomes a READ of the table instead of a pinned address. */
#include <stdlib.h>
#include <string.h>

#include "rt_int.h"

static rt_table_t *tabs;
static size_t ntabs, captabs;
static int sorted = 1;
static rt_table_t *used; /* tables by id - 1, copies: `tabs` may move */
static size_t nused, capused;

/* Tables read symbolically whatever GLASSBOX_TABLES says: libc's ctype
 * tables (one per class table and locale; a handful at most). */
#define MAX_ALWAYS 16
static struct {
    uintptr_t start;
    uint64_t size;
} always[MAX_ALWAYS];
static size_t nalways;

RT_EXPORT void __gb_table_register(const void *addr, uint64_t size)
{
    if (!addr || size == 0 || size > GBT_TABLE_MAX)
        return;
    if (ntabs == captabs) {
        size_t nc = captabs ? 2 * captabs : 256;
        rt_table_t *nt = realloc(tabs, nc * sizeof *nt);
        if (!nt)
            return;
        tabs = nt;
        captabs = nc;
    }
    tabs[ntabs++] = (rt_table_t){.start = (uintptr_t)addr, .size = (uint32_t)size};
    sorted = 0;
}

RT_HIDDEN void rt_table_register_always(const void *addr, uint64_t size)
{
    if (!rt_active)
        return; /* only the tracing thread reads tables symbolically */
    for (size_t i = 0; i < nalways; i++)
        if (always[i].start == (uintptr_t)addr && always[i].size == size)
            return; /* the same table again (each lookup of a ctype table) */
    if (nalways == MAX_ALWAYS)
        return;
    always[nalways].start = (uintptr_t)addr;
    always[nalways++].size = size;
    __gb_table_register(addr, size);
}

static int in_always(uintptr_t addr, size_t n)
{
    for (size_t i = 0; i < nalways; i++)
        if (addr >= always[i].start && addr + n <= always[i].start + always[i].size)
            return 1;
    return 0;
}

static int by_start(const void *a, const void *b)
{
    uintptr_t x = ((const rt_table_t *)a)->start, y = ((const rt_table_t *)b)->start;
    return (x > y) - (x < y);
}

/* The table holding all of [addr, addr + n), or NULL. Ids are handed out
 * on first use, in the order tables are first read. */
RT_HIDDEN rt_table_t *rt_table_find(uintptr_t addr, size_t n)
{
    static uint32_t next_id = 1;
    if (!sorted) {
        qsort(tabs, ntabs, sizeof *tabs, by_start);
        sorted = 1;
    }
    size_t lo = 0, hi = ntabs;
    while (lo < hi) { /* last table starting at or below addr */
        size_t mid = lo + (hi - lo) / 2;
        if (tabs[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    rt_table_t *t = &tabs[lo - 1];
    if (addr + n > t->start + t->size)
        return NULL;
    if (!t->id) {
        if (nused == capused) {
            size_t nc = capused ? 2 * capused : 16;
            rt_table_t *nu = realloc(used, nc * sizeof *nu);
            if (!nu)
                return NULL;
            used = nu;
            capused = nc;
        }
        t->id = next_id++;
        used[nused++] = *t;
    }
    return t;
}

RT_HIDDEN rt_table_t *rt_table_by_id(uint32_t id)
{
    return id >= 1 && id <= nused ? &used[id - 1] : NULL;
}

RT_HIDDEN int rt_table_has(uintptr_t addr, size_t n)
{
    if (n == 0 || n > 8 || !rt_active ||
        (rt.lim.tables == RT_TABLES_NONE && !in_always(addr, n)))
        return 0;
    return rt_table_find(addr, n) != NULL;
}

/* 1 when `e` holds a READ within its first TABLE_CHAIN_LOOK nodes (or is
 * too big to tell): the index of a chained lookup, a CRC's
 * table[(crc ^ byte) & 0xff] whose crc is the last lookup's result. Exact
 * chains are what made table queries slow; a decoding table's index is an
 * input byte, a CRC's first one too. */
#define TABLE_CHAIN_LOOK 48
static int holds_read(const rt_expr_t *e, unsigned *budget)
{
    if (!e || e->op == GBT_OP_CONST || e->op == GBT_OP_INPUT)
        return 0;
    if (e->op == GBT_OP_READ || *budget == 0)
        return 1;
    (*budget)--;
    int n = gbt_op_arity(e->op);
    for (int i = 0; i < n && i < 3; i++)
        if (holds_read(e->arg[i], budget))
            return 1;
    return 0;
}

/* 1 when some n-byte entry of t (n = 2, 4 or 8, at the entries' own
 * alignment from the table's start) lies outside -256..255: a table of
 * wide values (CRC, hash, powers), whose exact reads are what made table
 * queries slow. Decoding tables (base64, hex, ctype-like classes) map to
 * small codes, with -1 or 0xff for invalid; 1-byte entries are always
 * small. Worked out once per table and width. */
static int wide_entries(rt_table_t *t, size_t n)
{
    unsigned k = n == 2 ? 1u : n == 4 ? 2u : n == 8 ? 3u : 0u;
    if (k == 0)
        return 0;
    uint8_t bit = (uint8_t)(1u << k);
    if (!(t->wide_known & bit)) {
        const uint8_t *p = (const uint8_t *)t->start;
        int wide = 0;
        for (size_t i = 0; i + n <= t->size && !wide; i += n) {
            uint64_t v = 0;
            memcpy(&v, p + i, n); /* little-endian hosts (x86-64) */
            uint64_t top = n == 8 ? ~0ull : (1ull << (8 * n)) - 1;
            wide = v > 255 && v < top - 255; /* neither small nor a small negative */
        }
        t->wide_known |= bit;
        if (wide)
            t->wide |= bit;
    }
    return (t->wide & bit) != 0;
}

/* The load of `n` bytes at `addr`, whose address expression is `a`, as a
 * table read; NULL when `addr` is not in a table. */
RT_HIDDEN rt_expr_t *rt_table_load(rt_expr_t *a, uintptr_t addr, size_t n)
{
    if (!rt_table_has(addr, n))
        return NULL;
    rt_table_t *t = rt_table_find(addr, n);
    if (!t)
        return NULL;
    if (rt.lim.tables == RT_TABLES_AUTO && !in_always(addr, n)) {
        unsigned budget = TABLE_CHAIN_LOOK;
        if (!t->chained && holds_read(a, &budget))
            t->chained = 1; /* a CRC-8's table: the next chunk's first read too */
        if (t->chained || wide_entries(t, n))
            return NULL; /* pinned, as with GLASSBOX_TABLES=0 */
    }
    rt_expr_t *off = rt_binop(GBT_OP_ADD, a, rt_const(64, (uint64_t)0 - t->start));
    return rt_read(off, rt_table_by_id(t->id), (unsigned)(8 * n));
}
