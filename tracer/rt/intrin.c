/* SPDX-License-Identifier: Apache-2.0 */
/* Shadows of LLVM intrinsics, built from the trace format's existing
 * operators (docs/tracer.md): bswap is a concat of extracts, ctpop a sum of
 * bits, ctlz/cttz ite chains, saturating and overflow arithmetic compare
 * and select. */
#include "gb_abi.h"
#include "rt_int.h"

static rt_expr_t *val(void *s, uint64_t v, unsigned w)
{
    return s ? (rt_expr_t *)s : rt_const(w, v);
}

static rt_expr_t *bin(unsigned op, rt_expr_t *a, rt_expr_t *b) { return rt_binop(op, a, b); }
static rt_expr_t *cw(unsigned w, uint64_t v) { return rt_const(w, v); }
static rt_expr_t *bit(rt_expr_t *x, unsigned i) { return rt_extract(x, i, 1); }

static uint64_t smin_of(unsigned w) { return 1ull << (w - 1); }
static uint64_t smax_of(unsigned w) { return rt_mask(w) >> 1; }

static rt_expr_t *bswap(rt_expr_t *x, unsigned w)
{
    rt_expr_t *acc = rt_extract(x, 0, 8);
    for (unsigned i = 8; i + 8 <= w; i += 8)
        acc = rt_concat(acc, rt_extract(x, i, 8));
    return acc;
}

static rt_expr_t *ctpop(rt_expr_t *x, unsigned w)
{
    rt_expr_t *acc = cw(w, 0);
    for (unsigned i = 0; i < w; i++)
        acc = bin(GBT_OP_ADD, acc, rt_resize(bit(x, i), w));
    return acc;
}

/* ctlz: the highest set bit decides, so it goes outermost. */
static rt_expr_t *ctlz(rt_expr_t *x, unsigned w)
{
    rt_expr_t *r = cw(w, w);
    for (unsigned i = 0; i < w; i++)
        r = rt_ite(bit(x, i), cw(w, w - 1 - i), r);
    return r;
}

static rt_expr_t *cttz(rt_expr_t *x, unsigned w)
{
    rt_expr_t *r = cw(w, w);
    for (unsigned i = w; i-- > 0;)
        r = rt_ite(bit(x, i), cw(w, i), r);
    return r;
}

/* Shifts by the width or more give 0 in the trace's semantics, so a shift
 * amount of 0 needs no special case. */
static rt_expr_t *funnel(int left, rt_expr_t *a, rt_expr_t *b, rt_expr_t *s, unsigned w)
{
    rt_expr_t *sm = bin(GBT_OP_UREM, s, cw(w, w)), *inv = bin(GBT_OP_SUB, cw(w, w), sm);
    if (left)
        return bin(GBT_OP_OR, bin(GBT_OP_SHL, a, sm), bin(GBT_OP_LSHR, b, inv));
    return bin(GBT_OP_OR, bin(GBT_OP_LSHR, b, sm), bin(GBT_OP_SHL, a, inv));
}

static rt_expr_t *is_neg(rt_expr_t *x) { return bin(GBT_OP_SLT, x, cw(x ? x->width : 8, 0)); }

static rt_expr_t *add_ov_signed(rt_expr_t *a, rt_expr_t *b, rt_expr_t *r)
{
    return is_neg(bin(GBT_OP_AND, bin(GBT_OP_XOR, a, r), bin(GBT_OP_XOR, b, r)));
}

static rt_expr_t *sub_ov_signed(rt_expr_t *a, rt_expr_t *b, rt_expr_t *r)
{
    return is_neg(bin(GBT_OP_AND, bin(GBT_OP_XOR, a, b), bin(GBT_OP_XOR, a, r)));
}

static rt_expr_t *saturate(rt_expr_t *ov, rt_expr_t *a, rt_expr_t *r, unsigned w)
{
    return rt_ite(ov, rt_ite(is_neg(a), cw(w, smin_of(w)), cw(w, smax_of(w))), r);
}

/* Products wider than 64 bits are out of reach; for w > 32 the overflow
 * bit is derived by division instead of a double-width product. */
static rt_expr_t *umul_ov(rt_expr_t *a, rt_expr_t *b, unsigned w)
{
    if (w <= 32) {
        rt_expr_t *p = bin(GBT_OP_MUL, rt_resize(a, 2 * w), rt_resize(b, 2 * w));
        return bin(GBT_OP_NE, rt_extract(p, w, w), cw(w, 0));
    }
    rt_expr_t *r = bin(GBT_OP_MUL, a, b);
    return bin(GBT_OP_AND, bin(GBT_OP_NE, b, cw(w, 0)),
               bin(GBT_OP_NE, bin(GBT_OP_UDIV, r, b), a));
}

