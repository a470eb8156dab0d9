/* SPDX-License-Identifier: Apache-2.0 */
/* Floating point in the trace (docs/tracer.md, "Floating point"): the
 * guard on a float's bits where the trace format's one NaN and the
 * hardware's NaN could be told apart. The operators themselves are built by
 * __gb_binop/__gb_unop (rt_fp in expr.c). */
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

/* The shadow of a float's bits read as an integer or stored to memory
 * (`v`: the concrete bits, `width` 32 or 64). Where they may be a made NaN,
 * a PIN records which side of "is NaN" this run was on: not NaN keeps the
 * expression (its bits are the hardware's), NaN gives concrete bits. */
RT_EXPORT void *__gb_fp_bits(void *s, uint64_t v, uint32_t width, uint32_t site)
{
    rt_expr_t *e = s;
    if (!e || !rt_active || e->op == GBT_OP_CONST || !may_be_made_nan(e))
        return e;
    uint64_t exp = width == 32 ? 0x7f800000u : 0x7ff0000000000000ull;
    uint64_t man = width == 32 ? 0x007fffffu : 0x000fffffffffffffull;
    int nan = (v & exp) == exp && (v & man) != 0;
    rt_expr_t *c = rt_fp(nan ? GBT_OP_FUNO : GBT_OP_FORD, 1, e, e);
    if (c && c->op != GBT_OP_CONST)
        rt_record(GBT_PC_PIN, 1, site, c);
    return nan ? NULL : e;
}
