/* SPDX-License-Identifier: Apache-2.0 */
/* The Z3 bridge's floating-point half (trace version 3): a float's term
 * is the bit-vector of its IEEE bits; each operator views its arguments as
 * FP terms, computes with RNE, and gives back bits with every NaN as the
 * one NaN, as tracer/gb_fp.h does. */
#include "z3_int.h"

/* The terms made on the way are referenced in a fpb_t and released
 * together. */
typedef struct fpb {
    gb_z3_t *z;
    Z3_ast t[16];
    unsigned n;
} fpb_t;

static Z3_ast fk(fpb_t *b, Z3_ast a)
{
    a = gb_z3_keep(b->z, a);
    if (a && b->n == sizeof b->t / sizeof b->t[0]) {
        Z3_dec_ref(gb_z3_ctx(b->z), a); /* cannot happen: a translation makes fewer */
        return NULL;
    }
    if (a)
        b->t[b->n++] = a;
    return a;
}

static void fpb_release(fpb_t *b)
{
    for (unsigned i = 0; i < b->n; i++)
        Z3_dec_ref(gb_z3_ctx(b->z), b->t[i]);
}

static Z3_sort fp_sort(fpb_t *b, unsigned w)
{
    Z3_context c = gb_z3_ctx(b->z);
    Z3_sort s = w == 32 ? Z3_mk_fpa_sort_single(c) : Z3_mk_fpa_sort_double(c);
    return s && fk(b, Z3_sort_to_ast(c, s)) ? s : NULL;
}

/* The FP term of bits x of width w. */
static Z3_ast fp_view(fpb_t *b, Z3_ast x, unsigned w)
{
    Z3_sort s = x ? fp_sort(b, w) : NULL;
    return s ? fk(b, Z3_mk_fpa_to_fp_bv(gb_z3_ctx(b->z), x, s)) : NULL;
}

/* Bits of FP term f of width w, NaN as GBT_FP_NAN*; unreferenced. */
static Z3_ast fp_bits(fpb_t *b, Z3_ast f, unsigned w)
{
    Z3_context c = gb_z3_ctx(b->z);
    Z3_sort bs = gb_z3_bv_sort(b->z, w);
    Z3_ast nan = f && bs ? fk(b, Z3_mk_fpa_is_nan(c, f)) : NULL;
    Z3_ast canon = nan ? fk(b, Z3_mk_unsigned_int64(c, w == 32 ? GBT_FP_NAN32 : GBT_FP_NAN64,
                                                      bs)) : NULL;
    Z3_ast raw = canon ? fk(b, Z3_mk_fpa_to_ieee_bv(c, f)) : NULL;
    return raw ? Z3_mk_ite(c, nan, canon, raw) : NULL;
}

/* LLVM fcmp predicate op on FP terms x, y as a 1-bit vector; unreferenced.
 * fp.eq/lt/... are false on NaN: the ordered predicates; an unordered one
 * is "either is NaN, or the ordered one" (FUNE = uno or FONE). */
static Z3_ast fp_cmp(fpb_t *b, unsigned op, Z3_ast x, Z3_ast y)
{
    Z3_context c = gb_z3_ctx(b->z);
    Z3_ast nx = x && y ? fk(b, Z3_mk_fpa_is_nan(c, x)) : NULL;
    Z3_ast ny = nx ? fk(b, Z3_mk_fpa_is_nan(c, y)) : NULL;
    Z3_ast uno = ny ? fk(b, Z3_mk_or(c, 2, (Z3_ast[2]){nx, ny})) : NULL;
    unsigned o = op >= GBT_OP_FUEQ ? op - (GBT_OP_FUEQ - GBT_OP_FOEQ) : op;
    Z3_ast r = NULL;
    switch (uno ? o : 0) {
    case GBT_OP_FOEQ: r = Z3_mk_fpa_eq(c, x, y); break;
    case GBT_OP_FOGT: r = Z3_mk_fpa_gt(c, x, y); break;
    case GBT_OP_FOGE: r = Z3_mk_fpa_geq(c, x, y); break;
    case GBT_OP_FOLT: r = Z3_mk_fpa_lt(c, x, y); break;
    case GBT_OP_FOLE: r = Z3_mk_fpa_leq(c, x, y); break;
    case GBT_OP_FONE: {
        Z3_ast eq = fk(b, Z3_mk_fpa_eq(c, x, y));
        Z3_ast either = eq ? fk(b, Z3_mk_or(c, 2, (Z3_ast[2]){eq, uno})) : NULL;
        r = either ? Z3_mk_not(c, either) : NULL;
        break;
    }
    case GBT_OP_FORD: r = Z3_mk_not(c, uno); break;
    case GBT_OP_FUNO: r = uno; break;
    default: return NULL;
    }
    if (op >= GBT_OP_FUEQ && op <= GBT_OP_FUNE && (r = fk(b, r)) != NULL)
        r = Z3_mk_or(c, 2, (Z3_ast[2]){uno, r});
    return r ? Z3_mk_ite(c, r, gb_z3_bit(b->z, 1), gb_z3_bit(b->z, 0)) : NULL;
}

