/* SPDX-License-Identifier: Apache-2.0 */
/* Flip selection from the static CFG (CDSE's fCFG idea, for fuzzing): a
 * flip whose new direction cannot reach a block no run has covered is not
 * worth a query. Reads the `.gb_cfg` section (docs/cfg-format.md) and
 * answers by a search over the blocks, with callees and returns. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cfg_int.h"
#include "gb_hmap.h"

#define CFG_MAX_BYTES (1u << 30) /* a larger section is not a CFG glassbox-cc wrote */
#define NONE UINT32_MAX

/* How a block was reached in one reachability walk. */
typedef enum reach_mode {
    REACH_CALLED = 1, /* entered through a call: its returns go back to that call */
    REACH_ANY = 2,    /* its function may return to any caller */
} reach_mode_t;

typedef struct cblock {
    uint32_t id, flags, kind, site, func;
    uint32_t succ, nsucc;   /* into c->succ: block indices */
    uint32_t calls, ncalls; /* into c->calls: symbol indices */
} cblock_t;

typedef struct cfunc {
    const char *name;
    uint32_t len, module, flags;
    uint32_t first, nblocks;
    uint32_t callers, ncallers; /* into c->callers: blocks that call it */
} cfunc_t;

typedef struct csym {
    const char *name;
    uint32_t len, module, flags;
    uint32_t defs, ndefs; /* into c->defs: functions it may name (0 = outside the CFG) */
} csym_t;

typedef struct csite {
    uint64_t key;   /* site id + 1; 0 = empty */
    uint32_t block; /* NONE: two sites share this id, so it is never decided */
    uint32_t arm;   /* switch case index; NONE for a conditional branch */
} csite_t;

typedef struct cans {
    uint64_t key;     /* (site, kind, taken) + 1; 0 = empty */
    uint32_t state;   /* ANS_* */
    uint32_t witness; /* an uncovered block it reached */
} cans_t;

static uint64_t site_hash(uint64_t key)
{
    return (key - 1) * 0x9e3779b97f4a7c15ull;
}
static uint64_t ans_hash(uint64_t key)
{
    return key * 0x9e3779b97f4a7c15ull;
}

GB_HMAP_DEFINE_KEYED(sitemap, csite_t, uint64_t, site_hash, gb_calloc, gb_free)
GB_HMAP_DEFINE_KEYED(ansmap, cans_t, uint64_t, ans_hash, gb_calloc, gb_free)

enum { ANS_ALWAYS = 1, ANS_NEVER = 2, ANS_WITNESS = 3 };

typedef struct u32v {
    uint32_t *v;
    size_t n, cap;
} u32v_t;

struct gb_cfg {
    uint8_t *data; /* the section: names point into it */
    size_t len;
    size_t modules;
    cblock_t *blocks;
    size_t nblocks, cap_blocks;
    cfunc_t *funcs;
    size_t nfuncs, cap_funcs;
    csym_t *syms;
    size_t nsyms, cap_syms;
    u32v_t succ, calls, defs, callers, addr_taken, setjmps;
    sitemap_t sites;            /* branch and switch sites by id */
    ansmap_t ans;               /* answers by (site, kind, taken) */
    uint8_t known[GB_MAP_SIZE / 8]; /* block ids the CFG lists */
    uint32_t last_covered;      /* `covered` when the known check last ran */
    int incomplete;
    /* the search: a stamp per block and function, so nothing is cleared */
    uint32_t stamp, *seen, *fseen;
    uint8_t *mode; /* reach_mode_t of each block in the current walk */
    uint32_t *queue;
    size_t qn;
    int external_done;
};

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

static int push(u32v_t *a, uint32_t x)
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
        return "";
    }
    const char *s = (const char *)(r->p + 4 * r->i);
    r->i += words;
    return s;
}

/* ---- parsing -------------------------------------------------------- */

