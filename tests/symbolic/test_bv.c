/* SPDX-License-Identifier: Apache-2.0 */
/* One bit-vector semantics: for every operator at every width 1..64, the
 * symbolic side (gb_expr_apply: folding and gb_trace_eval_pc), the runtime's
 * folding (tracer/rt/expr.c, compiled into this test) and Z3 itself (the
 * same operator on numerals, simplified) must give the same value. */
#include <stdint.h>
#include <z3.h>

#include "rt_int.h"
#include "symbolic_int.h"
#include "tb.h"

/* tracer/rt/expr.c reads its limits from the state api.c owns. */
rt_state_t rt;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static unsigned long long compared;
static Z3_error_code z3_error = Z3_OK;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void on_z3_error(Z3_context c, Z3_error_code e)
{
    (void)c;
    z3_error = e;
}

/* ---- The three evaluators -------------------------------------------- */

/* A runtime fold's value: 0 when the runtime did not fold to a constant. */
static int rt_value(const rt_expr_t *e, uint64_t *v)
{
    if (!e || e->op != GBT_OP_CONST)
        return 0;
    *v = e->imm;
    return 1;
}

static Z3_ast z3_num(Z3_context c, unsigned w, uint64_t v)
{
    return Z3_mk_unsigned_int64(c, v, Z3_mk_bv_sort(c, w));
}

/* The value of a Z3 term over numerals: a bit-vector or a Boolean (0/1). */
static int z3_value(Z3_context c, Z3_ast t, uint64_t *v)
{
    Z3_ast s = Z3_simplify(c, t);
    if (z3_error != Z3_OK || !s)
        return 0;
    if (Z3_get_sort_kind(c, Z3_get_sort(c, s)) == Z3_BOOL_SORT) {
        Z3_lbool b = Z3_get_bool_value(c, s);
        *v = b == Z3_L_TRUE;
        return b != Z3_L_UNDEF;
    }
    return Z3_get_numeral_uint64(c, s, v) && z3_error == Z3_OK;
}

static Z3_ast z3_binop(Z3_context c, unsigned op, Z3_ast x, Z3_ast y)
{
    switch (op) {
    case GBT_OP_ADD: return Z3_mk_bvadd(c, x, y);
    case GBT_OP_SUB: return Z3_mk_bvsub(c, x, y);
    case GBT_OP_MUL: return Z3_mk_bvmul(c, x, y);
    case GBT_OP_UDIV: return Z3_mk_bvudiv(c, x, y);
    case GBT_OP_SDIV: return Z3_mk_bvsdiv(c, x, y);
    case GBT_OP_UREM: return Z3_mk_bvurem(c, x, y);
    case GBT_OP_SREM: return Z3_mk_bvsrem(c, x, y);
    case GBT_OP_SHL: return Z3_mk_bvshl(c, x, y);
    case GBT_OP_LSHR: return Z3_mk_bvlshr(c, x, y);
    case GBT_OP_ASHR: return Z3_mk_bvashr(c, x, y);
    case GBT_OP_AND: return Z3_mk_bvand(c, x, y);
    case GBT_OP_OR: return Z3_mk_bvor(c, x, y);
    case GBT_OP_XOR: return Z3_mk_bvxor(c, x, y);
    case GBT_OP_EQ: return Z3_mk_eq(c, x, y);
    case GBT_OP_NE: return Z3_mk_not(c, Z3_mk_eq(c, x, y));
    case GBT_OP_ULT: return Z3_mk_bvult(c, x, y);
    case GBT_OP_ULE: return Z3_mk_bvule(c, x, y);
    case GBT_OP_UGT: return Z3_mk_bvugt(c, x, y);
    case GBT_OP_UGE: return Z3_mk_bvuge(c, x, y);
    case GBT_OP_SLT: return Z3_mk_bvslt(c, x, y);
    case GBT_OP_SLE: return Z3_mk_bvsle(c, x, y);
    case GBT_OP_SGT: return Z3_mk_bvsgt(c, x, y);
    case GBT_OP_SGE: return Z3_mk_bvsge(c, x, y);
    default: return NULL;
    }
}

