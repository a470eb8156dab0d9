/* SPDX-License-Identifier: Apache-2.0 */
/* Reads `.gb_cfg` sections (docs/cfg-format.md) into a gb_cfg_graph_t:
 * parses and checks the module records, resolves calls across modules,
 * and indexes what cfg.c's search asks (callers, signatures, call-outs,
 * the functions code outside the CFG may call). */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cfg_graph.h"

#define CFG_MAX_BYTES (1u << 30) /* a larger section is not a CFG glassbox-cc wrote */
#define NONE GB_CFG_NONE

/* ---- growable arrays ------------------------------------------------ */

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : 64;
    while (nc < need)
        nc *= 2;
    void *nv = gb_realloc(*v, nc * size);
    if (!nv)
        return -1;
    *v = nv;
    *cap = nc;
    return 0;
}

static int push(gb_cfg_u32v_t *a, uint32_t x)
{
    if (grow((void **)&a->v, &a->cap, a->n + 1, sizeof *a->v) != 0)
        return -1;
    a->v[a->n++] = x;
    return 0;
}

/* ---- reading words -------------------------------------------------- */

typedef struct rd {
    const uint8_t *p;
    size_t n, i; /* in words */
    int bad;
} rd_t;

static uint32_t word(rd_t *r)
{
    if (r->i >= r->n) {
        r->bad = 1;
        return 0;
    }
    const uint8_t *q = r->p + 4 * r->i++;
    return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}

static const char *str(rd_t *r, uint32_t *len)
{
    *len = word(r);
    size_t words = ((size_t)*len + 3) / 4;
    if (r->bad || words > r->n - r->i) {
        r->bad = 1;
        *len = 0;
        return "";
    }
    const char *s = (const char *)(r->p + 4 * r->i);
    r->i += words;
    return s;
}

/* ---- signatures: interned over all modules -------------------------- */

typedef struct sig_key {
    const char *text;
    uint32_t len;
} sig_key_t;

static uint64_t sig_khash(const gb_cfg_graph_t *g, sig_key_t k)
{
    (void)g;
    return gb_hash64(k.text, k.len, 0x5167);
}

static uint64_t sig_shash(const gb_cfg_graph_t *g, const uint32_t *s)
{
    const gb_cfg_sig_t *sg = &g->sigs[*s - 1];
    return sig_khash(g, (sig_key_t){sg->text, sg->len});
}

static int sig_match(const gb_cfg_graph_t *g, const uint32_t *s, sig_key_t k)
{
    const gb_cfg_sig_t *sg = &g->sigs[*s - 1];
    return sg->len == k.len && memcmp(sg->text, k.text, k.len) == 0;
}

static int sig_empty(const uint32_t *s)
{
    return *s == 0;
}

GB_HMAP_DEFINE(sigmap, uint32_t, sig_key_t, const gb_cfg_graph_t *, sig_khash, sig_shash, sig_match,
               sig_empty, gb_calloc, gb_free)

/* One module being parsed: where its symbols start, its signatures'
 * global indices. */
typedef struct mod {
    uint32_t index, sym0, nsyms, nsigs, version;
    uint32_t file0, nfiles; /* its files: g->files[file0 .. file0 + nfiles) */
    uint32_t *sig; /* local signature index -> global */
    sigmap_t *intern;
} mod_t;

/* A signature index of the record, as a global one; -1 if out of range. */
static int64_t sig_of(const mod_t *m, uint32_t local)
{
    if (local == GBCFG_SIG_UNKNOWN)
        return NONE;
    return local < m->nsigs ? (int64_t)m->sig[local] : -1;
}

static int parse_sigs(gb_cfg_graph_t *g, rd_t *r, mod_t *m)
{
    m->nsigs = word(r);
    if (r->bad || m->nsigs > r->n - r->i || !(m->sig = gb_calloc(m->nsigs + 1, sizeof *m->sig)))
        return -1;
    for (uint32_t k = 0; k < m->nsigs; k++) {
        sig_key_t key;
        key.text = str(r, &key.len);
        if (r->bad)
            return -1;
        int fresh;
        uint32_t *slot = sigmap_put(m->intern, key, &fresh);
        if (!slot)
            return -1;
        if (fresh) {
            if (grow((void **)&g->sigs, &g->cap_sigs, g->nsigs + 1, sizeof *g->sigs) != 0) {
                sigmap_unput(m->intern, slot);
                return -1;
            }
            memset(&g->sigs[g->nsigs], 0, sizeof *g->sigs);
            g->sigs[g->nsigs].text = key.text;
            g->sigs[g->nsigs].len = key.len;
            *slot = (uint32_t)++g->nsigs;
        }
        m->sig[k] = *slot - 1;
    }
    return 0;
}

