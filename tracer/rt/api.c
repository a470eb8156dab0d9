/* SPDX-License-Identifier: Apache-2.0 */
/* Entry points called by --mode=trace code. Each takes the shadows (NULL =
 * concrete) and the concrete values of its operands, and returns the shadow
 * of the result. The instrumenter skips the call when every operand is
 * concrete at compile time; these functions return at once when every
 * operand is concrete at run time. */
#include <stdlib.h>
#include <string.h>

#include "gb_abi.h"
#include "rt_int.h"

/* Lets fuzz-bridge tell a trace build from anything else. */
RT_EXPORT const char __gb_trace_marker[] = "GLASSBOX_TRACE_RUNTIME_V1";

static rt_expr_t *val(void *s, uint64_t v, unsigned width)
{
    return s ? (rt_expr_t *)s : rt_const(width, v);
}

RT_EXPORT void *__gb_binop(uint32_t op, uint32_t width, void *a, uint64_t va, void *b,
                           uint64_t vb)
{
    if (!a && !b)
        return NULL;
    if (gbt_op_is_fcmp(op))
        return rt_fcmp(op, val(a, va, width), val(b, vb, width));
    /* One operand concrete: no node read for it (rt_binop_k). */
    if (!gbt_op_is_fp(op)) {
        if (!b && ((rt_expr_t *)a)->width == width)
            return rt_binop_k(op, a, vb);
        if (!a && ((rt_expr_t *)b)->width == width && rt_op_commutes(op))
            return rt_binop_k(op, b, va);
    }
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
    rt_record(GBT_PC_BRANCH, (int)(vc & 1), site, e);
}

/* A symbolic divisor: the program's own "divisor != 0" condition, so the
 * search can ask for a division by zero. */
RT_EXPORT void __gb_divcheck(void *d, uint64_t vd, uint32_t site)
{
    rt_expr_t *e = d;
    if (!e || e->op == GBT_OP_CONST || !rt_active || !rt_keep(site))
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
        if (!rt_keep(site + i))
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
        s = rt_binop_k(GBT_OP_MUL, rt_unop(GBT_OP_SEXT, 64, idx, 0), scale);
    if (!base)
        return rt_binop_k(GBT_OP_ADD, s, off);
    rt_expr_t *t = rt_binop_k(GBT_OP_ADD, base, off - vbase);
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
        int table = rt_table_has((uintptr_t)addr, size), pin = rt_keep(site);
        rt_expr_t *a = table || pin ? ix_addr(base, vbase, idx, c, scale, (uintptr_t)addr) : NULL;
        rt_expr_t *r = table && a ? rt_table_load(a, (uintptr_t)addr, size) : NULL;
        if (pin)
            rt_pin_kept(a, (uint64_t)(uintptr_t)addr, site);
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
    if (RT_UNLIKELY(symbolic(base) || symbolic(idx)) && rt_keep(site))
        rt_pin_kept(ix_addr(base, vbase, idx, c, scale, (uintptr_t)addr),
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
    rt_expr_t *t = rt_binop_k(GBT_OP_MUL, i, scale);
    (void)width;
    t = rt_binop_k(GBT_OP_SUB, t, c * scale);
    return acc ? rt_binop(GBT_OP_ADD, acc, t) : t;
}

RT_EXPORT void *__gb_gep_end(void *base, uint64_t vbase, void *acc, uint64_t result)
{
    if (!base && !acc)
        return NULL;
    /* base moved by (result - vbase) */
    rt_expr_t *r = base ? rt_binop_k(GBT_OP_ADD, base, result - vbase) : rt_const(64, result);
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
    if (!rt_keep(site))
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
        const char *path = getenv(GB_ENV_TRACE_OUT);
        no_trace = !path || !*path;
    }
    if (no_trace)
        memset(__gb_block_seen, 0xff, sizeof __gb_block_seen);
}
