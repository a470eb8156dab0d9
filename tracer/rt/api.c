/* SPDX-License-Identifier: Apache-2.0 */
/* Entry points called by --mode=trace code. Each takes the shadows (NULL =
 * concrete) and the concrete values of its operands, and returns the shadow
 * of the result. The instrumenter skips the call when every operand is
 * concrete at compile time; these functions return at once when every
 * operand is concrete at run time. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gb_hmap.h"
#include "rt_int.h"

#define GB_MAX_PARAMS 16

rt_state_t rt;
RT_TLS int rt_active;

/* Shadow passing across calls (see docs/tracer.md, "Calls"). */
RT_EXPORT __thread void *__gb_params[GB_MAX_PARAMS];
RT_EXPORT __thread void *__gb_ret;
RT_EXPORT __thread void *__gb_callee;
/* The call-context hash, kept by instrumented calls (gb_abi.h). */
RT_EXPORT __thread uint32_t __gb_ctx;

/* Lets fuzz-bridge tell a trace build from anything else. */
RT_EXPORT const char __gb_trace_marker[] = "GLASSBOX_TRACE_RUNTIME_V1";

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    return (*end || v == 0) ? dflt : (uint64_t)v;
}

RT_HIDDEN void rt_init(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    rt.lim.max_pcs = env_u64("GLASSBOX_MAX_PCS", 100000);
    rt.lim.max_depth = (unsigned)env_u64("GLASSBOX_MAX_DEPTH", 1000);
    if (rt.lim.max_depth > 60000)
        rt.lim.max_depth = 60000;
    rt.lim.max_nodes = env_u64("GLASSBOX_MAX_NODES", 20u << 20);
    rt.lim.backoff_free = (unsigned)env_u64("GLASSBOX_BACKOFF", 16);
    const char *bc = getenv("GLASSBOX_BACKOFF_CTX");
    rt.lim.backoff_ctx = !(bc && strcmp(bc, "0") == 0);
    /* Off by default: exact table reads made the demo campaign's queries
     * ~50x slower (docs/tracer.md, "Constant tables"). */
    const char *tb = getenv("GLASSBOX_TABLES");
    rt.lim.tables = tb && strcmp(tb, "1") == 0;
    const char *ln = getenv("GLASSBOX_LENGTH");
    rt.lim.length = !(ln && strcmp(ln, "0") == 0);
}

/* Called by the driver with the input buffer: opens the trace and makes
 * every input byte symbolic. Without GLASSBOX_TRACE_OUT the program runs
 * with no symbolic state at all. */
RT_EXPORT void __gb_input(const uint8_t *data, size_t len)
{
    rt_init();
    const char *path = getenv("GLASSBOX_TRACE_OUT");
    if (!path || !*path || rt_out_open(path, data, len) != 0)
        return;
    rt_active = 1;
    rt.input_len = len;
    for (size_t i = 0; i < len; i++)
        rt_shadow_set((uintptr_t)(data + i), rt_input(i));
}

RT_HIDDEN rt_expr_t *rt_input_len(void)
{
    static rt_expr_t *len_expr;
    if (!rt_active || !rt.lim.length || rt.input_len >> (8 * GBT_LEN_BYTES))
        return NULL;
    if (!len_expr) {
        rt_expr_t *v = rt_input(GBT_LEN_OFFSET);
        for (unsigned k = 1; k < GBT_LEN_BYTES && v; k++)
            v = rt_concat(rt_input(GBT_LEN_OFFSET + k), v);
        len_expr = v ? rt_resize(v, 64) : NULL;
    }
    return len_expr;
}

/* For the driver: the shadow of LLVMFuzzerTestOneInput's size argument. */
RT_EXPORT void *__gb_input_len(void)
{
    return rt_input_len();
}

/* The back-off table's memory comes from mmap, not from the target's
 * malloc, which may be instrumented or in a state the runtime must not
 * enter; the length is kept in front of the slots for munmap. */
#define MAP_HEAD 64 /* keeps the slots cache-line aligned */

static void *map_calloc(size_t n, size_t size)
{
    if (size && n > (SIZE_MAX - MAP_HEAD) / size)
        return NULL;
    size_t len = n * size + MAP_HEAD;
    void *p =
        mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    *(size_t *)p = len;
    return (char *)p + MAP_HEAD;
}

static void map_free(void *p)
{
    if (p)
        munmap((char *)p - MAP_HEAD, *(size_t *)(void *)((char *)p - MAP_HEAD));
}

/* One (site, context) and how often it was hit. */
typedef struct bo_slot {
    uint64_t key;  /* context << 32 | site */
    uint32_t hits; /* 0 = empty slot */
} bo_slot_t;