/* Version 3: the source files the blocks' lines name. */
static int parse_files(gb_cfg_graph_t *g, rd_t *r, mod_t *m)
{
    m->file0 = (uint32_t)g->nfiles;
    m->nfiles = word(r);
    if (r->bad || m->nfiles > r->n - r->i ||
        grow((void **)&g->files, &g->cap_files, g->nfiles + m->nfiles + 1, sizeof *g->files) != 0)
        return -1;
    for (uint32_t k = 0; k < m->nfiles; k++) {
        gb_cfg_file_t *f = &g->files[g->nfiles++];
        f->text = str(r, &f->len);
        if (r->bad)
            return -1;
    }
    g->line_modules += m->nfiles > 0; /* built with -g */
    return 0;
}

/* Version 3: a block's (file, line) pairs; files as global indices. */
static int parse_lines(gb_cfg_graph_t *g, rd_t *r, const mod_t *m, gb_cfg_block_t *b)
{
    b->nlines = word(r);
    b->lines = (uint32_t)g->lines.n;
    if (r->bad || b->nlines > (r->n - r->i) / 2)
        return -1;
    for (uint32_t k = 0; k < b->nlines; k++) {
        uint32_t file = word(r), line = word(r);
        if (file >= m->nfiles || push(&g->lines, m->file0 + file) != 0 ||
            push(&g->lines, line) != 0)
            return -1;
    }
    return 0;
}

/* ---- parsing -------------------------------------------------------- */

/* `n` words of indices, each below `limit`, pushed onto `a` (plus `base`). */
static int indices(rd_t *r, gb_cfg_u32v_t *a, uint32_t n, uint32_t limit, uint32_t base)
{
    if (r->bad || n > r->n - r->i)
        return -1;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t x = word(r);
        if (x >= limit || push(a, base + x) != 0)
            return -1;
    }
    return 0;
}

static int parse_block(gb_cfg_graph_t *g, rd_t *r, const mod_t *m, uint32_t func)
{
    const gb_cfg_func_t *f = &g->funcs[func];
    gb_cfg_block_t b = {.func = func};
    b.id = word(r);
    uint32_t fk = word(r);
    b.flags = fk & ((1u << GBCFG_KIND_SHIFT) - 1);
    b.kind = fk >> GBCFG_KIND_SHIFT;
    b.site = word(r);
    b.nsucc = word(r);
    uint32_t known = m->version >= 3 ? GBCFG_B_KNOWN : GBCFG_B_KNOWN_V2;
    if (r->bad || b.id >= GB_MAP_SIZE || (b.flags & ~known) || b.kind > GBCFG_T_SWITCH ||
        (b.kind == GBCFG_T_BR && b.nsucc != 2) || (b.kind == GBCFG_T_SWITCH && b.nsucc < 1))
        return -1;
    b.succ = (uint32_t)g->succ.n;
    if (indices(r, &g->succ, b.nsucc, f->nblocks, f->first) != 0)
        return -1;
    b.ncalls = word(r);
    b.calls = (uint32_t)g->calls.n;
    if (indices(r, &g->calls, b.ncalls, m->nsyms, m->sym0) != 0)
        return -1;
    b.nisig = word(r);
    b.isig = (uint32_t)g->isigs.n;
    if (r->bad || b.nisig > r->n - r->i)
        return -1;
    for (uint32_t k = 0; k < b.nisig; k++) {
        int64_t s = sig_of(m, word(r));
        if (s < 0 || push(&g->isigs, (uint32_t)s) != 0)
            return -1;
    }
    if (m->version >= 3 && parse_lines(g, r, m, &b) != 0)
        return -1;
    if (grow((void **)&g->blocks, &g->cap_blocks, g->nblocks + 1, sizeof *g->blocks) != 0)
        return -1;
    g->blocks[g->nblocks++] = b;
    g->known[b.id >> 3] |= (uint8_t)(1u << (b.id & 7));
    return 0;
}