static const char *op_name(unsigned op)
{
    static const char *const names[] = {
        [GBT_OP_ADD] = "add",       [GBT_OP_SUB] = "sub",   [GBT_OP_MUL] = "mul",
        [GBT_OP_UDIV] = "udiv",     [GBT_OP_SDIV] = "sdiv", [GBT_OP_UREM] = "urem",
        [GBT_OP_SREM] = "srem",     [GBT_OP_SHL] = "shl",   [GBT_OP_LSHR] = "lshr",
        [GBT_OP_ASHR] = "ashr",     [GBT_OP_AND] = "and",   [GBT_OP_OR] = "or",
        [GBT_OP_XOR] = "xor",       [GBT_OP_NOT] = "not",   [GBT_OP_NEG] = "neg",
        [GBT_OP_ZEXT] = "zext",     [GBT_OP_SEXT] = "sext", [GBT_OP_EXTRACT] = "extract",
        [GBT_OP_CONCAT] = "concat", [GBT_OP_EQ] = "eq",     [GBT_OP_NE] = "ne",
        [GBT_OP_ULT] = "ult",       [GBT_OP_ULE] = "ule",   [GBT_OP_UGT] = "ugt",
        [GBT_OP_UGE] = "uge",       [GBT_OP_SLT] = "slt",   [GBT_OP_SLE] = "sle",
        [GBT_OP_SGT] = "sgt",       [GBT_OP_SGE] = "sge",   [GBT_OP_ITE] = "ite",
    };
    return op < sizeof names / sizeof names[0] && names[op] ? names[op] : "?";
}

/* One comparison of the three; `c` NULL leaves Z3 out (exhaustive runs). */
static void agree(unsigned op, unsigned w, uint64_t a, uint64_t b, uint64_t sym, int rt_ok,
                  uint64_t rtv, Z3_context c, Z3_ast t)
{
    uint64_t z = sym;
    int z_ok = !c || z3_value(c, t, &z);
    compared++;
    CHECK_MSG(rt_ok && z_ok && sym == rtv && sym == z,
              "%s width %u a=0x%llx b=0x%llx: symbolic 0x%llx, runtime %s0x%llx, "
              "Z3 %s0x%llx",
              op_name(op), w, (unsigned long long)a, (unsigned long long)b, (unsigned long long)sym,
              rt_ok ? "" : "(no fold) ", (unsigned long long)rtv, z_ok ? "" : "(error) ",
              (unsigned long long)z);
}

static void check_binop(Z3_context c, unsigned op, unsigned w, uint64_t a, uint64_t b)
{
    unsigned rw = gbt_op_is_cmp(op) ? 1 : w;
    uint64_t v[3] = {a, b, 0}, rtv = 0;
    uint64_t sym = gb_expr_apply(op, rw, w, w, v, 0);
    int ok = rt_value(rt_binop(op, rt_const(w, a), rt_const(w, b)), &rtv);
    Z3_ast t = c ? z3_binop(c, op, z3_num(c, w, a), z3_num(c, w, b)) : NULL;
    agree(op, w, a, b, sym, ok, rtv, c, t);
}

/* NOT, NEG; ZEXT and SEXT to a wider `tw`; EXTRACT of [lo, lo + ew). */
static void check_unops(Z3_context c, unsigned w, uint64_t a, uint64_t r)
{
    uint64_t v[3] = {a, 0, 0}, rtv = 0;
    Z3_ast x = c ? z3_num(c, w, a) : NULL;
    for (unsigned op = GBT_OP_NOT; op <= GBT_OP_NEG; op++) {
        int ok = rt_value(rt_unop(op, w, rt_const(w, a), 0), &rtv);
        Z3_ast t = !c ? NULL : op == GBT_OP_NOT ? Z3_mk_bvnot(c, x) : Z3_mk_bvneg(c, x);
        agree(op, w, a, 0, gb_expr_apply(op, w, w, 0, v, 0), ok, rtv, c, t);
    }
    if (w < 64) {
        unsigned tw = w + 1 + (unsigned)(r % (64 - w));
        for (unsigned op = GBT_OP_ZEXT; op <= GBT_OP_SEXT; op++) {
            int ok = rt_value(rt_unop(op, tw, rt_const(w, a), 0), &rtv);
            Z3_ast t = !c                  ? NULL
                       : op == GBT_OP_ZEXT ? Z3_mk_zero_ext(c, tw - w, x)
                                           : Z3_mk_sign_ext(c, tw - w, x);
            agree(op, tw, a, w, gb_expr_apply(op, tw, w, 0, v, 0), ok, rtv, c, t);
        }
    }
    unsigned lo = (unsigned)((r >> 8) % w), ew = 1 + (unsigned)((r >> 16) % (w - lo));
    int ok = rt_value(rt_extract(rt_const(w, a), lo, ew), &rtv);
    Z3_ast t = c ? Z3_mk_extract(c, lo + ew - 1, lo, x) : NULL;
    agree(GBT_OP_EXTRACT, ew, a, lo, gb_expr_apply(GBT_OP_EXTRACT, ew, w, 0, v, lo), ok, rtv, c, t);
}

