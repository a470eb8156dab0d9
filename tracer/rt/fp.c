/* SPDX-License-Identifier: Apache-2.0 */
/* Floating point in the trace (docs/tracer.md, "Floating point"): the
 * guard on a float's bits where the trace format's one NaN and the
 * hardware's NaN could be told apart. The operators are built by
 * __gb_binop/__gb_unop (rt_fp in expr.c, rt_fcmp in fp_cmp.c). */
#include "gb_fp.h"
#include "rt_int.h"

/* Whether e's value may be a NaN that the format encodes as the canonical
 * NaN while the hardware holds other bits: results of FP arithmetic and
 * conversions between float widths (an ITE may select one). Loaded bytes,
 * SITOFP/UITOFP (never NaN) and integer values are their own bits. */
static int may_be_made_nan(const rt_expr_t *e)
{
    switch (e->op) {
    case GBT_OP_FADD: case GBT_OP_FSUB: case GBT_OP_FMUL: case GBT_OP_FDIV:
    case GBT_OP_FPEXT: case GBT_OP_FPTRUNC: case GBT_OP_ITE:
        return 1;
    default:
        return 0;
    }
}

/* A bound on |value| of float expression e (width w), +inf when unknown
 * (loaded bytes may hold anything, a NaN included): integers converted
 * and arithmetic on them with finite constants stay finite, so they are
 * never NaN either (no inf - inf, inf * 0 or 0 / 0 on the way). */
static double magnitude(const rt_expr_t *e, unsigned w, unsigned depth)
{
    double inf = 1.0 / 0.0, a, b;
    if (depth > 16)
        return inf;
    switch (e->op) {
    case GBT_OP_CONST: {
        double c = w == 32 ? (double)gb_fp_f(e->imm) : gb_fp_d(e->imm);
        return c == c ? (c < 0 ? -c : c) : inf;
    }
    case GBT_OP_SITOFP: case GBT_OP_UITOFP:
        return 2.0 * (double)(1ull << (e->arg[0]->width - 1));
    case GBT_OP_FADD: case GBT_OP_FSUB: case GBT_OP_FMUL: case GBT_OP_FDIV:
        a = magnitude(e->arg[0], w, depth + 1);
        b = magnitude(e->arg[1], w, depth + 1);
        if (e->op == GBT_OP_FDIV) /* by a constant of at least 1 only */
            return e->arg[1]->op == GBT_OP_CONST && b >= 1.0 ? a : inf;
        return e->op == GBT_OP_FMUL ? a * b * 2.0 : (a + b) * 2.0; /* room for rounding */
    default:
        return inf;
    }
}

static int never_nan(const rt_expr_t *e, unsigned w)
{
    return magnitude(e, w, 0) < (w == 32 ? 3.0e38 : 1.0e308);
}

/* The shadow of a float's bits read as an integer or stored to memory
 * (`v`: the concrete bits, `width` 32 or 64). Where they may be a made NaN,
 * a PIN records which side of "is NaN" this run was on: not NaN keeps the
 * expression (its bits are the hardware's), NaN gives concrete bits. */
RT_EXPORT void *__gb_fp_bits(void *s, uint64_t v, uint32_t width, uint32_t site)
{
    rt_expr_t *e = s;
    if (!e || !rt_active || e->op == GBT_OP_CONST || !may_be_made_nan(e) || never_nan(e, width))
        return e;
    uint64_t exp = width == 32 ? 0x7f800000u : 0x7ff0000000000000ull;
    uint64_t man = width == 32 ? 0x007fffffu : 0x000fffffffffffffull;
    int nan = (v & exp) == exp && (v & man) != 0;
    rt_expr_t *c = rt_fcmp(nan ? GBT_OP_FUNO : GBT_OP_FORD, e, e);
    if (c && c->op != GBT_OP_CONST)
        rt_record(GBT_PC_PIN, 1, site, c);
    return nan ? NULL : e;
}