static int parse_func(gb_cfg_graph_t *g, rd_t *r, const mod_t *m)
{
    gb_cfg_func_t f = {.module = m->index};
    f.flags = word(r);
    f.name = str(r, &f.len);
    int64_t sig = sig_of(m, word(r));
    f.nblocks = word(r);
    f.first = (uint32_t)g->nblocks;
    /* a block takes at least six words */
    if (r->bad || sig < 0 || (f.flags & ~(uint32_t)GBCFG_S_KNOWN) || f.nblocks == 0 ||
        f.nblocks > (r->n - r->i) / 6)
        return -1;
    f.sig = (uint32_t)sig;
    if (grow((void **)&g->funcs, &g->cap_funcs, g->nfuncs + 1, sizeof *g->funcs) != 0)
        return -1;
    uint32_t fi = (uint32_t)g->nfuncs;
    g->funcs[g->nfuncs++] = f;
    for (uint32_t b = 0; b < f.nblocks; b++)
        if (parse_block(g, r, m, fi) != 0)
            return -1;
    return 0;
}

static int parse_syms(gb_cfg_graph_t *g, rd_t *r, mod_t *m)
{
    m->nsyms = word(r);
    m->sym0 = (uint32_t)g->nsyms;
    if (r->bad || m->nsyms > (r->n - r->i) / 3)
        return -1;
    if (grow((void **)&g->syms, &g->cap_syms, g->nsyms + m->nsyms, sizeof *g->syms) != 0)
        return -1;
    for (uint32_t k = 0; k < m->nsyms; k++) {
        gb_cfg_sym_t *s = &g->syms[g->nsyms++];
        memset(s, 0, sizeof *s);
        s->module = m->index;
        s->flags = word(r);
        s->name = str(r, &s->len);
        int64_t sig = sig_of(m, word(r));
        if (r->bad || sig < 0 || (s->flags & ~(uint32_t)GBCFG_S_KNOWN))
            return -1;
        s->sig = (uint32_t)sig;
    }
    return 0;
}

static int parse_module(gb_cfg_graph_t *g, rd_t *r, sigmap_t *intern, uint32_t version)
{
    mod_t m = {.index = (uint32_t)g->modules++, .intern = intern, .version = version};
    uint32_t len;
    str(r, &len); /* the module's name: only for people reading a dump */
    int rc = parse_sigs(g, r, &m) == 0 && (version < 3 || parse_files(g, r, &m) == 0) &&
                     parse_syms(g, r, &m) == 0
                 ? 0
                 : -1;
    uint32_t nfuncs = rc == 0 ? word(r) : 0;
    for (uint32_t k = 0; k < nfuncs && rc == 0 && !r->bad; k++)
        rc = parse_func(g, r, &m);
    gb_free(m.sig);
    return rc != 0 || r->bad || r->i != r->n ? -1 : 0;
}

/* ---- resolving calls ------------------------------------------------ */

static int same_fn(const gb_cfg_sym_t *s, const gb_cfg_func_t *f)
{
    if ((s->flags & GBCFG_S_LOCAL) != (f->flags & GBCFG_S_LOCAL) || s->len != f->len ||
        memcmp(s->name, f->name, s->len) != 0)
        return 0;
    return !(s->flags & GBCFG_S_LOCAL) || s->module == f->module;
}

static uint64_t name_key(const char *name, uint32_t len, uint32_t flags, uint32_t module)
{
    return gb_hash64(name, len, (flags & GBCFG_S_LOCAL) ? (uint64_t)module + 1 : 0);
}

/* The resolver's table: a slot holds a function index + 1, looked up by
 * a symbol; several functions may match one (a multimap). */
static uint64_t sym_hash(const gb_cfg_graph_t *g, const gb_cfg_sym_t *s)
{
    (void)g;
    return name_key(s->name, s->len, s->flags, s->module);
}

static uint64_t def_hash(const gb_cfg_graph_t *g, const uint32_t *d)
{
    const gb_cfg_func_t *f = &g->funcs[*d - 1];
    return name_key(f->name, f->len, f->flags, f->module);
}

