/* SPDX-License-Identifier: Apache-2.0 */
/* Shadows of integers of 65 to 128 bits (unsigned __int128 products and
 * shifts, bit-field records, clang's i65 closed forms of loops) lowered
 * to pairs of a 64-bit low half and a high half of the remaining bits, so
 * the trace format and symbolic/ keep their widths of at most 64 bits.
 * Every result is exact: carries are comparisons, the 64x64 product's
 * high half is built from 32-bit limbs (docs/tracer.md, "Integers wider
 * than 64 bits"). */
#include "gb_abi.h"
#include "rt_int.h"

/* The halves of an operand of w = 64 + hw bits (65..128): its pair's
 * expressions, or constants of the concrete halves the instrumented code
 * passed beside it (the high one zero-extended to 64 bits). */
typedef struct wide {
    rt_expr_t *lo, *hi;
    unsigned hw;
} wide_t;

/* A shadow that is really a pair of that width; anything else (a call
 * through a mismatched function type passed another shadow) reads as
 * concrete. */
static rt_expr_t *pair_of(void *s, unsigned width)
{
    rt_expr_t *e = s;
    return e && e->op == RT_OP_PAIR && e->width == width ? e : NULL;
}

static int width_ok(unsigned width) { return width > 64 && width <= 128; }

static wide_t w_of(void *s, uint64_t lo, uint64_t hi, unsigned width)
{
    rt_expr_t *p = pair_of(s, width);
    wide_t r = {p ? p->arg[0] : NULL, p ? p->arg[1] : NULL, width - 64};
    if (!r.lo)
        r.lo = rt_const(64, lo);
    if (!r.hi)
        r.hi = rt_const(r.hw, hi);
    return r;
}

static void *w_pack(wide_t r) { return rt_pair(64 + r.hw, r.lo, r.hi); }

static rt_expr_t *c64(uint64_t v) { return rt_const(64, v); }
static rt_expr_t *bin(unsigned op, rt_expr_t *a, rt_expr_t *b) { return rt_binop(op, a, b); }
static rt_expr_t *add(rt_expr_t *a, rt_expr_t *b) { return bin(GBT_OP_ADD, a, b); }
static rt_expr_t *bor(rt_expr_t *a, rt_expr_t *b) { return bin(GBT_OP_OR, a, b); }
static rt_expr_t *zx(rt_expr_t *a, unsigned w) { return rt_unop(GBT_OP_ZEXT, w, a, 0); }
static rt_expr_t *sx(rt_expr_t *a, unsigned w) { return rt_unop(GBT_OP_SEXT, w, a, 0); }
/* zext or the low bits, whichever makes a `w` bits wide */
static rt_expr_t *fit(rt_expr_t *a, unsigned w) { return rt_resize(a, w); }

/* a shifted by a constant k at a's own width; k >= that width shifts
 * everything out (copies of the sign bit for ashr), as SMT-LIB says. */
static rt_expr_t *sh(unsigned op, rt_expr_t *a, unsigned k)
{
    if (!a)
        return NULL;
    unsigned w = a->width;
    if (k >= w)
        return op == GBT_OP_ASHR ? bin(op, a, rt_const(w, w - 1)) : rt_const(w, 0);
    return bin(op, a, rt_const(w, k));
}

/* Bits [32k, 32k + 32) of a 64-bit value, zero-extended to 64 bits: a
 * limb, so that a product of two limbs is exact in 64 bits (and symbolic/
 * can narrow it: both factors are zero extensions). */
static rt_expr_t *limb(rt_expr_t *a, unsigned k) { return zx(rt_extract(a, 32 * k, 32), 64); }

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

/* The low w bits of a * b: the high half gathers the cross products (at
 * hw bits, since their higher bits fall off the end). */
static wide_t w_mul(wide_t a, wide_t b)
{
    unsigned hw = a.hw;
    rt_expr_t *cross =
        add(bin(GBT_OP_MUL, fit(a.lo, hw), b.hi), bin(GBT_OP_MUL, a.hi, fit(b.lo, hw)));
    return (wide_t){bin(GBT_OP_MUL, a.lo, b.lo), add(fit(mulhi(a.lo, b.lo), hw), cross), hw};
}

/* A carry out of the low half is `lo <u a.lo`, a borrow `a.lo <u b.lo`. */
static wide_t w_add(wide_t a, wide_t b)
{
    rt_expr_t *lo = add(a.lo, b.lo);
    return (wide_t){lo, add(add(a.hi, b.hi), zx(bin(GBT_OP_ULT, lo, a.lo), a.hw)), a.hw};
}

static wide_t w_sub(wide_t a, wide_t b)
{
    rt_expr_t *borrow = zx(bin(GBT_OP_ULT, a.lo, b.lo), a.hw);
    return (wide_t){bin(GBT_OP_SUB, a.lo, b.lo),
                    bin(GBT_OP_SUB, bin(GBT_OP_SUB, a.hi, b.hi), borrow), a.hw};
}

/* Shifts by a constant k, 0 < k < w. The high half enters the low one
 * extended to 64 bits: with zeros for shl and lshr, with its sign for
 * ashr (bits of the result past w are the sign's). */
