/* SPDX-License-Identifier: Apache-2.0 */
/* Shadows of i128 values (unsigned __int128 products, shifts, 128-bit
 * bit-field records) lowered to pairs of 64-bit expressions, so the trace
 * format and symbolic/ keep their widths of at most 64 bits. Every result
 * is exact: carries are comparisons, the 64x64 product's high half is
 * built from 32-bit limbs (docs/tracer.md, "Integers wider than 64 bits"). */
#include "gb_abi.h"
#include "rt_int.h"

/* The two halves of an i128 operand: its pair's expressions, or constants
 * of the concrete halves the instrumented code passed beside it. */
typedef struct w128 {
    rt_expr_t *lo, *hi;
} w128_t;

/* A shadow that is really a pair; anything else (a call through a
 * mismatched function type passed a 64-bit shadow) reads as concrete. */
static rt_expr_t *pair_of(void *s)
{
    rt_expr_t *e = s;
    return e && e->op == RT_OP_PAIR ? e : NULL;
}

static w128_t w_of(void *s, uint64_t lo, uint64_t hi)
{
    rt_expr_t *p = pair_of(s);
    w128_t r = {p ? p->arg[0] : NULL, p ? p->arg[1] : NULL};
    if (!r.lo)
        r.lo = rt_const(64, lo);
    if (!r.hi)
        r.hi = rt_const(64, hi);
    return r;
}

static void *w_pack(w128_t r) { return rt_pair(r.lo, r.hi); }

static rt_expr_t *c64(uint64_t v) { return rt_const(64, v); }
static rt_expr_t *bin(unsigned op, rt_expr_t *a, rt_expr_t *b) { return rt_binop(op, a, b); }
static rt_expr_t *add(rt_expr_t *a, rt_expr_t *b) { return bin(GBT_OP_ADD, a, b); }
static rt_expr_t *shl(rt_expr_t *a, unsigned k) { return bin(GBT_OP_SHL, a, c64(k)); }
static rt_expr_t *lshr(rt_expr_t *a, unsigned k) { return bin(GBT_OP_LSHR, a, c64(k)); }
static rt_expr_t *ashr(rt_expr_t *a, unsigned k) { return bin(GBT_OP_ASHR, a, c64(k)); }
static rt_expr_t *bor(rt_expr_t *a, rt_expr_t *b) { return bin(GBT_OP_OR, a, b); }

/* Bits [32k, 32k + 32) of a 64-bit value, zero-extended to 64 bits: a
 * limb, so that a product of two limbs is exact in 64 bits (and symbolic/
 * can narrow it: both factors are zero extensions). */
static rt_expr_t *limb(rt_expr_t *a, unsigned k)
{
    return rt_unop(GBT_OP_ZEXT, 64, rt_extract(a, 32 * k, 32), 0);
}

/* The high 64 bits of the 128-bit product a * b, schoolbook on 32-bit
 * limbs: a*b = p11 2^64 + (p01 + p10) 2^32 + p00, each p < 2^64. The sum
 * of the middle column, hi32(p00) + lo32(p01) + lo32(p10) < 3 * 2^32,
 * cannot wrap, and its carry is its own high 32 bits. */
static rt_expr_t *mulhi(rt_expr_t *a, rt_expr_t *b)
{
    rt_expr_t *a0 = limb(a, 0), *a1 = limb(a, 1), *b0 = limb(b, 0), *b1 = limb(b, 1);
    rt_expr_t *p00 = bin(GBT_OP_MUL, a0, b0), *p01 = bin(GBT_OP_MUL, a0, b1);
    rt_expr_t *p10 = bin(GBT_OP_MUL, a1, b0), *p11 = bin(GBT_OP_MUL, a1, b1);
    rt_expr_t *mid = add(add(limb(p00, 1), limb(p01, 0)), limb(p10, 0));
    return add(add(p11, limb(p01, 1)), add(limb(p10, 1), limb(mid, 1)));
}

/* The low 128 bits of a * b: the high half gathers the cross products,
 * whose own high halves fall off the end. */
static w128_t w_mul(w128_t a, w128_t b)
{
    rt_expr_t *cross = add(bin(GBT_OP_MUL, a.lo, b.hi), bin(GBT_OP_MUL, a.hi, b.lo));
    return (w128_t){bin(GBT_OP_MUL, a.lo, b.lo), add(mulhi(a.lo, b.lo), cross)};
}

/* A carry out of the low half is `lo <u a.lo`, a borrow `a.lo <u b.lo`. */
static rt_expr_t *bit64(rt_expr_t *c) { return rt_unop(GBT_OP_ZEXT, 64, c, 0); }

static w128_t w_add(w128_t a, w128_t b)
{
    rt_expr_t *lo = add(a.lo, b.lo);
    return (w128_t){lo, add(add(a.hi, b.hi), bit64(bin(GBT_OP_ULT, lo, a.lo)))};
}