static int def_match(const gb_cfg_graph_t *g, const uint32_t *d, const gb_cfg_sym_t *s)
{
    return same_fn(s, &g->funcs[*d - 1]);
}

static int def_empty(const uint32_t *d)
{
    return *d == 0;
}

GB_HMAP_DEFINE(defmap, uint32_t, const gb_cfg_sym_t *, const gb_cfg_graph_t *, sym_hash, def_hash,
               def_match, def_empty, gb_calloc, gb_free)

/* C library functions that never call back into the program (no callback
 * argument, no handlers run): calling them reaches nothing. Sorted for
 * bsearch. abort, exit, raise, qsort, bsearch, signal, atexit and the
 * like are not here: they may run the program's handlers and callbacks. */
/* clang-format off */
static const char *const leaf_libc[] = {
    "__assert_fail", "__ctype_b_loc", "__ctype_tolower_loc", "__ctype_toupper_loc",
    "__errno_location", "__fprintf_chk", "__memcpy_chk", "__memmove_chk", "__memset_chk",
    "__printf_chk", "__snprintf_chk", "__sprintf_chk", "__stack_chk_fail", "__strcat_chk",
    "__strcpy_chk", "__strncpy_chk", "__vfprintf_chk", "__vsnprintf_chk", "_exit", "atoi", "atol",
    "bcmp", "calloc", "close", "fclose", "fflush", "fgetc", "fgets", "fopen", "fprintf", "fputc",
    "fputs", "fread", "free", "fseek", "ftell", "fwrite", "getc", "getenv", "lseek", "malloc",
    "memchr", "memcmp", "memcpy", "memmove", "memset", "open", "pread", "printf", "putchar", "puts",
    "read", "realloc", "snprintf", "sprintf", "strcat", "strchr", "strcmp", "strcpy", "strdup",
    "strerror", "strlen", "strncmp", "strncpy", "strnlen", "strrchr", "strstr", "strtol", "strtoll",
    "strtoul", "strtoull", "vfprintf", "vsnprintf", "write",
};
/* clang-format on */

/* What the driver calls by name: a return from one of them ends the run. */
static const char *const entries[] = {"LLVMFuzzerInitialize", "LLVMFuzzerTestOneInput", "main"};

static int name_cmp(const void *key, const void *elem)
{
    const gb_cfg_sym_t *s = key;
    const char *name = *(const char *const *)elem;
    /* By lengths, not strncmp: a name from the section may hold a NUL,
     * which stopped strncmp early and then name[s->len] read past the
     * end of the shorter list entry. */
    size_t n = strlen(name);
    int r = memcmp(s->name, name, s->len < n ? s->len : n);
    return r ? r : (s->len > n) - (s->len < n);
}

static int listed(const char *name, uint32_t len, const char *const *list, size_t n)
{
    gb_cfg_sym_t key = {.name = name, .len = len};
    return bsearch(&key, list, n, sizeof *list, name_cmp) != NULL;
}

/* Every symbol gets the definitions it names: a local one the function of
 * its own module, a global one every non-local definition of that name
 * (the linker kept one of several weak copies; all are possible). */
static int resolve(gb_cfg_graph_t *g)
{
    defmap_t tab;
    if (defmap_init(&tab, g, g->nfuncs + 1) != 0)
        return -1;
    for (size_t i = 0; i < g->nfuncs; i++) { /* reserved: never NULL */
        const gb_cfg_func_t *f = &g->funcs[i];
        gb_cfg_sym_t k = {.name = f->name, .len = f->len, .module = f->module, .flags = f->flags};
        *defmap_add_reserved(&tab, &k) = (uint32_t)i + 1;
    }
    int rc = 0;
    for (size_t i = 0; i < g->nsyms && rc == 0; i++) {
        gb_cfg_sym_t *s = &g->syms[i];
        s->defs = (uint32_t)g->defs.n;
        for (uint32_t *d = defmap_find(&tab, s); d && rc == 0; d = defmap_find_next(&tab, s, d)) {
            rc = push(&g->defs, *d - 1);
            g->funcs[*d - 1].flags |= s->flags & GBCFG_S_ADDR_TAKEN; /* taken in any module */
        }
        s->ndefs = (uint32_t)g->defs.n - s->defs;
        s->leaf = s->ndefs == 0 &&
                  listed(s->name, s->len, leaf_libc, sizeof leaf_libc / sizeof leaf_libc[0]);
    }
    defmap_free(&tab);
    return rc;
}