static int parse_block(gb_cfg_t *c, rd_t *r, uint32_t func, uint32_t first, uint32_t nblocks,
                       uint32_t sym0, uint32_t nsyms)
{
    cblock_t b = {.func = func};
    b.id = word(r);
    uint32_t fk = word(r);
    b.flags = fk & ((1u << GBCFG_KIND_SHIFT) - 1);
    b.kind = fk >> GBCFG_KIND_SHIFT;
    b.site = word(r);
    uint32_t ns = word(r);
    if (r->bad || b.id >= GB_MAP_SIZE || (b.flags & ~GBCFG_B_KNOWN) || b.kind > GBCFG_T_SWITCH ||
        ns > r->n - r->i || (b.kind == GBCFG_T_BR && ns != 2) || (b.kind == GBCFG_T_SWITCH && ns < 1))
        return -1;
    b.succ = (uint32_t)c->succ.n;
    b.nsucc = ns;
    for (uint32_t k = 0; k < ns; k++) {
        uint32_t o = word(r);
        if (o >= nblocks || push(&c->succ, first + o) != 0)
            return -1;
    }
    uint32_t nc = word(r);
    if (r->bad || nc > r->n - r->i)
        return -1;
    b.calls = (uint32_t)c->calls.n;
    b.ncalls = nc;
    for (uint32_t k = 0; k < nc; k++) {
        uint32_t sidx = word(r);
        if (sidx >= nsyms || push(&c->calls, sym0 + sidx) != 0)
            return -1;
    }
    if (grow((void **)&c->blocks, &c->cap_blocks, c->nblocks + 1, sizeof *c->blocks) != 0)
        return -1;
    c->blocks[c->nblocks++] = b;
    c->known[b.id >> 3] |= (uint8_t)(1u << (b.id & 7));
    return 0;
}

static int parse_func(gb_cfg_t *c, rd_t *r, uint32_t module, uint32_t sym0, uint32_t nsyms)
{
    cfunc_t f = {.module = module};
    f.flags = word(r);
    f.name = str(r, &f.len);
    f.nblocks = word(r);
    f.first = (uint32_t)c->nblocks;
    /* a block takes at least five words */
    if (r->bad || f.nblocks == 0 || f.nblocks > (r->n - r->i) / 5)
        return -1;
    if (grow((void **)&c->funcs, &c->cap_funcs, c->nfuncs + 1, sizeof *c->funcs) != 0)
        return -1;
    uint32_t fi = (uint32_t)c->nfuncs;
    c->funcs[c->nfuncs++] = f;
    for (uint32_t b = 0; b < f.nblocks; b++)
        if (parse_block(c, r, fi, f.first, f.nblocks, sym0, nsyms) != 0)
            return -1;
    return 0;
}

static int parse_module(gb_cfg_t *c, rd_t *r)
{
    uint32_t len, module = (uint32_t)c->modules++;
    str(r, &len); /* the module's name: only for people reading a dump */
    uint32_t nsyms = word(r), sym0 = (uint32_t)c->nsyms;
    if (r->bad || nsyms > (r->n - r->i) / 2)
        return -1;
    if (grow((void **)&c->syms, &c->cap_syms, c->nsyms + nsyms, sizeof *c->syms) != 0)
        return -1;
    for (uint32_t k = 0; k < nsyms; k++) {
        csym_t *s = &c->syms[c->nsyms++];
        memset(s, 0, sizeof *s);
        s->module = module;
        s->flags = word(r);
        s->name = str(r, &s->len);
    }
    uint32_t nfuncs = word(r);
    if (r->bad)
        return -1;
    for (uint32_t k = 0; k < nfuncs; k++)
        if (parse_func(c, r, module, sym0, nsyms) != 0)
            return -1;
    return r->bad || r->i != r->n ? -1 : 0;
}

/* ---- resolving calls ------------------------------------------------ */

static int same_fn(const csym_t *s, const cfunc_t *f)
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
static uint64_t sym_hash(const gb_cfg_t *c, const csym_t *s)
{
    (void)c;
    return name_key(s->name, s->len, s->flags, s->module);
}

static uint64_t def_hash(const gb_cfg_t *c, const uint32_t *d)
{
    const cfunc_t *f = &c->funcs[*d - 1];
    return name_key(f->name, f->len, f->flags, f->module);
}

static int def_match(const gb_cfg_t *c, const uint32_t *d, const csym_t *s)
{
    return same_fn(s, &c->funcs[*d - 1]);
}

static int def_empty(const uint32_t *d)
{
    return *d == 0;
}

GB_HMAP_DEFINE(defmap, uint32_t, const csym_t *, const gb_cfg_t *, sym_hash, def_hash, def_match,
               def_empty, gb_calloc, gb_free)

/* Every symbol gets the definitions it names: a local one the function of
 * its own module, a global one every non-local definition of that name
 * (the linker kept one of several weak copies; all are possible). */