static wide_t w_shl(wide_t a, unsigned k)
{
    if (k >= 64)
        return (wide_t){c64(0), fit(sh(GBT_OP_SHL, a.lo, k - 64), a.hw), a.hw};
    rt_expr_t *hi = bor(sh(GBT_OP_SHL, zx(a.hi, 64), k), sh(GBT_OP_LSHR, a.lo, 64 - k));
    return (wide_t){sh(GBT_OP_SHL, a.lo, k), fit(hi, a.hw), a.hw};
}

static wide_t w_shr(unsigned op, wide_t a, unsigned k)
{
    int arith = op == GBT_OP_ASHR;
    rt_expr_t *hi64 = arith ? sx(a.hi, 64) : zx(a.hi, 64);
    if (k >= 64)
        return (wide_t){sh(op, hi64, k - 64), arith ? sh(op, a.hi, a.hw) : rt_const(a.hw, 0),
                        a.hw};
    return (wide_t){bor(sh(GBT_OP_LSHR, a.lo, k), sh(GBT_OP_SHL, hi64, 64 - k)), sh(op, a.hi, k),
                    a.hw};
}

static wide_t w_shift(unsigned op, wide_t a, unsigned k)
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
    rt_expr_t *eh = p->arg[1] ? bin(GBT_OP_EQ, p->arg[1], rt_const(p->arg[1]->width, hi)) : NULL;
    rt_expr_t *eq = el && eh ? bin(GBT_OP_AND, el, eh) : el ? el : eh;
    if (eq && eq->op != GBT_OP_CONST)
        rt_out_pc(GBT_PC_PIN, 1, site, eq);
}

RT_EXPORT void __gb_w_pin(void *a, uint64_t lo, uint64_t hi, uint32_t width, uint32_t site)
{
    w_pin(pair_of(a, width), lo, hi, site);
}

/* add sub mul and or xor shl lshr ashr on `width` bits. A symbolic shift
 * amount is pinned to its value (site), then the shift is by that
 * constant; an amount of `width` or more gives poison in LLVM, left
 * concrete. Any other operator pins both operands and gives a concrete
 * result. */
RT_EXPORT void *__gb_w_binop(uint32_t op, uint32_t width, void *a, uint64_t alo, uint64_t ahi,
                             void *b, uint64_t blo, uint64_t bhi, uint32_t site)
{
    if (!width_ok(width))
        return NULL;
    wide_t x = w_of(a, alo, ahi, width), y = w_of(b, blo, bhi, width);
    switch (op) {
    case GBT_OP_ADD: return w_pack(w_add(x, y));
    case GBT_OP_SUB: return w_pack(w_sub(x, y));
    case GBT_OP_MUL: return w_pack(w_mul(x, y));
    case GBT_OP_AND: case GBT_OP_OR: case GBT_OP_XOR:
        return w_pack((wide_t){bin(op, x.lo, y.lo), bin(op, x.hi, y.hi), x.hw});
    case GBT_OP_SHL: case GBT_OP_LSHR: case GBT_OP_ASHR:
        w_pin(pair_of(b, width), blo, bhi, site);
        return bhi || blo >= width ? NULL : w_pack(w_shift(op, x, (unsigned)blo));
    default:
        w_pin(pair_of(a, width), alo, ahi, site);
        w_pin(pair_of(b, width), blo, bhi, site + 1);
        return NULL;
    }
}

/* An order decided by the high halves (signed or not: the high half holds
 * the sign bit), and when they are equal by the low halves, unsigned:
 * hi_a < hi_b or (hi_a = hi_b and lo_a < lo_b), with <= on the low halves
 * for the non-strict ones. */
static rt_expr_t *w_order(unsigned hi_op, unsigned lo_op, wide_t a, wide_t b)
{
    rt_expr_t *tie = bin(GBT_OP_AND, bin(GBT_OP_EQ, a.hi, b.hi), bin(lo_op, a.lo, b.lo));
    return bor(bin(hi_op, a.hi, b.hi), tie);
}