/* ---- indexes -------------------------------------------------------- */

/* Fills a bucketed list: each of `n` buckets gets its entries
 * contiguously in `out` (start and count at first[b], count[b]). `each`
 * calls add(g, bucket, item) for every entry, once to count, once to
 * place. */
typedef struct buckets {
    gb_cfg_u32v_t *out;
    uint32_t *first, *count, *fill;
    int placing;
} buckets_t;

static void bucket_add(buckets_t *bk, uint32_t bucket, uint32_t item)
{
    if (!bk->placing)
        bk->count[bucket]++;
    else
        bk->out->v[bk->first[bucket] + bk->fill[bucket]++] = item;
}

/* Between the counting and the placing pass: the buckets' starts. */
static int bucket_layout(buckets_t *bk, size_t n)
{
    size_t total = 0;
    for (size_t b = 0; b < n; b++) {
        bk->first[b] = (uint32_t)total;
        total += bk->count[b];
    }
    if (grow((void **)&bk->out->v, &bk->out->cap, total + 1, sizeof *bk->out->v) != 0)
        return -1;
    bk->out->n = total;
    bk->placing = 1;
    return 0;
}

static void each_caller(const gb_cfg_graph_t *g, buckets_t *bk)
{
    for (size_t b = 0; b < g->nblocks; b++) {
        const gb_cfg_block_t *bl = &g->blocks[b];
        for (uint32_t k = 0; k < bl->ncalls; k++) {
            const gb_cfg_sym_t *s = &g->syms[g->calls.v[bl->calls + k]];
            for (uint32_t d = 0; d < s->ndefs; d++)
                bucket_add(bk, g->defs.v[s->defs + d], (uint32_t)b);
        }
    }
}

/* callers: for each function, the blocks with a direct call to it. */
static int index_callers(gb_cfg_graph_t *g)
{
    uint32_t *tmp = gb_calloc(3 * (g->nfuncs + 1), sizeof *tmp);
    if (!tmp)
        return -1;
    buckets_t bk = {&g->callers, tmp, tmp + g->nfuncs + 1, tmp + 2 * (g->nfuncs + 1), 0};
    each_caller(g, &bk);
    int rc = bucket_layout(&bk, g->nfuncs);
    if (rc == 0)
        each_caller(g, &bk);
    for (size_t i = 0; i < g->nfuncs; i++) {
        g->funcs[i].callers = tmp[i];
        g->funcs[i].ncallers = bk.count[i];
    }
    gb_free(tmp);
    return rc;
}

static void add_site(gb_cfg_graph_t *g, uint32_t site, uint32_t block, uint32_t arm)
{
    int fresh; /* reserved: never NULL */
    gb_cfg_site_t *s = gb_cfg_sitemap_put(&g->sites, (uint64_t)site + 1, &fresh);
    if (fresh)
        *s = (gb_cfg_site_t){(uint64_t)site + 1, block, arm};
    else
        s->block = NONE; /* two branches share the id: never decide it */
}

static int index_sites(gb_cfg_graph_t *g)
{
    size_t n = 0;
    for (size_t b = 0; b < g->nblocks; b++)
        n += g->blocks[b].kind == GBCFG_T_BR       ? 1
             : g->blocks[b].kind == GBCFG_T_SWITCH ? g->blocks[b].nsucc
                                                   : 0;
    if (gb_cfg_sitemap_init(&g->sites, NULL, n + 1) != 0)
        return -1;
    for (size_t b = 0; b < g->nblocks; b++) {
        const gb_cfg_block_t *bl = &g->blocks[b];
        if (bl->kind == GBCFG_T_BR)
            add_site(g, bl->site, (uint32_t)b, NONE);
        else if (bl->kind == GBCFG_T_SWITCH) /* case i is site + i; successor 0: default */
            for (uint32_t i = 0; i + 1 < bl->nsucc; i++)
                add_site(g, bl->site + i, (uint32_t)b, i);
    }
    return 0;
}