/* The site sits in the low bits: fold the context's bits into them. */
static uint64_t bo_hash(const void *ctx, uint64_t key)
{
    (void)ctx;
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 32);
}

static uint64_t bo_slot_hash(const void *ctx, const bo_slot_t *s)
{
    return bo_hash(ctx, s->key);
}
static int bo_match(const void *ctx, const bo_slot_t *s, uint64_t key)
{
    (void)ctx;
    return s->key == key;
}
static int bo_empty(const bo_slot_t *s)
{
    return s->hits == 0;
}

GB_HMAP_DEFINE(bo_map, bo_slot_t, uint64_t, const void *, bo_hash, bo_slot_hash, bo_match, bo_empty,
               map_calloc, map_free)

/* Only the tracing thread gets here: other threads have no shadows. */
static bo_map_t backoff;

/* QSYM-style back-off: a (site, calling context) records its first
 * `backoff_free` hits, then only hits whose count is a power of two. The
 * context (__gb_ctx) tells apart the callers of a shared helper, so one
 * caller's loop does not use up another's budget. Out of memory, every
 * hit is recorded. */
static int backoff_allows(uint32_t site)
{
    uint64_t key = (uint64_t)(rt.lim.backoff_ctx ? __gb_ctx : 0) << 32 | site;
    int fresh;
    bo_slot_t *s = bo_map_put(&backoff, key, &fresh);
    if (RT_UNLIKELY(!s))
        return 1;
    s->key = key;
    uint32_t n = ++s->hits;
    return n <= rt.lim.backoff_free || (n & (n - 1)) == 0;
}

/* Whether an entry at `site` is recorded, asked before its condition is
 * built: back-off drops most of them (on the demo, all but 741 of 1.18 M
 * pins), and building each would cost nodes for nothing. */
static int keep(uint32_t site)
{
    if (backoff_allows(site))
        return 1;
    rt.dropped++;
    return 0;
}

static void record(unsigned kind, int taken, uint32_t site, rt_expr_t *cond)
{
    if (keep(site))
        rt_out_pc(kind, taken, site, cond);
}

/* A pin that back-off has already let through. */
static void pin_kept(rt_expr_t *e, uint64_t value, uint32_t site)
{
    rt_expr_t *eq = e ? rt_binop(GBT_OP_EQ, e, rt_const(e->width, value)) : NULL;
    if (eq && eq->op != GBT_OP_CONST)
        rt_out_pc(GBT_PC_PIN, 1, site, eq);
}

RT_HIDDEN void rt_pin(rt_expr_t *e, uint64_t value, uint32_t site)
{
    if (!e || e->op == GBT_OP_CONST || !keep(site))
        return;
    pin_kept(e, value, site);
}

static rt_expr_t *val(void *s, uint64_t v, unsigned width)
{
    return s ? (rt_expr_t *)s : rt_const(width, v);
}

RT_EXPORT void *__gb_binop(uint32_t op, uint32_t width, void *a, uint64_t va, void *b,
                           uint64_t vb)
{
    if (!a && !b)
        return NULL;
    return rt_binop(op, val(a, va, width), val(b, vb, width));
}

RT_EXPORT void *__gb_unop(uint32_t op, uint32_t width, void *a, uint64_t imm)
{
    return a ? rt_unop(op, width, (rt_expr_t *)a, imm) : NULL;
}

RT_EXPORT void *__gb_select(void *c, uint64_t vc, void *a, uint64_t va, void *b, uint64_t vb,
                            uint32_t width)
{
    if (!c)
        return (vc & 1) ? a : b;
    return rt_ite((rt_expr_t *)c, val(a, va, width), val(b, vb, width));
}

RT_EXPORT void __gb_branch(void *c, uint64_t vc, uint32_t site)
{
    rt_expr_t *e = c;
    if (!e || e->op == GBT_OP_CONST || !rt_active)
        return;
    record(GBT_PC_BRANCH, (int)(vc & 1), site, e);
}

/* A symbolic divisor: the program's own "divisor != 0" condition, so the
 * search can ask for a division by zero. */
RT_EXPORT void __gb_divcheck(void *d, uint64_t vd, uint32_t site)
{
    rt_expr_t *e = d;
    if (!e || e->op == GBT_OP_CONST || !rt_active || !keep(site))
        return;
    rt_expr_t *ne = rt_binop(GBT_OP_NE, e, rt_const(e->width, 0));
    if (ne && ne->op != GBT_OP_CONST)
        rt_out_pc(GBT_PC_BRANCH, (vd & rt_mask(e->width)) != 0, site, ne);
}