/* icmp: the condition, of width 1. */
RT_EXPORT void *__gb_w_cmp(uint32_t op, uint32_t width, void *a, uint64_t alo, uint64_t ahi,
                           void *b, uint64_t blo, uint64_t bhi)
{
    if (!width_ok(width))
        return NULL;
    wide_t x = w_of(a, alo, ahi, width), y = w_of(b, blo, bhi, width);
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

/* zext or sext of a value of `from` bits (1..64) to `to` bits: the low
 * half is the value extended to 64 bits, the high half zero or copies of
 * its sign bit. */
RT_EXPORT void *__gb_w_ext(uint32_t op, uint32_t from, uint32_t to, void *a)
{
    rt_expr_t *e = a;
    if (!e || e->width != from || !width_ok(to))
        return NULL;
    if (op != GBT_OP_SEXT)
        return rt_pair(to, fit(e, 64), NULL);
    rt_expr_t *lo = sx(e, 64);
    return rt_pair(to, lo, fit(sh(GBT_OP_ASHR, lo, 63), to - 64));
}

/* zext, sext or trunc between two wide widths: the low half stays, the
 * high half is extended or cut (a concrete one stays concrete). */
RT_EXPORT void *__gb_w_resize(uint32_t op, uint32_t from, uint32_t to, void *a)
{
    rt_expr_t *p = pair_of(a, from);
    if (!p || !width_ok(to))
        return NULL;
    rt_expr_t *hi = p->arg[1];
    if (hi)
        hi = op == GBT_OP_SEXT ? sx(hi, to - 64) : fit(hi, to - 64);
    return rt_pair(to, p->arg[0], hi);
}

/* trunc from `from` bits to `to` bits (1..64): the low half's low bits. */
RT_EXPORT void *__gb_w_trunc(uint32_t to, uint32_t from, void *a)
{
    rt_expr_t *p = pair_of(a, from);
    return p ? fit(p->arg[0], to) : NULL;
}

/* The {i64, i64} struct clang passes an __int128 as (its return value,
 * a struct of two 64-bit fields) has the shadow of an i128: a pair of
 * width 128 whose halves are its fields. extractvalue of field `idx`: */
RT_EXPORT void *__gb_w_field(void *agg, uint32_t idx)
{
    rt_expr_t *p = pair_of(agg, 128);
    return p && idx < 2 ? p->arg[idx] : NULL;
}

/* insertvalue of the 64-bit value with shadow `v` as field `idx`. */
RT_EXPORT void *__gb_w_insert(void *agg, uint32_t idx, void *v)
{
    rt_expr_t *p = pair_of(agg, 128), *e = v;
    rt_expr_t *f[2] = {p ? p->arg[0] : NULL, p ? p->arg[1] : NULL};
    if (idx >= 2)
        return NULL;
    f[idx] = e && e->width == 64 ? e : NULL;
    return rt_pair(128, f[0], f[1]);
}

/* select on a symbolic condition: an ite per half. */
RT_EXPORT void *__gb_w_select(void *c, uint64_t vc, void *a, uint64_t alo, void *b, uint64_t blo,
                              uint64_t ahi, uint64_t bhi, uint32_t width)
{
    if (!c)
        return (vc & 1) ? a : b;
    if (!width_ok(width))
        return NULL;
    wide_t x = w_of(a, alo, ahi, width), y = w_of(b, blo, bhi, width);
    return w_pack((wide_t){rt_ite(c, x.lo, y.lo), rt_ite(c, x.hi, y.hi), x.hw});
}

/* ---- memory: 8 bytes, then the rest, little-endian --------------------
 * A load takes the low bits of the rest (LLVM ignores the others). A
 * store is lowered only for whole bytes (the instrumenter's choice): what
 * a store of an i65 writes in the other 7 bits of its 9th byte is
 * unspecified, so the shadow of that byte could not be exact. */

static void *load_halves(const void *addr, uint32_t size, uint32_t width)
{
    uintptr_t a = (uintptr_t)addr;
    if (!width_ok(width) || size != (width + 7) / 8)
        return NULL;
    rt_expr_t *lo = rt_shadow_load(a, 8), *hi = rt_shadow_load(a + 8, size - 8);
    return rt_pair(width, lo, hi ? fit(hi, width - 64) : NULL);
}

/* After the bytes' shadows were cleared. */
static void store_halves(void *addr, uint32_t size, void *v, uint32_t width)
{
    rt_expr_t *p = pair_of(v, width);
    if (!p || width % 8 || size * 8 != width)
        return;
    rt_shadow_store((uintptr_t)addr, 8, p->arg[0]);
    rt_shadow_store((uintptr_t)addr + 8, size - 8, p->arg[1]);
}

/* The 64-bit entry points pin a symbolic address (and, being wider than
 * 8 bytes, read no shadow and clear the bytes stored); the halves follow. */
RT_EXPORT void *__gb_w_load(const void *addr, uint32_t size, void *addr_shadow, uint32_t site,
                            uint32_t width)
{
    __gb_load(addr, size, addr_shadow, site);
    return load_halves(addr, size, width);
}

RT_EXPORT void __gb_w_store(void *addr, uint32_t size, void *v, void *addr_shadow, uint32_t site,
                            uint32_t width)
{
    __gb_store(addr, size, NULL, addr_shadow, site);
    store_halves(addr, size, v, width);
}

RT_EXPORT void *__gb_w_load_ix(const void *addr, uint32_t size, void *base, uint64_t vbase,
                               void *idx, uint64_t c, uint64_t scale, uint32_t site, uint32_t width)
{
    __gb_load_ix(addr, size, base, vbase, idx, c, scale, site);
    return load_halves(addr, size, width);
}

RT_EXPORT void __gb_w_store_ix(void *addr, uint32_t size, void *v, void *base, uint64_t vbase,
                               void *idx, uint64_t c, uint64_t scale, uint32_t site, uint32_t width)
{
    __gb_store_ix(addr, size, NULL, base, vbase, idx, c, scale, site);
    store_halves(addr, size, v, width);
}
