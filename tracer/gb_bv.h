/* SPDX-License-Identifier: Apache-2.0 */
/* Concrete bit-vector semantics of the trace operators: the one definition
 * that symbolic/ (folding, gb_trace_eval_pc) and the runtime's folding in
 * targets both use. SMT-LIB QF_BV, exactly as Z3 evaluates it (checked by
 * tests/symbolic/test_bv.c). Header-only and static, like gbt.h, so that
 * the runtime carries a private copy and calls nothing outside libc. */
#ifndef GB_BV_H
#define GB_BV_H

#include <stdint.h>

#include "gb_fp.h"
#include "gbt.h"

/* A value of width w (1 <= w <= 64) is a uint64_t whose bits at and above
 * w are zero. Every function here takes values in that form and returns
 * one. All arithmetic is unsigned and every shift is by less than 64, so
 * nothing here is undefined or implementation-defined in C. */

static inline uint64_t gb_bv_mask(unsigned w)
{
    return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static inline int gb_bv_is_neg(uint64_t a, unsigned w)
{
    return (int)((a >> (w - 1)) & 1);
}

/* Two's complement negation (bvneg). */
static inline uint64_t gb_bv_neg(uint64_t a, unsigned w)
{
    return (0 - a) & gb_bv_mask(w);
}

/* The magnitude of a read as signed, as an unsigned value: the minimum's
 * magnitude, 2^(w-1), still fits. */
static inline uint64_t gb_bv_abs(uint64_t a, unsigned w)
{
    return gb_bv_is_neg(a, w) ? gb_bv_neg(a, w) : a;
}

/* a of width `from` sign-extended to width `to` (from <= to). */
static inline uint64_t gb_bv_sext(uint64_t a, unsigned from, unsigned to)
{
    uint64_t sign = 1ull << (from - 1);
    return ((a ^ sign) - sign) & gb_bv_mask(to);
}

/* Signed a < b: unsigned order once both sign bits are flipped. */
static inline int gb_bv_slt(uint64_t a, uint64_t b, unsigned w)
{
    uint64_t sign = 1ull << (w - 1);
    return (a ^ sign) < (b ^ sign);
}

/* bvudiv: a / 0 is all ones. */
static inline uint64_t gb_bv_udiv(uint64_t a, uint64_t b, unsigned w)
{
    return b == 0 ? gb_bv_mask(w) : a / b;
}

/* bvurem: a rem 0 is a. */
static inline uint64_t gb_bv_urem(uint64_t a, uint64_t b)
{
    return b == 0 ? a : a % b;
}

/* bvsdiv as SMT-LIB defines it: bvudiv of the magnitudes, negated when the
 * signs differ. Hence a / 0 is all ones for a >= 0 and 1 for a < 0, and
 * min / -1 wraps to min (C's signed division would be undefined there). */
static inline uint64_t gb_bv_sdiv(uint64_t a, uint64_t b, unsigned w)
{
    uint64_t q = gb_bv_udiv(gb_bv_abs(a, w), gb_bv_abs(b, w), w);
    return gb_bv_is_neg(a, w) != gb_bv_is_neg(b, w) ? gb_bv_neg(q, w) : q;
}

/* bvsrem: bvurem of the magnitudes with the dividend's sign (truncating
 * division, as C's %); a rem 0 is a, min rem -1 is 0. */
static inline uint64_t gb_bv_srem(uint64_t a, uint64_t b, unsigned w)
{
    uint64_t r = gb_bv_urem(gb_bv_abs(a, w), gb_bv_abs(b, w));
    return gb_bv_is_neg(a, w) ? gb_bv_neg(r, w) : r;
}

/* Shifts by w or more shift everything out: 0, or copies of the sign bit
 * for bvashr. */
static inline uint64_t gb_bv_shl(uint64_t a, uint64_t b, unsigned w)
{
    return b >= w ? 0 : (a << b) & gb_bv_mask(w);
}

static inline uint64_t gb_bv_lshr(uint64_t a, uint64_t b, unsigned w)
{
    return b >= w ? 0 : a >> b;
}

static inline uint64_t gb_bv_ashr(uint64_t a, uint64_t b, unsigned w)
{
    if (b >= w)
        return gb_bv_is_neg(a, w) ? gb_bv_mask(w) : 0;
    return gb_bv_sext(a >> b, w - (unsigned)b, w);
}

/* Bits [lo, lo + w) of a. */
static inline uint64_t gb_bv_extract(uint64_t a, uint64_t lo, unsigned w)
{
    return lo >= 64 ? 0 : (a >> lo) & gb_bv_mask(w);
}

/* hi above lo, where lo has width lw; w is the result's width. */
static inline uint64_t gb_bv_concat(uint64_t hi, uint64_t lo, unsigned lw, unsigned w)
{
    return (lw >= 64 ? lo : (hi << lw) | lo) & gb_bv_mask(w);
}

/* a op b for ADD..XOR and the comparisons EQ..SGE (result 0 or 1), on
 * operands of width w; 0 for any other operator. */
static inline uint64_t gb_bv_binop(unsigned op, unsigned w, uint64_t a, uint64_t b)
{
    uint64_t m = gb_bv_mask(w);
    switch (op) {
    case GBT_OP_ADD: return (a + b) & m;
    case GBT_OP_SUB: return (a - b) & m;
    case GBT_OP_MUL: return (a * b) & m;
    case GBT_OP_UDIV: return gb_bv_udiv(a, b, w);
    case GBT_OP_SDIV: return gb_bv_sdiv(a, b, w);
    case GBT_OP_UREM: return gb_bv_urem(a, b);
    case GBT_OP_SREM: return gb_bv_srem(a, b, w);
    case GBT_OP_SHL: return gb_bv_shl(a, b, w);
    case GBT_OP_LSHR: return gb_bv_lshr(a, b, w);
    case GBT_OP_ASHR: return gb_bv_ashr(a, b, w);
    case GBT_OP_AND: return a & b;
    case GBT_OP_OR: return a | b;
    case GBT_OP_XOR: return a ^ b;
    case GBT_OP_EQ: return a == b;
    case GBT_OP_NE: return a != b;
    case GBT_OP_ULT: return a < b;
    case GBT_OP_ULE: return a <= b;
    case GBT_OP_UGT: return a > b;
    case GBT_OP_UGE: return a >= b;
    case GBT_OP_SLT: return (uint64_t)gb_bv_slt(a, b, w);
    case GBT_OP_SLE: return !gb_bv_slt(b, a, w);
    case GBT_OP_SGT: return (uint64_t)gb_bv_slt(b, a, w);
    case GBT_OP_SGE: return !gb_bv_slt(a, b, w);
    default: return 0;
    }
}

/* The value of a node: `op` with result width `width` on argument values
 * a[0..2], where aw0 and aw1 are the widths of arguments 0 and 1, and `imm`
 * the node's immediate (docs/trace-format.md, NODE). Every operator but
 * INPUT and READ, which need the input or a table (0 for those); the
 * floating-point ones are in gb_fp.h. */
static inline uint64_t gb_bv_apply(unsigned op, unsigned width, unsigned aw0, unsigned aw1,
                                   const uint64_t *a, uint64_t imm)
{
    if (op >= GBT_OP_ADD && op <= GBT_OP_XOR)
        return gb_bv_binop(op, width, a[0], a[1]);
    if (gbt_op_is_cmp(op))
        return gb_bv_binop(op, aw0, a[0], a[1]);
    if (gbt_op_is_fp(op))
        return gb_fp_apply(op, width, aw0, a);
    switch (op) {
    case GBT_OP_CONST: return imm & gb_bv_mask(width);
    case GBT_OP_NOT: return ~a[0] & gb_bv_mask(width);
    case GBT_OP_NEG: return gb_bv_neg(a[0], width);
    case GBT_OP_ZEXT: return a[0] & gb_bv_mask(width);
    case GBT_OP_SEXT: return gb_bv_sext(a[0], aw0, width);
    case GBT_OP_EXTRACT: return gb_bv_extract(a[0], imm, width);
    case GBT_OP_CONCAT: return gb_bv_concat(a[0], a[1], aw1, width);
    case GBT_OP_ITE: return (a[0] & 1) ? a[1] : a[2];
    default: return 0;
    }
}

#endif
