/* SPDX-License-Identifier: Apache-2.0 */
/* FP compares in the runtime: a parsed decimal (the strtod model's
 * UITOFP(M) / D) compared with a constant becomes integer compares of M
 * (tracer/gb_fp.h, gb_fp_quot_cmp), which Z3 answers in milliseconds where
 * fp.div of doubles took seconds; other compares are FP nodes. */
#include "gb_fp.h"
#include "rt_int.h"

/* x = M / D rounded, maybe negated: the strtod model's value. */
typedef struct quot {
    rt_expr_t *m; /* M, at most 53 (24) bits: UITOFP(M) is exact */
    uint64_t d;   /* D, an integer-valued constant >= 1 */
    int neg;      /* the value is -x (its sign bit flipped) */
} quot_t;

static int is_const(const rt_expr_t *e) { return e->op == GBT_OP_CONST; }

static int as_quot(const rt_expr_t *e, unsigned w, quot_t *q)
{
    q->neg = e->op == GBT_OP_XOR && is_const(e->arg[1]) && e->arg[1]->imm == 1ull << (w - 1);
    if (q->neg)
        e = e->arg[0];
    if (e->op != GBT_OP_FDIV || !is_const(e->arg[1]) || e->arg[0]->op != GBT_OP_UITOFP ||
        e->arg[0]->arg[0]->width > (w == 32 ? 24u : 53u))
        return 0;
    double d = gb_fp_val(e->arg[1]->imm, w);
    if (!(d >= 1.0 && d < 9.0e18) || gb_fp_trunc(d) != d)
        return 0;
    q->m = e->arg[0]->arg[0];
    q->d = (uint64_t)d;
    return 1;
}

/* The predicate with its operands swapped (c < x is x > c). */
static unsigned swapped(unsigned op)
{
    switch (op) {
    case GBT_OP_FOGT: return GBT_OP_FOLT;
    case GBT_OP_FOLT: return GBT_OP_FOGT;
    case GBT_OP_FOGE: return GBT_OP_FOLE;
    case GBT_OP_FOLE: return GBT_OP_FOGE;
    case GBT_OP_FUGT: return GBT_OP_FULT;
    case GBT_OP_FULT: return GBT_OP_FUGT;
    case GBT_OP_FUGE: return GBT_OP_FULE;
    case GBT_OP_FULE: return GBT_OP_FUGE;
    default: return op;
    }
}

/* M >= t, M zero-extended to 64 bits. */
static rt_expr_t *at_least(rt_expr_t *m, uint64_t t)
{
    if (t == 0 || t == GB_FP_NEVER)
        return rt_const(1, t == 0);
    return rt_binop(GBT_OP_UGE, rt_resize(m, 64), rt_const(64, t));
}

/* fcmp op (a, b) with one side a quotient (as_quot) and the other a
 * constant that is not NaN: integer compares of M (gb_fp_quot_cmp), equal
 * for every M. NULL when the operands do not have that form. */
static rt_expr_t *quot_cmp(unsigned op, rt_expr_t *a, rt_expr_t *b)
{
    unsigned w = a->width;
    quot_t q;
    if ((op == GBT_OP_FORD || op == GBT_OP_FUNO) && a == b && as_quot(a, w, &q))
        return rt_const(1, op == GBT_OP_FORD); /* never NaN: __gb_fp_bits's guard */
    if (is_const(a)) {
        rt_expr_t *t = a;
        a = b;
        b = t;
        op = swapped(op);
    }
    if (!is_const(b) || gb_fp_val(b->imm, w) != gb_fp_val(b->imm, w) || !as_quot(a, w, &q))
        return NULL;
    uint64_t cb = b->imm, t1, t2;
    if (q.neg) { /* -x op c is x op' -c */
        op = swapped(op);
        cb ^= 1ull << (w - 1);
    }
    int form = gb_fp_quot_cmp(op, cb, w, q.d, &t1, &t2);
    if (form < 0)
        return rt_const(1, op == GBT_OP_FORD);
    rt_expr_t *r = at_least(q.m, t1);
    if (form & 2)
        r = rt_binop(GBT_OP_AND, r, rt_unop(GBT_OP_NOT, 1, at_least(q.m, t2), 0));
    return form & 4 ? rt_unop(GBT_OP_NOT, 1, r, 0) : r;
}

RT_HIDDEN rt_expr_t *rt_fcmp(unsigned op, rt_expr_t *a, rt_expr_t *b)
{
    if (!a || !b)
        return NULL;
    rt_expr_t *r = quot_cmp(op, a, b);
    return r ? r : rt_fp(op, 1, a, b);
}