static w128_t w_sub(w128_t a, w128_t b)
{
    rt_expr_t *borrow = bit64(bin(GBT_OP_ULT, a.lo, b.lo));
    return (w128_t){bin(GBT_OP_SUB, a.lo, b.lo),
                    bin(GBT_OP_SUB, bin(GBT_OP_SUB, a.hi, b.hi), borrow)};
}

/* Shifts by a constant k, 0 < k < 128. */
static w128_t w_shl(w128_t a, unsigned k)
{
    if (k >= 64)
        return (w128_t){c64(0), shl(a.lo, k - 64)};
    return (w128_t){shl(a.lo, k), bor(shl(a.hi, k), lshr(a.lo, 64 - k))};
}

/* lshr and ashr differ only in what fills the high half. */
static w128_t w_shr(unsigned op, w128_t a, unsigned k)
{
    int arith = op == GBT_OP_ASHR;
    if (k >= 64)
        return (w128_t){arith ? ashr(a.hi, k - 64) : lshr(a.hi, k - 64),
                        arith ? ashr(a.hi, 63) : c64(0)};
    return (w128_t){bor(lshr(a.lo, k), shl(a.hi, 64 - k)), arith ? ashr(a.hi, k) : lshr(a.hi, k)};
}

static w128_t w_shift(unsigned op, w128_t a, unsigned k)
{
    if (k == 0)
        return a;
    return op == GBT_OP_SHL ? w_shl(a, k) : w_shr(op, a, k);
}

/* A PIN `operand == its concrete value` (both halves in one entry), as
 * __gb_concretize records for a 64-bit value. */
static void w_pin(rt_expr_t *p, uint64_t lo, uint64_t hi, uint32_t site)
{
    if (!p || !rt_active || !rt_keep(site))
        return;
    rt_expr_t *el = p->arg[0] ? bin(GBT_OP_EQ, p->arg[0], c64(lo)) : NULL;
    rt_expr_t *eh = p->arg[1] ? bin(GBT_OP_EQ, p->arg[1], c64(hi)) : NULL;
    rt_expr_t *eq = el && eh ? bin(GBT_OP_AND, el, eh) : el ? el : eh;
    if (eq && eq->op != GBT_OP_CONST)
        rt_out_pc(GBT_PC_PIN, 1, site, eq);
}

RT_EXPORT void __gb_w_pin(void *a, uint64_t lo, uint64_t hi, uint32_t site)
{
    w_pin(pair_of(a), lo, hi, site);
}

/* add sub mul and or xor shl lshr ashr on i128. A symbolic shift amount
 * is pinned to its value (site), then the shift is by that constant; an
 * amount of 128 or more gives poison in LLVM, left concrete. Any other
 * operator pins both operands and gives a concrete result. */
RT_EXPORT void *__gb_w_binop(uint32_t op, void *a, uint64_t alo, uint64_t ahi, void *b,
                             uint64_t blo, uint64_t bhi, uint32_t site)
{
    w128_t x = w_of(a, alo, ahi), y = w_of(b, blo, bhi);
    switch (op) {
    case GBT_OP_ADD: return w_pack(w_add(x, y));
    case GBT_OP_SUB: return w_pack(w_sub(x, y));
    case GBT_OP_MUL: return w_pack(w_mul(x, y));
    case GBT_OP_AND: case GBT_OP_OR: case GBT_OP_XOR:
        return w_pack((w128_t){bin(op, x.lo, y.lo), bin(op, x.hi, y.hi)});
    case GBT_OP_SHL: case GBT_OP_LSHR: case GBT_OP_ASHR:
        w_pin(pair_of(b), blo, bhi, site);
        return bhi || blo >= 128 ? NULL : w_pack(w_shift(op, x, (unsigned)blo));
    default:
        w_pin(pair_of(a), alo, ahi, site);
        w_pin(pair_of(b), blo, bhi, site + 1);
        return NULL;
    }
}

/* An order on i128 decided by the high halves (signed or not), and when
 * they are equal by the low halves, unsigned: hi_a < hi_b or (hi_a = hi_b
 * and lo_a < lo_b), with <= on the low halves for the non-strict ones. */
static rt_expr_t *w_order(unsigned hi_op, unsigned lo_op, w128_t a, w128_t b)
{
    rt_expr_t *tie = bin(GBT_OP_AND, bin(GBT_OP_EQ, a.hi, b.hi), bin(lo_op, a.lo, b.lo));
    return bor(bin(hi_op, a.hi, b.hi), tie);
}