/* CONCAT of a (high, width w) and b cut to a low part that fits in 64 bits;
 * ITE on the low bit of r between a and b. */
static void check_concat_ite(Z3_context c, unsigned w, uint64_t a, uint64_t b, uint64_t r)
{
    uint64_t rtv = 0;
    if (w < 64) {
        unsigned lw = 1 + (unsigned)(r % (64 - w));
        uint64_t lo = b & gb_mask(lw), v[3] = {a, lo, 0};
        int ok = rt_value(rt_concat(rt_const(w, a), rt_const(lw, lo)), &rtv);
        Z3_ast t = c ? Z3_mk_concat(c, z3_num(c, w, a), z3_num(c, lw, lo)) : NULL;
        agree(GBT_OP_CONCAT, w + lw, a, lo, gb_expr_apply(GBT_OP_CONCAT, w + lw, w, lw, v, 0), ok,
              rtv, c, t);
    }
    uint64_t cond = r & 1, v[3] = {cond, a, b};
    int ok = rt_value(rt_ite(rt_const(1, cond), rt_const(w, a), rt_const(w, b)), &rtv);
    Z3_ast t = c ? Z3_mk_ite(c, Z3_mk_eq(c, z3_num(c, 1, cond), z3_num(c, 1, 1)), z3_num(c, w, a),
                             z3_num(c, w, b))
                 : NULL;
    agree(GBT_OP_ITE, w, a, b, gb_expr_apply(GBT_OP_ITE, w, 1, w, v, 0), ok, rtv, c, t);
}

static void check_pair(Z3_context c, unsigned w, uint64_t a, uint64_t b)
{
    for (unsigned op = GBT_OP_ADD; op <= GBT_OP_SGE; op++)
        if (op <= GBT_OP_XOR || gbt_op_is_cmp(op))
            check_binop(c, op, w, a, b);
    uint64_t r = rnd();
    check_unops(c, w, a, r);
    check_concat_ite(c, w, a, b, r);
}

/* ---- Operands ---------------------------------------------------------- */

/* Values where the operators' rules change: zero, one, all ones, the signed
 * extremes and their neighbours, -2, and shift amounts around the width. */
static size_t edges(unsigned w, uint64_t *v)
{
    uint64_t m = gb_mask(w), smin = 1ull << (w - 1);
    uint64_t e[] = {0, 1, 2, 3, m, m - 1, smin, smin + 1, smin - 1, w - 1, w, w + 1, 7};
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
        v[i] = e[i] & m;
    return sizeof e / sizeof e[0];
}

/* A random operand: full width, small, or small and negative. */
static uint64_t random_operand(unsigned w)
{
    uint64_t r = rnd(), m = gb_mask(w);
    switch (r & 3) {
    case 0: return (r >> 2) & (m >> ((r >> 58) % w));
    case 1: return (0 - ((r >> 2) & 0xff)) & m;
    default: return rnd() & m;
    }
}

static void check_width(unsigned w)
{
    Z3_config cfg = Z3_mk_config();
    Z3_context c = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(c, on_z3_error);
    uint64_t e[16];
    size_t ne = edges(w, e);
    for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++)
            check_pair(c, w, e[i], e[j]);
    for (int k = 0; k < 120; k++) {
        uint64_t a = random_operand(w), b = random_operand(w);
        check_pair(c, w, a, b);
        check_pair(c, w, e[rnd() % ne], b); /* an edge against anything */
    }
    Z3_del_context(c);
}

int main(void)
{
    rt.lim.max_depth = 1000;
    rt.lim.max_nodes = UINT64_MAX;
    for (unsigned w = 1; w <= GBT_MAX_WIDTH; w++)
        check_width(w);
    /* Both sides on every pair of operands up to 8 bits (Z3 is too slow
     * for this; the edges above took it through the same rules). */
    for (unsigned w = 1; w <= 8; w++)
        for (uint64_t a = 0; a <= gb_mask(w); a++)
            for (uint64_t b = 0; b <= gb_mask(w); b++)
                check_pair(NULL, w, a, b);
    printf("bv: %llu comparisons\n", compared);
    return check_exit("symbolic_bv");
}