static int sig_is(const gb_cfg_graph_t *g, uint32_t sig, const char *text)
{
    return sig != NONE && g->sigs[sig].len == strlen(text) &&
           memcmp(g->sigs[sig].text, text, g->sigs[sig].len) == 0;
}

/* Whether exit-time code may call a function of signature `sig`: atexit
 * handlers and destructors are v(), on_exit handlers v(i32,p), and C++
 * destructors registered with __cxa_atexit v(p), in a program that
 * calls it. Unknown: maybe. */
static int exit_sig(const gb_cfg_graph_t *g, uint32_t sig, int cxa)
{
    return sig == NONE || sig_is(g, sig, "v()") || sig_is(g, sig, "v(i32,p)") ||
           (cxa && sig_is(g, sig, "v(p)"));
}

static int calls_cxa_atexit(const gb_cfg_graph_t *g)
{
    static const char *const reg[] = {"__cxa_atexit", "__cxa_thread_atexit"};
    for (size_t i = 0; i < g->nsyms; i++)
        if (g->syms[i].ndefs == 0 && listed(g->syms[i].name, g->syms[i].len, reg, 2))
            return 1;
    return 0;
}

/* The address-taken functions by signature (sig_funcs), and the blocks
 * that call through each signature (sig_sites, a block once per
 * signature). */
static void each_sig_use(const gb_cfg_graph_t *g, buckets_t *funcs, buckets_t *sites)
{
    for (size_t i = 0; i < g->nfuncs; i++)
        if ((g->funcs[i].flags & GBCFG_S_ADDR_TAKEN) && g->funcs[i].sig != NONE)
            bucket_add(funcs, g->funcs[i].sig, (uint32_t)i);
    for (size_t b = 0; b < g->nblocks; b++) {
        if (g->blocks[b].nisig == 0)
            continue; /* isigs.v is NULL in a program without indirect calls: NULL + 0 is UB */
        const uint32_t *s = g->isigs.v + g->blocks[b].isig;
        for (uint32_t k = 0; k < g->blocks[b].nisig; k++) {
            int again = 0;
            for (uint32_t j = 0; j < k; j++)
                again |= s[j] == s[k];
            if (s[k] != NONE && !again)
                bucket_add(sites, s[k], (uint32_t)b);
        }
    }
}

static int index_sigs(gb_cfg_graph_t *g)
{
    size_t n = g->nsigs + 1;
    uint32_t *tmp = gb_calloc(6 * n, sizeof *tmp);
    if (!tmp)
        return -1;
    buckets_t f = {&g->sig_funcs, tmp, tmp + n, tmp + 2 * n, 0};
    buckets_t s = {&g->sig_sites, tmp + 3 * n, tmp + 4 * n, tmp + 5 * n, 0};
    each_sig_use(g, &f, &s);
    int rc = bucket_layout(&f, g->nsigs) == 0 && bucket_layout(&s, g->nsigs) == 0 ? 0 : -1;
    if (rc == 0)
        each_sig_use(g, &f, &s);
    for (size_t i = 0; i < g->nsigs; i++) {
        g->sigs[i].funcs = f.first[i];
        g->sigs[i].nfuncs = f.count[i];
        g->sigs[i].sites = s.first[i];
        g->sigs[i].nsites = s.count[i];
    }
    gb_free(tmp);
    return rc;
}

/* Who may call each function from outside the CFG: the driver (entry
 * points), exit-time code (address-taken functions with an exit handler's
 * signature), any code outside the CFG (address-taken functions). And
 * which functions outside the CFG an indirect call may reach. */