static int resolve(gb_cfg_t *c)
{
    defmap_t tab;
    if (defmap_init(&tab, c, c->nfuncs + 1) != 0)
        return -1;
    for (size_t i = 0; i < c->nfuncs; i++) { /* reserved: never NULL */
        const cfunc_t *f = &c->funcs[i];
        csym_t k = {f->name, f->len, f->module, f->flags, 0, 0};
        *defmap_add_reserved(&tab, &k) = (uint32_t)i + 1;
    }
    int rc = 0;
    for (size_t i = 0; i < c->nsyms && rc == 0; i++) {
        csym_t *s = &c->syms[i];
        s->defs = (uint32_t)c->defs.n;
        for (uint32_t *d = defmap_find(&tab, s); d && rc == 0; d = defmap_find_next(&tab, s, d)) {
            rc = push(&c->defs, *d - 1);
            c->funcs[*d - 1].flags |= s->flags & GBCFG_S_ADDR_TAKEN; /* taken in any module */
        }
        s->ndefs = (uint32_t)c->defs.n - s->defs;
    }
    defmap_free(&tab);
    return rc;
}

/* callers: for each function, the blocks with a direct call to it. */
static int index_callers(gb_cfg_t *c)
{
    uint32_t *count = gb_calloc(c->nfuncs + 1, sizeof *count);
    if (!count)
        return -1;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t b = 0; b < c->nblocks; b++) {
            const cblock_t *bl = &c->blocks[b];
            for (uint32_t k = 0; k < bl->ncalls; k++) {
                const csym_t *s = &c->syms[c->calls.v[bl->calls + k]];
                for (uint32_t d = 0; d < s->ndefs; d++) {
                    cfunc_t *f = &c->funcs[c->defs.v[s->defs + d]];
                    if (pass == 0)
                        f->ncallers++;
                    else
                        c->callers.v[f->callers + count[c->defs.v[s->defs + d]]++] = (uint32_t)b;
                }
            }
        }
        if (pass == 1)
            break;
        size_t total = 0;
        for (size_t i = 0; i < c->nfuncs; i++) {
            c->funcs[i].callers = (uint32_t)total;
            total += c->funcs[i].ncallers;
        }
        if (grow((void **)&c->callers.v, &c->callers.cap, total + 1, sizeof *c->callers.v) != 0) {
            gb_free(count);
            return -1;
        }
        c->callers.n = total;
    }
    gb_free(count);
    return 0;
}

static void add_site(gb_cfg_t *c, uint32_t site, uint32_t block, uint32_t arm)
{
    int fresh; /* reserved: never NULL */
    csite_t *s = sitemap_put(&c->sites, (uint64_t)site + 1, &fresh);
    if (fresh)
        *s = (csite_t){(uint64_t)site + 1, block, arm};
    else
        s->block = NONE; /* two branches share the id: never decide it */
}

static int index_sites(gb_cfg_t *c)
{
    size_t n = 0;
    for (size_t b = 0; b < c->nblocks; b++)
        n += c->blocks[b].kind == GBCFG_T_BR ? 1 : c->blocks[b].kind == GBCFG_T_SWITCH ? c->blocks[b].nsucc : 0;
    if (sitemap_init(&c->sites, NULL, n + 1) != 0)
        return -1;
    for (size_t b = 0; b < c->nblocks; b++) {
        const cblock_t *bl = &c->blocks[b];
        if (bl->kind == GBCFG_T_BR)
            add_site(c, bl->site, (uint32_t)b, NONE);
        else if (bl->kind == GBCFG_T_SWITCH) /* case i records site + i; successor 0 is the default */
            for (uint32_t i = 0; i + 1 < bl->nsucc; i++)
                add_site(c, bl->site + i, (uint32_t)b, i);
    }
    return 0;
}

static int index_all(gb_cfg_t *c)
{
    if (resolve(c) != 0 || index_callers(c) != 0 || index_sites(c) != 0)
        return -1;
    for (size_t i = 0; i < c->nfuncs; i++)
        if ((c->funcs[i].flags & GBCFG_S_ADDR_TAKEN) && push(&c->addr_taken, (uint32_t)i) != 0)
            return -1;
    for (size_t b = 0; b < c->nblocks; b++)
        if ((c->blocks[b].flags & GBCFG_B_SETJMP) && push(&c->setjmps, (uint32_t)b) != 0)
            return -1;
    c->seen = gb_calloc(c->nblocks + 1, sizeof *c->seen);
    c->fseen = gb_calloc(c->nfuncs + 1, sizeof *c->fseen);
    c->mode = gb_calloc(c->nblocks + 1, 1);
    c->queue = gb_calloc(2 * c->nblocks + 1, sizeof *c->queue);
    return c->seen && c->fseen && c->mode && c->queue ? 0 : -1;
}