/* FPTOSI/FPTOUI of FP term x (width aw) to w bits: toward zero, 0 when
 * the truncated value does not fit (fp.to_sbv leaves that unspecified). */
static Z3_ast fp_toint(fpb_t *b, unsigned op, Z3_ast x, unsigned aw, unsigned w, Z3_ast rtz)
{
    Z3_context c = gb_z3_ctx(b->z);
    Z3_sort s = fp_sort(b, aw), bs = gb_z3_bv_sort(b->z, w);
    int sgn = op == GBT_OP_FPTOSI;
    double top = 2.0 * (double)(1ull << (w - 1)), lo = sgn ? -top / 2 : 0.0;
    Z3_ast t = s && bs && x && rtz ? fk(b, Z3_mk_fpa_round_to_integral(c, rtz, x)) : NULL;
    Z3_ast l = t ? fk(b, Z3_mk_fpa_numeral_double(c, lo, s)) : NULL;
    Z3_ast h = l ? fk(b, Z3_mk_fpa_numeral_double(c, sgn ? top / 2 : top, s)) : NULL;
    Z3_ast ge = h ? fk(b, Z3_mk_fpa_geq(c, t, l)) : NULL;
    Z3_ast lt = ge ? fk(b, Z3_mk_fpa_lt(c, t, h)) : NULL;
    Z3_ast in = lt ? fk(b, Z3_mk_and(c, 2, (Z3_ast[2]){ge, lt})) : NULL;
    Z3_ast v = in ? fk(b, sgn ? Z3_mk_fpa_to_sbv(c, rtz, x, w) : Z3_mk_fpa_to_ubv(c, rtz, x, w))
                  : NULL;
    Z3_ast zero = v ? fk(b, Z3_mk_unsigned_int64(c, 0, bs)) : NULL;
    return zero ? Z3_mk_ite(c, in, v, zero) : NULL;
}

/* An FP result (x, y the arguments' FP views) as FP term; referenced. */
static Z3_ast fp_value(fpb_t *b, const gb_node_t *x, Z3_ast a0, Z3_ast f0, Z3_ast f1,
                       Z3_ast rne)
{
    Z3_context c = gb_z3_ctx(b->z);
    Z3_sort s = fp_sort(b, x->width);
    if (!s || !rne)
        return NULL;
    switch (x->op) {
    case GBT_OP_FADD: return fk(b, Z3_mk_fpa_add(c, rne, f0, f1));
    case GBT_OP_FSUB: return fk(b, Z3_mk_fpa_sub(c, rne, f0, f1));
    case GBT_OP_FMUL: return fk(b, Z3_mk_fpa_mul(c, rne, f0, f1));
    case GBT_OP_FDIV: return fk(b, Z3_mk_fpa_div(c, rne, f0, f1));
    case GBT_OP_SITOFP: return fk(b, Z3_mk_fpa_to_fp_signed(c, rne, a0, s));
    case GBT_OP_UITOFP: return fk(b, Z3_mk_fpa_to_fp_unsigned(c, rne, a0, s));
    default: return fk(b, Z3_mk_fpa_to_fp_float(c, rne, f0, s)); /* FPEXT, FPTRUNC */
    }
}

Z3_ast gb_z3_translate_fp(gb_z3_t *z, const gb_dag_t *d, const gb_node_t *x, Z3_ast a0,
                           Z3_ast a1)
{
    fpb_t b = {z, {NULL}, 0};
    unsigned aw = d->nodes[x->args[0]].width;
    int fpargs = x->op != GBT_OP_SITOFP && x->op != GBT_OP_UITOFP;
    Z3_ast f0 = fpargs ? fp_view(&b, a0, aw) : a0;
    Z3_ast f1 = x->nargs > 1 && f0 ? fp_view(&b, a1, aw) : f0;
    Z3_ast r = NULL;
    if (!f0 || !f1)
        r = NULL;
    else if (gbt_op_is_fcmp(x->op))
        r = fp_cmp(&b, x->op, f0, f1);
    else if (x->op == GBT_OP_FPTOSI || x->op == GBT_OP_FPTOUI)
        r = fp_toint(&b, x->op, f0, aw, x->width, fk(&b, Z3_mk_fpa_rtz(gb_z3_ctx(z))));
    else
        r = fp_bits(&b, fp_value(&b, x, a0, f0, f1, fk(&b, Z3_mk_fpa_rne(gb_z3_ctx(z)))), x->width);
    fpb_release(&b);
    return r;
}