RT_EXPORT void __gb_switch(void *v, uint64_t vv, uint32_t width, uint32_t site, uint32_t n,
                           const uint64_t *cases)
{
    if (!v || ((rt_expr_t *)v)->op == GBT_OP_CONST || !rt_active)
        return;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t c = cases[i] & rt_mask(width);
        if (!keep(site + i))
            continue;
        rt_expr_t *eq = rt_binop(GBT_OP_EQ, (rt_expr_t *)v, rt_const(width, c));
        if (eq && eq->op != GBT_OP_CONST)
            rt_out_pc(GBT_PC_SWITCH, (vv & rt_mask(width)) == c, site + i, eq);
    }
}

RT_EXPORT void *__gb_load(const void *addr, uint32_t size, void *addr_shadow, uint32_t site)
{
    if (RT_UNLIKELY(addr_shadow != NULL)) {
        /* A constant table keeps the value symbolic (a READ); the pin is
         * recorded all the same, so a query that can keep this index stays
         * cheap, and optimistic solving drops it when it is in the way. */
        rt_expr_t *r = rt_table_load(addr_shadow, (uintptr_t)addr, size);
        rt_pin(addr_shadow, (uint64_t)(uintptr_t)addr, site);
        if (r)
            return r;
    }
    if (size > 8)
        return NULL;
    return rt_shadow_load((uintptr_t)addr, size);
}

RT_EXPORT void __gb_store(void *addr, uint32_t size, void *v, void *addr_shadow, uint32_t site)
{
    if (RT_UNLIKELY(addr_shadow != NULL))
        rt_pin(addr_shadow, (uint64_t)(uintptr_t)addr, site);
    if (size > 8)
        v = NULL;
    rt_shadow_store((uintptr_t)addr, size, v);
}

/* The address of a lazy getelementptr (docs/tracer.md, "Performance")
 * at concrete address `addr`: base + sext(idx) * scale plus the constant
 * that makes it equal addr on this run (c: the index's concrete value,
 * vbase: the base's). Either shadow may be NULL, not both. */
static rt_expr_t *ix_addr(rt_expr_t *base, uint64_t vbase, rt_expr_t *idx, uint64_t c,
                          uint64_t scale, uintptr_t addr)
{
    uint64_t off = (uint64_t)addr - (idx ? c * scale : 0);
    rt_expr_t *s = NULL;
    if (idx)
        s = rt_binop(GBT_OP_MUL, rt_unop(GBT_OP_SEXT, 64, idx, 0), rt_const(64, scale));
    if (!base)
        return rt_binop(GBT_OP_ADD, s, rt_const(64, off));
    rt_expr_t *t = rt_binop(GBT_OP_ADD, base, rt_const(64, off - vbase));
    return idx ? rt_binop(GBT_OP_ADD, s, t) : t;
}

static int symbolic(const rt_expr_t *e) { return e && e->op != GBT_OP_CONST; }

/* __gb_load at an address from a getelementptr whose base and one index
 * may be symbolic: the address expression is built only when a constant
 * table reads through it or back-off keeps its pin, which is asked
 * first. On the zlib inflate bench these addresses were ~80% of all
 * nodes, and nearly all of their pins were dropped. */
RT_EXPORT void *__gb_load_ix(const void *addr, uint32_t size, void *base, uint64_t vbase,
                             void *idx, uint64_t c, uint64_t scale, uint32_t site)
{
    if (RT_UNLIKELY(symbolic(base) || symbolic(idx))) {
        int table = rt_table_has((uintptr_t)addr, size), pin = keep(site);
        rt_expr_t *a = table || pin ? ix_addr(base, vbase, idx, c, scale, (uintptr_t)addr) : NULL;
        rt_expr_t *r = table && a ? rt_table_load(a, (uintptr_t)addr, size) : NULL;
        if (pin)
            pin_kept(a, (uint64_t)(uintptr_t)addr, site);
        if (r)
            return r;
    }
    if (size > 8)
        return NULL;
    return rt_shadow_load((uintptr_t)addr, size);
}

/* __gb_store's counterpart of __gb_load_ix. */
RT_EXPORT void __gb_store_ix(void *addr, uint32_t size, void *v, void *base, uint64_t vbase,
                             void *idx, uint64_t c, uint64_t scale, uint32_t site)
{
    if (RT_UNLIKELY(symbolic(base) || symbolic(idx)) && keep(site))
        pin_kept(ix_addr(base, vbase, idx, c, scale, (uintptr_t)addr),
                 (uint64_t)(uintptr_t)addr, site);
    if (size > 8)
        v = NULL;
    rt_shadow_store((uintptr_t)addr, size, v);
}