static int index_roles(gb_cfg_graph_t *g)
{
    int cxa = calls_cxa_atexit(g);
    for (size_t i = 0; i < g->nfuncs; i++) {
        gb_cfg_func_t *f = &g->funcs[i];
        if (!(f->flags & GBCFG_S_LOCAL) &&
            listed(f->name, f->len, entries, sizeof entries / sizeof entries[0]))
            f->role |= GB_CFG_ENTRY;
        if (!(f->flags & GBCFG_S_ADDR_TAKEN))
            continue;
        if (push(&g->addr_taken, (uint32_t)i) != 0 ||
            (f->sig == NONE && push(&g->any_sig, (uint32_t)i) != 0))
            return -1;
        if (exit_sig(g, f->sig, cxa)) {
            f->role |= GB_CFG_EXIT;
            if (push(&g->exits, (uint32_t)i) != 0)
                return -1;
        }
    }
    for (size_t i = 0; i < g->nsyms; i++) {
        const gb_cfg_sym_t *s = &g->syms[i];
        if (s->ndefs == 0 && !s->leaf && (s->flags & GBCFG_S_ADDR_TAKEN)) {
            if (s->sig == NONE)
                g->out_any = 1;
            else
                g->sigs[s->sig].out = 1;
        }
    }
    return 0;
}

/* A block calls out when a call in it may run code outside the CFG: a
 * direct call of a function without a definition that is no leaf, an
 * indirect call whose signature such a function has, or an unknown one. */
static int calls_out(const gb_cfg_graph_t *g, const gb_cfg_block_t *bl)
{
    for (uint32_t k = 0; k < bl->ncalls; k++) {
        const gb_cfg_sym_t *s = &g->syms[g->calls.v[bl->calls + k]];
        if (s->ndefs == 0 && !s->leaf)
            return 1;
    }
    for (uint32_t k = 0; k < bl->nisig; k++) {
        uint32_t s = g->isigs.v[bl->isig + k];
        if (s == NONE || g->out_any || g->sigs[s].out)
            return 1;
    }
    return 0;
}

static int index_blocks(gb_cfg_graph_t *g)
{
    for (size_t b = 0; b < g->nblocks; b++) {
        const gb_cfg_block_t *bl = &g->blocks[b];
        int blind = 0;
        for (uint32_t k = 0; k < bl->nisig; k++)
            blind |= g->isigs.v[bl->isig + k] == NONE;
        if ((bl->nisig && push(&g->isites, (uint32_t)b) != 0) ||
            (blind && push(&g->blind, (uint32_t)b) != 0) ||
            (calls_out(g, bl) && push(&g->callouts, (uint32_t)b) != 0) ||
            ((bl->flags & GBCFG_B_SETJMP) && push(&g->setjmps, (uint32_t)b) != 0))
            return -1;
    }
    return 0;
}

static int index_all(gb_cfg_graph_t *g)
{
    if (resolve(g) != 0 || index_callers(g) != 0 || index_sites(g) != 0 || index_sigs(g) != 0 ||
        index_roles(g) != 0 || index_blocks(g) != 0)
        return -1;
    return 0;
}

/* Walks the module records of g->data. */
static int parse_records(gb_cfg_graph_t *g, sigmap_t *intern, gb_err_t *e)
{
    rd_t all = {g->data, g->len / 4, 0, 0};
    while (all.i < all.n) {
        size_t at = all.i;
        uint32_t magic = word(&all);
        if (magic == 0)
            continue; /* padding between objects */
        uint32_t version = word(&all), nwords = word(&all);
        if (magic != GBCFG_MAGIC || all.bad)
            return gb_err_set(e, "bad .gb_cfg section: no record at word %zu", at);
        if (version < GBCFG_VERSION_MIN || version > GBCFG_VERSION)
            return gb_err_set(e,
                              "unsupported .gb_cfg version %u (this glassbox reads %u to %u): "
                              "rebuild the target",
                              version, GBCFG_VERSION_MIN, GBCFG_VERSION);
        if (nwords < 3 || nwords > all.n - at)
            return gb_err_set(e, "bad .gb_cfg section: record at word %zu has length %u", at,
                              nwords);
        rd_t r = {g->data + 4 * at, nwords, 3, 0};
        if (parse_module(g, &r, intern, version) != 0)
            return gb_err_set(e, "bad .gb_cfg section: record at word %zu is malformed", at);
        all.i = at + nwords;
    }
    return index_all(g) == 0 ? 0 : gb_err_set(e, "out of memory");
}