/* Walks the module records of c->data. */
static int parse_records(gb_cfg_t *c, gb_err_t *e)
{
    rd_t all = {c->data, c->len / 4, 0, 0};
    while (all.i < all.n) {
        size_t at = all.i;
        uint32_t magic = word(&all);
        if (magic == 0)
            continue; /* padding between objects */
        uint32_t version = word(&all), nwords = word(&all);
        if (magic != GBCFG_MAGIC || all.bad)
            return gb_err_set(e, "bad .gb_cfg section: no record at word %zu", at);
        if (version != GBCFG_VERSION)
            return gb_err_set(e, "unsupported .gb_cfg version %u (this glassbox reads %u): "
                                 "rebuild the target", version, GBCFG_VERSION);
        if (nwords < 3 || nwords > all.n - at)
            return gb_err_set(e, "bad .gb_cfg section: record at word %zu has length %u", at,
                              nwords);
        rd_t r = {c->data + 4 * at, nwords, 3, 0};
        if (parse_module(c, &r) != 0)
            return gb_err_set(e, "bad .gb_cfg section: record at word %zu is malformed", at);
        all.i = at + nwords;
    }
    return index_all(c) == 0 ? 0 : gb_err_set(e, "out of memory");
}

int gb_cfg_parse(const uint8_t *data, size_t len, gb_cfg_t **out, gb_err_t *e)
{
    *out = NULL;
    if (len % 4 || len > CFG_MAX_BYTES)
        return gb_err_set(e, "bad .gb_cfg section: %zu bytes is not a whole number of words", len);
    gb_cfg_t *c = gb_calloc(1, sizeof *c);
    if (!c || !(c->data = gb_malloc(len + 1))) {
        gb_free(c);
        return gb_err_set(e, "out of memory");
    }
    memcpy(c->data, data, len);
    c->len = len;
    if (parse_records(c, e) != 0) {
        gb_cfg_free(c);
        return -1;
    }
    *out = c;
    return 0;
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

int gb_cfg_load(const char *path, gb_cfg_t **out, gb_err_t *e)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gb_err_sys(e, "cannot open %s", path);
    struct stat st;
    uint8_t *data = NULL;
    size_t len = 0;
    int found = fstat(fd, &st) == 0 ? elf_section(fd, (uint64_t)st.st_size, &data, &len) : -1;
    close(fd);
    if (found < 0) {
        gb_free(data);
        return gb_err_set(e, "cannot read the sections of %s", path);
    }
    if (found == 0)
        return 0;
    gb_err_t pe;
    int rc = gb_cfg_parse(data, len, out, &pe);
    gb_free(data);
    if (rc != 0)
        return gb_err_set(e, "%s: %s", path, pe.msg);
    return 0;
}

void gb_cfg_free(gb_cfg_t *c)
{
    if (!c)
        return;
    gb_free(c->data);
    gb_free(c->blocks);
    gb_free(c->funcs);
    gb_free(c->syms);
    u32v_t *vs[] = {&c->succ, &c->calls, &c->defs, &c->callers, &c->addr_taken, &c->setjmps};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
        gb_free(vs[i]->v);
    sitemap_free(&c->sites);
    ansmap_free(&c->ans);
    gb_free(c->seen);
    gb_free(c->fseen);
    gb_free(c->mode);
    gb_free(c->queue);
    gb_free(c);
}

void gb_cfg_get_info(const gb_cfg_t *c, gb_cfg_info_t *info)
{
    memset(info, 0, sizeof *info);
    if (!c)
        return;
    info->modules = c->modules;
    info->functions = c->nfuncs;
    info->blocks = c->nblocks;
    info->sites = c->sites.n;
}

int gb_cfg_incomplete(const gb_cfg_t *c) { return c && c->incomplete; }

int gb_cfg_has_block(const gb_cfg_t *c, uint32_t id)
{
    return c && id < GB_MAP_SIZE && (c->known[id >> 3] >> (id & 7) & 1);
}

static const csite_t *find_site(const gb_cfg_t *c, uint32_t site);

int gb_cfg_has_site(const gb_cfg_t *c, unsigned kind, uint32_t site)
{
    const csite_t *cs = c ? find_site(c, site) : NULL;
    if (!cs)
        return 0;
    unsigned bk = c->blocks[cs->block].kind;
    return (kind == GBT_PC_BRANCH && bk == GBCFG_T_BR) || (kind == GBT_PC_SWITCH && bk == GBCFG_T_SWITCH);
}