/* One symbolic index of a getelementptr: returns acc + (sext(idx) - c) *
 * scale, where c is the index's concrete value; __gb_gep_end adds the
 * concrete result, so the sum equals the pointer on this run. */
RT_EXPORT void *__gb_gep_idx(void *acc, void *idx, uint64_t c, uint32_t width, uint64_t scale)
{
    if (!idx)
        return acc;
    rt_expr_t *i = rt_unop(GBT_OP_SEXT, 64, idx, 0);
    rt_expr_t *t = rt_binop(GBT_OP_MUL, i, rt_const(64, scale));
    (void)width;
    t = rt_binop(GBT_OP_SUB, t, rt_const(64, c * scale));
    return acc ? rt_binop(GBT_OP_ADD, acc, t) : t;
}

RT_EXPORT void *__gb_gep_end(void *base, uint64_t vbase, void *acc, uint64_t result)
{
    if (!base && !acc)
        return NULL;
    rt_expr_t *r = rt_const(64, result);
    if (base) /* base moved by (result - vbase) */
        r = rt_binop(GBT_OP_ADD, base, rt_const(64, result - vbase));
    return acc ? rt_binop(GBT_OP_ADD, acc, r) : r;
}

/* Active property checking (SAGE): an index into an array of `n` elements
 * records `sext(idx) <u n`, so that the search can ask for an index out of
 * bounds. Not a constraint on other queries' models: it only widens them. */
/* An upper bound on the unsigned value of `e`, from its shape alone. */
static uint64_t max_value(const rt_expr_t *e)
{
    uint64_t m = rt_mask(e->width);
    switch (e->op) {
    case GBT_OP_CONST: return e->imm;
    case GBT_OP_ZEXT: return max_value(e->arg[0]);
    case GBT_OP_AND: {
        uint64_t a = max_value(e->arg[0]), b = max_value(e->arg[1]);
        return a < b ? a : b;
    }
    case GBT_OP_UREM:
        return e->arg[1]->op == GBT_OP_CONST && e->arg[1]->imm ? e->arg[1]->imm - 1 : m;
    case GBT_OP_LSHR:
        return e->arg[1]->op == GBT_OP_CONST && e->arg[1]->imm < 64 ? m >> e->arg[1]->imm : m;
    default: return m;
    }
}

RT_EXPORT void __gb_check_bound(void *idx, uint64_t v, uint32_t width, uint64_t n, uint32_t site)
{
    rt_expr_t *e = idx;
    if (!e || e->op == GBT_OP_CONST || !rt_active)
        return;
    if (width < 64 && max_value(e) < n && max_value(e) < (1ull << (width - 1)))
        return; /* e.g. table[(c ^ b) & 0xff] into 256 entries: can never fail */
    if (!keep(site))
        return;
    rt_expr_t *i = rt_unop(GBT_OP_SEXT, 64, e, 0);
    rt_expr_t *c = rt_binop(GBT_OP_ULT, i, rt_const(64, n));
    uint64_t sv = width >= 64 ? v : (v ^ (1ull << (width - 1))) - (1ull << (width - 1));
    if (c && c->op != GBT_OP_CONST)
        rt_out_pc(GBT_PC_CHECK, sv < n, site, c);
}

RT_EXPORT void __gb_memcpy(void *dst, const void *src, uint64_t n)
{
    rt_shadow_copy((uintptr_t)dst, (uintptr_t)src, (size_t)n);
}

/* After a call to uninstrumented, unmodelled code: the n bytes at p it may
 * have written are concrete now (docs/tracer.md, "External calls"). */
RT_EXPORT void __gb_clear(void *p, uint64_t n)
{
    if (p && n)
        rt_shadow_clear((uintptr_t)p, (size_t)(n < (1u << 30) ? n : (1u << 30)));
}

RT_EXPORT void __gb_memset(void *dst, void *v, uint64_t n)
{
    if (!v) {
        rt_shadow_clear((uintptr_t)dst, (size_t)n);
        return;
    }
    rt_expr_t *b = rt_resize(v, 8);
    for (uint64_t i = 0; i < n; i++)
        rt_shadow_set((uintptr_t)dst + i, b);
}

/* Called only while the block's bit in __gb_block_seen is clear. With no
 * GLASSBOX_TRACE_OUT no trace can ever open: setting every bit then stops
 * these calls for good. */
RT_EXPORT void __gb_block(uint32_t id)
{
    static int no_trace = -1;
    if (rt_active) {
        rt_out_block(id);
        return;
    }
    if (no_trace < 0) {
        const char *path = getenv("GLASSBOX_TRACE_OUT");
        no_trace = !path || !*path;
    }
    if (no_trace)
        memset(__gb_block_seen, 0xff, sizeof __gb_block_seen);
}