int gb_cfg_graph_parse(gb_cfg_graph_t *g, const uint8_t *data, size_t len, gb_err_t *e)
{
    if (len % 4 || len > CFG_MAX_BYTES)
        return gb_err_set(e, "bad .gb_cfg section: %zu bytes is not a whole number of words", len);
    if (!(g->data = gb_malloc(len + 1)))
        return gb_err_set(e, "out of memory");
    memcpy(g->data, data, len);
    g->len = len;
    sigmap_t intern;
    if (sigmap_init(&intern, g, 64) != 0)
        return gb_err_set(e, "out of memory");
    int rc = parse_records(g, &intern, e);
    sigmap_free(&intern);
    return rc;
}

void gb_cfg_graph_free(gb_cfg_graph_t *g)
{
    gb_free(g->data);
    gb_free(g->blocks);
    gb_free(g->funcs);
    gb_free(g->syms);
    gb_free(g->sigs);
    gb_free(g->files);
    gb_cfg_u32v_t *vs[] = {&g->succ,      &g->calls,     &g->isigs,      &g->defs,    &g->callers,
                           &g->lines,
                           &g->sig_funcs, &g->sig_sites, &g->addr_taken, &g->any_sig, &g->exits,
                           &g->isites,    &g->blind,     &g->callouts,   &g->setjmps};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
        gb_free(vs[i]->v);
    gb_cfg_sitemap_free(&g->sites);
}

const gb_cfg_site_t *gb_cfg_graph_site(const gb_cfg_graph_t *g, uint32_t site)
{
    const gb_cfg_site_t *s = gb_cfg_sitemap_find(&g->sites, (uint64_t)site + 1);
    return s && s->block != NONE ? s : NULL;
}

/* ---- ELF ------------------------------------------------------------ */

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

/* The `.gb_cfg` section's bytes: 1 found, 0 none, -1 unreadable file. */
static int elf_section(int fd, uint64_t fsize, uint8_t **data, size_t *len)
{
    Elf64_Ehdr eh;
    if (fsize < sizeof eh || read_at(fd, &eh, sizeof eh, 0) != 0)
        return 0;
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shoff == 0 || eh.e_shoff > fsize)
        return 0;
    Elf64_Shdr first;
    if (read_at(fd, &first, sizeof first, eh.e_shoff) != 0)
        return 0;
    uint64_t n = eh.e_shnum ? eh.e_shnum : first.sh_size;
    uint64_t strndx = eh.e_shstrndx == SHN_XINDEX ? first.sh_link : eh.e_shstrndx;
    if (n == 0 || n > (fsize - eh.e_shoff) / sizeof(Elf64_Shdr) || strndx >= n)
        return 0;
    Elf64_Shdr *sh = gb_malloc(n * sizeof *sh);
    if (!sh || read_at(fd, sh, n * sizeof *sh, eh.e_shoff) != 0) {
        gb_free(sh);
        return -1;
    }
    const Elf64_Shdr *ss = &sh[strndx];
    int fits = ss->sh_size <= fsize && ss->sh_offset <= fsize - ss->sh_size;
    char *names = fits ? gb_malloc(ss->sh_size + 1) : NULL;
    int found = 0;
    if (names && read_at(fd, names, ss->sh_size, ss->sh_offset) == 0) {
        names[ss->sh_size] = '\0';
        for (uint64_t i = 0; i < n && !found; i++) {
            if (sh[i].sh_name >= ss->sh_size || strcmp(names + sh[i].sh_name, ".gb_cfg") != 0 ||
                sh[i].sh_type != SHT_PROGBITS || sh[i].sh_size > fsize ||
                sh[i].sh_offset > fsize - sh[i].sh_size || sh[i].sh_size > CFG_MAX_BYTES)
                continue;
            *len = sh[i].sh_size;
            *data = gb_malloc(*len + 1);
            found = *data && read_at(fd, *data, *len, sh[i].sh_offset) == 0 ? 1 : -1;
        }
    }
    gb_free(names);
    gb_free(sh);
    return found;
}

int gb_cfg_graph_read_elf(const char *path, uint8_t **data, size_t *len, gb_err_t *e)
{
    *data = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gb_err_sys(e, "cannot open %s", path);
    struct stat st;
    int found = fstat(fd, &st) == 0 ? elf_section(fd, (uint64_t)st.st_size, data, len) : -1;
    close(fd);
    if (found < 0) {
        gb_free(*data);
        *data = NULL;
        return gb_err_set(e, "cannot read the sections of %s", path);
    }
    return found;
}