/* icmp on i128: the condition, of width 1. */
RT_EXPORT void *__gb_w_cmp(uint32_t op, void *a, uint64_t alo, uint64_t ahi, void *b, uint64_t blo,
                           uint64_t bhi)
{
    w128_t x = w_of(a, alo, ahi), y = w_of(b, blo, bhi);
    rt_expr_t *r;
    switch (op) {
    case GBT_OP_EQ: r = bin(GBT_OP_AND, bin(op, x.lo, y.lo), bin(op, x.hi, y.hi)); break;
    case GBT_OP_NE: r = bor(bin(op, x.lo, y.lo), bin(op, x.hi, y.hi)); break;
    case GBT_OP_ULT: r = w_order(GBT_OP_ULT, GBT_OP_ULT, x, y); break;
    case GBT_OP_ULE: r = w_order(GBT_OP_ULT, GBT_OP_ULE, x, y); break;
    case GBT_OP_UGT: r = w_order(GBT_OP_ULT, GBT_OP_ULT, y, x); break;
    case GBT_OP_UGE: r = w_order(GBT_OP_ULT, GBT_OP_ULE, y, x); break;
    case GBT_OP_SLT: r = w_order(GBT_OP_SLT, GBT_OP_ULT, x, y); break;
    case GBT_OP_SLE: r = w_order(GBT_OP_SLT, GBT_OP_ULE, x, y); break;
    case GBT_OP_SGT: r = w_order(GBT_OP_SLT, GBT_OP_ULT, y, x); break;
    case GBT_OP_SGE: r = w_order(GBT_OP_SLT, GBT_OP_ULE, y, x); break;
    default: return NULL;
    }
    return r && r->op == GBT_OP_CONST ? NULL : r;
}

/* zext or sext of a value of `from` bits (1..64) to i128: the low half is
 * the value extended to 64 bits, the high half zero or copies of its sign
 * bit. */
RT_EXPORT void *__gb_w_ext(uint32_t op, uint32_t from, void *a)
{
    rt_expr_t *e = a;
    if (!e || e->width != from)
        return NULL;
    if (op != GBT_OP_SEXT)
        return rt_pair(rt_resize(e, 64), NULL);
    rt_expr_t *lo = rt_unop(GBT_OP_SEXT, 64, e, 0);
    return rt_pair(lo, ashr(lo, 63));
}

/* trunc of an i128 to `to` bits (1..64): the low half's low bits. */
RT_EXPORT void *__gb_w_trunc(uint32_t to, void *a)
{
    rt_expr_t *p = pair_of(a);
    return p ? rt_resize(p->arg[0], to) : NULL;
}

/* select on a symbolic condition: an ite per half. */
RT_EXPORT void *__gb_w_select(void *c, uint64_t vc, void *a, uint64_t alo, void *b, uint64_t blo,
                              uint64_t ahi, uint64_t bhi)
{
    if (!c)
        return (vc & 1) ? a : b;
    w128_t x = w_of(a, alo, ahi), y = w_of(b, blo, bhi);
    return w_pack((w128_t){rt_ite(c, x.lo, y.lo), rt_ite(c, x.hi, y.hi)});
}

/* ---- memory: two 8-byte halves, little-endian -------------------------- */

static void *load_halves(const void *addr, uint32_t size)
{
    uintptr_t a = (uintptr_t)addr;
    return size == 16 ? rt_pair(rt_shadow_load(a, 8), rt_shadow_load(a + 8, 8)) : NULL;
}

/* After the 16 bytes' shadows were cleared. */
static void store_halves(void *addr, uint32_t size, void *v)
{
    rt_expr_t *p = pair_of(v);
    if (!p || size != 16)
        return;
    rt_shadow_store((uintptr_t)addr, 8, p->arg[0]);
    rt_shadow_store((uintptr_t)addr + 8, 8, p->arg[1]);
}

/* The 64-bit entry points pin a symbolic address (and, being wider than
 * 8 bytes, read no shadow and clear the bytes stored); the halves follow. */
RT_EXPORT void *__gb_w_load(const void *addr, uint32_t size, void *addr_shadow, uint32_t site)
{
    __gb_load(addr, size, addr_shadow, site);
    return load_halves(addr, size);
}

RT_EXPORT void __gb_w_store(void *addr, uint32_t size, void *v, void *addr_shadow, uint32_t site)
{
    __gb_store(addr, size, NULL, addr_shadow, site);
    store_halves(addr, size, v);
}

RT_EXPORT void *__gb_w_load_ix(const void *addr, uint32_t size, void *base, uint64_t vbase,
                               void *idx, uint64_t c, uint64_t scale, uint32_t site)
{
    __gb_load_ix(addr, size, base, vbase, idx, c, scale, site);
    return load_halves(addr, size);
}

RT_EXPORT void __gb_w_store_ix(void *addr, uint32_t size, void *v, void *base, uint64_t vbase,
                               void *idx, uint64_t c, uint64_t scale, uint32_t site)
{
    __gb_store_ix(addr, size, NULL, base, vbase, idx, c, scale, site);
    store_halves(addr, size, v);
}