/* ---- reachability --------------------------------------------------- */

/* Marks block b reached in `mode`; REACH_ANY outranks REACH_CALLED. */
static void visit(gb_cfg_t *c, uint32_t b, reach_mode_t mode)
{
    if (c->seen[b] == c->stamp && c->mode[b] >= mode)
        return;
    c->seen[b] = c->stamp;
    c->mode[b] = (uint8_t)mode;
    c->queue[c->qn++] = b;
}

/* C library functions that never call back into the program (no callback
 * argument, no handlers run): calling them reaches nothing. Sorted for
 * bsearch. abort, exit, raise, qsort, bsearch, signal, atexit and the
 * like are not here: they may run the program's handlers and callbacks. */
static const char *const leaf_libc[] = {
    "__assert_fail", "__ctype_b_loc", "__ctype_tolower_loc", "__ctype_toupper_loc",
    "__errno_location", "__fprintf_chk", "__memcpy_chk", "__memmove_chk", "__memset_chk",
    "__printf_chk", "__snprintf_chk", "__sprintf_chk", "__stack_chk_fail", "__strcat_chk",
    "__strcpy_chk", "__strncpy_chk", "__vfprintf_chk", "__vsnprintf_chk", "_exit", "atoi",
    "atol", "bcmp", "calloc", "close", "fclose", "fflush", "fgetc", "fgets", "fopen", "fprintf",
    "fputc", "fputs", "fread", "free", "fseek", "ftell", "fwrite", "getc", "getenv", "lseek",
    "malloc", "memchr", "memcmp", "memcpy", "memmove", "memset", "open", "pread", "printf",
    "putchar", "puts", "read", "realloc", "snprintf", "sprintf", "strcat", "strchr", "strcmp",
    "strcpy", "strdup", "strerror", "strlen", "strncmp", "strncpy", "strnlen", "strrchr",
    "strstr", "strtol", "strtoll", "strtoul", "strtoull", "vfprintf", "vsnprintf", "write",
};

static int name_cmp(const void *key, const void *elem)
{
    const csym_t *s = key;
    const char *name = *(const char *const *)elem;
    int r = strncmp(s->name, name, s->len);
    return r ? r : -(name[s->len] != '\0');
}

static int is_leaf_libc(const csym_t *s)
{
    return bsearch(s, leaf_libc, sizeof leaf_libc / sizeof leaf_libc[0], sizeof leaf_libc[0],
                   name_cmp) != NULL;
}

static void call_sym(gb_cfg_t *c, uint32_t sym);

/* Code outside the CFG (and an indirect call) may call any address-taken
 * function and longjmp to any setjmp; both become reachable. */
static void external(gb_cfg_t *c)
{
    if (c->external_done)
        return;
    c->external_done = 1;
    for (size_t i = 0; i < c->addr_taken.n; i++)
        visit(c, c->funcs[c->addr_taken.v[i]].first, REACH_CALLED);
    for (size_t i = 0; i < c->setjmps.n; i++)
        visit(c, c->setjmps.v[i], 2);
}

static void call_sym(gb_cfg_t *c, uint32_t sym)
{
    const csym_t *s = &c->syms[sym];
    if (s->ndefs == 0 && !is_leaf_libc(s))
        external(c);
    for (uint32_t d = 0; d < s->ndefs; d++)
        visit(c, c->funcs[c->defs.v[s->defs + d]].first, REACH_CALLED);
}

/* A return that may go to any caller: what follows each call site. */
static void any_return(gb_cfg_t *c, uint32_t func)
{
    cfunc_t *f = &c->funcs[func];
    if (c->fseen[func] == c->stamp)
        return;
    c->fseen[func] = c->stamp;
    if (!(f->flags & GBCFG_S_LOCAL) || (f->flags & GBCFG_S_ADDR_TAKEN))
        external(c); /* called from code outside the CFG too */
    for (uint32_t k = 0; k < f->ncallers; k++) {
        const cblock_t *cb = &c->blocks[c->callers.v[f->callers + k]];
        for (uint32_t i = 0; i < cb->nsucc; i++)
            visit(c, c->succ.v[cb->succ + i], REACH_ANY);
        for (uint32_t i = 0; i < cb->ncalls; i++)
            call_sym(c, c->calls.v[cb->calls + i]);
    }
}

/* Runs the search from the queued blocks: the first uncovered block found,
 * or NONE when there is none. */