static rt_expr_t *smul_ov(rt_expr_t *a, rt_expr_t *b, unsigned w)
{
    if (w <= 32) {
        rt_expr_t *p = bin(GBT_OP_MUL, rt_unop(GBT_OP_SEXT, 2 * w, a, 0),
                           rt_unop(GBT_OP_SEXT, 2 * w, b, 0));
        return bin(GBT_OP_NE, rt_unop(GBT_OP_SEXT, 2 * w, rt_extract(p, 0, w), 0), p);
    }
    rt_expr_t *r = bin(GBT_OP_MUL, a, b);
    rt_expr_t *wrong = bin(GBT_OP_NE, bin(GBT_OP_SDIV, r, b), a);
    rt_expr_t *minus1 = bin(GBT_OP_AND, bin(GBT_OP_EQ, a, cw(w, smin_of(w))),
                            bin(GBT_OP_EQ, b, cw(w, rt_mask(w))));
    return bin(GBT_OP_AND, bin(GBT_OP_NE, b, cw(w, 0)), bin(GBT_OP_OR, wrong, minus1));
}

static rt_expr_t *intrin(unsigned code, unsigned w, rt_expr_t *a, rt_expr_t *b, rt_expr_t *c)
{
    switch (code) {
    case GB_IN_BSWAP: return w % 16 == 0 ? bswap(a, w) : NULL;
    case GB_IN_CTPOP: return ctpop(a, w);
    case GB_IN_CTLZ: return ctlz(a, w);
    case GB_IN_CTTZ: return cttz(a, w);
    case GB_IN_FSHL: return funnel(1, a, b, c, w);
    case GB_IN_FSHR: return funnel(0, a, b, c, w);
    case GB_IN_ABS: return rt_ite(is_neg(a), rt_unop(GBT_OP_NEG, w, a, 0), a);
    case GB_IN_SMIN: return rt_ite(bin(GBT_OP_SLT, a, b), a, b);
    case GB_IN_SMAX: return rt_ite(bin(GBT_OP_SGT, a, b), a, b);
    case GB_IN_UMIN: return rt_ite(bin(GBT_OP_ULT, a, b), a, b);
    case GB_IN_UMAX: return rt_ite(bin(GBT_OP_UGT, a, b), a, b);
    case GB_IN_UADD_SAT: {
        rt_expr_t *r = bin(GBT_OP_ADD, a, b);
        return rt_ite(bin(GBT_OP_ULT, r, a), cw(w, rt_mask(w)), r);
    }
    case GB_IN_USUB_SAT: return rt_ite(bin(GBT_OP_ULT, a, b), cw(w, 0), bin(GBT_OP_SUB, a, b));
    case GB_IN_SADD_SAT: {
        rt_expr_t *r = bin(GBT_OP_ADD, a, b);
        return saturate(add_ov_signed(a, b, r), a, r, w);
    }
    case GB_IN_SSUB_SAT: {
        rt_expr_t *r = bin(GBT_OP_SUB, a, b);
        return saturate(sub_ov_signed(a, b, r), a, r, w);
    }
    case GB_IN_ADD: return bin(GBT_OP_ADD, a, b);
    case GB_IN_SUB: return bin(GBT_OP_SUB, a, b);
    case GB_IN_MUL: return bin(GBT_OP_MUL, a, b);
    case GB_IN_UADD_OV: return bin(GBT_OP_ULT, bin(GBT_OP_ADD, a, b), a);
    case GB_IN_SADD_OV: return add_ov_signed(a, b, bin(GBT_OP_ADD, a, b));
    case GB_IN_USUB_OV: return bin(GBT_OP_ULT, a, b);
    case GB_IN_SSUB_OV: return sub_ov_signed(a, b, bin(GBT_OP_SUB, a, b));
    case GB_IN_UMUL_OV: return umul_ov(a, b, w);
    case GB_IN_SMUL_OV: return smul_ov(a, b, w);
    default: return NULL;
    }
}

RT_EXPORT void *__gb_intrin(uint32_t code, uint32_t width, void *a, uint64_t va, void *b,
                            uint64_t vb, void *c, uint64_t vc)
{
    if ((!a && !b && !c) || !rt_active || width == 0 || width > 64)
        return NULL;
    rt_expr_t *r = intrin(code, width, val(a, va, width), val(b, vb, width), val(c, vc, width));
    return (r && r->op == GBT_OP_CONST) ? NULL : r;
}

/* A symbolic value flowing into one the tracer does not track (a float, an
 * integer wider than 64 bits, an aggregate or vector): a PIN `value ==
 * concrete` at the site, so the path constraint says the run depended on it
 * (docs/tracer.md, "Untracked values"). */
RT_EXPORT void __gb_concretize(void *s, uint64_t v, uint32_t site)
{
    rt_expr_t *e = (rt_expr_t *)s;
    if (!e || !rt_active || e->op == GBT_OP_CONST)
        return;
    rt_pin(e, v & rt_mask(e->width), site);
}