static uint32_t search(gb_cfg_t *c, const uint8_t *virgin)
{
    for (size_t qi = 0; qi < c->qn; qi++) {
        uint32_t b = c->queue[qi];
        const cblock_t *bl = &c->blocks[b];
        if (!virgin[bl->id] && !(bl->flags & GBCFG_B_DEAD))
            return b;
        if (bl->flags & GBCFG_B_INDIRECT) /* only address-taken functions can be its targets */
            external(c);
        reach_mode_t mode = (reach_mode_t)c->mode[b];
        for (uint32_t i = 0; i < bl->nsucc; i++)
            visit(c, c->succ.v[bl->succ + i], mode);
        for (uint32_t i = 0; i < bl->ncalls; i++)
            call_sym(c, c->calls.v[bl->calls + i]);
        if ((bl->flags & GBCFG_B_RET) && mode == REACH_ANY)
            any_return(c, bl->func);
    }
    return NONE;
}

static const csite_t *find_site(const gb_cfg_t *c, uint32_t site)
{
    const csite_t *s = sitemap_find(&c->sites, (uint64_t)site + 1);
    return s && s->block != NONE ? s : NULL;
}

/* Queues the blocks the new direction starts at; 0 if the entry is not a
 * branch or switch the CFG knows. */
static int start(gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken)
{
    const csite_t *cs = find_site(c, site);
    if (!cs)
        return 0;
    const cblock_t *bl = &c->blocks[cs->block];
    c->stamp++;
    if (c->stamp == 0) { /* wrapped: old stamps could match again */
        memset(c->seen, 0, c->nblocks * sizeof *c->seen);
        memset(c->fseen, 0, c->nfuncs * sizeof *c->fseen);
        c->stamp = 1;
    }
    c->qn = 0;
    c->external_done = 0;
    if (kind == GBT_PC_BRANCH && bl->kind == GBCFG_T_BR && cs->arm == NONE) {
        visit(c, c->succ.v[bl->succ + (taken ? 1 : 0)], 2); /* successor 0 is "true" */
        return 1;
    }
    if (kind != GBT_PC_SWITCH || bl->kind != GBCFG_T_SWITCH || cs->arm == NONE)
        return 0;
    if (!taken) { /* value == case: that case's block */
        visit(c, c->succ.v[bl->succ + 1 + cs->arm], 2);
        return 1;
    }
    for (uint32_t i = 0; i < bl->nsucc; i++) /* value != case: default or another case */
        if (i != 1 + cs->arm)
            visit(c, c->succ.v[bl->succ + i], 2);
    return 1;
}

/* The cached answer for `key`, a fresh one (state 0) if none; NULL on OOM. */
static cans_t *answer(gb_cfg_t *c, uint64_t key)
{
    int fresh;
    cans_t *a = ansmap_put(&c->ans, key, &fresh);
    if (a && fresh)
        a->key = key;
    return a;
}

/* Coverage of a block the CFG does not list means code outside it runs. */
static void check_known(gb_cfg_t *c, const uint8_t *virgin, uint32_t covered)
{
    if (covered == c->last_covered || c->incomplete)
        return;
    c->last_covered = covered;
    /* entry 0 is left out: AFL runtimes have written it at start-up as an
     * "alive" mark, without any block behind it */
    for (uint32_t id = 1; id < GB_MAP_SIZE; id++)
        if (virgin[id] && !(c->known[id >> 3] & (1u << (id & 7)))) {
            c->incomplete = 1;
            return;
        }
}

int gb_cfg_flip_may_reach(gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken,
                          const uint8_t *virgin, uint32_t covered)
{
    if (!c)
        return 1;
    check_known(c, virgin, covered);
    if (c->incomplete || (kind != GBT_PC_BRANCH && kind != GBT_PC_SWITCH))
        return 1;
    cans_t *a = answer(c, ((uint64_t)site << 3 | (uint64_t)kind << 1 | (taken & 1)) + 1);
    if (!a)
        return 1;
    if (a->state == ANS_ALWAYS)
        return 1;
    if (a->state == ANS_NEVER)
        return 0;
    if (a->state == ANS_WITNESS && !virgin[c->blocks[a->witness].id])
        return 1; /* still uncovered */
    if (!start(c, kind, site, taken)) {
        a->state = ANS_ALWAYS;
        return 1;
    }
    uint32_t w = search(c, virgin);
    a->state = w == NONE ? ANS_NEVER : ANS_WITNESS;
    a->witness = w;
    return w != NONE;
}
