/* SPDX-License-Identifier: Apache-2.0 */
/* Concrete semantics of the floating-point trace operators (version 3):
 * a float is the bit-vector of its IEEE-754 bits, and each operator is the
 * host's own float or double arithmetic in the default rounding mode
 * (nearest even), which is what Z3's FP theory computes with RNE (checked
 * by tests/symbolic/test_fp.c). Header-only and static like gb_bv.h, and
 * free of libm, so the runtime linked into targets can carry it. */
#ifndef GB_FP_H
#define GB_FP_H

#include <stdint.h>
#include <string.h>

#include "gbt.h"

/* Needs IEEE binary32/binary64 evaluated at their own precision (SSE2 on
 * x86-64, FLT_EVAL_METHOD 0) and no -ffast-math: every operation below is
 * one correctly rounded IEEE operation. */

static inline double gb_fp_d(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static inline float gb_fp_f(uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The value of a width-w (32 or 64) float as a double: exact for both. */
static inline double gb_fp_val(uint64_t bits, unsigned w)
{
    return w == 32 ? (double)gb_fp_f(bits) : gb_fp_d(bits);
}

/* Bits of a result; every NaN becomes the one NaN (GBT_FP_NAN*), since the
 * hardware's NaN sign and payload are not what Z3 gives. */
static inline uint64_t gb_fp_bits64(double d)
{
    uint64_t b;
    if (d != d)
        return GBT_FP_NAN64;
    memcpy(&b, &d, sizeof b);
    return b;
}

static inline uint64_t gb_fp_bits32(float f)
{
    uint32_t b;
    if (f != f)
        return GBT_FP_NAN32;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* LLVM's fcmp predicate `op` (GBT_OP_FOEQ..FUNE) on two values. Floats
 * widen to double exactly, so one comparison serves both widths. */
static inline int gb_fp_cmp(unsigned op, double a, double b)
{
    int uno = a != a || b != b;
    switch (op) {
    case GBT_OP_FOEQ: return !uno && a == b;
    case GBT_OP_FOGT: return !uno && a > b;
    case GBT_OP_FOGE: return !uno && a >= b;
    case GBT_OP_FOLT: return !uno && a < b;
    case GBT_OP_FOLE: return !uno && a <= b;
    case GBT_OP_FONE: return !uno && a != b;
    case GBT_OP_FORD: return !uno;
    case GBT_OP_FUNO: return uno;
    case GBT_OP_FUEQ: return uno || a == b;
    case GBT_OP_FUGT: return uno || a > b;
    case GBT_OP_FUGE: return uno || a >= b;
    case GBT_OP_FULT: return uno || a < b;
    case GBT_OP_FULE: return uno || a <= b;
    default: return uno || a != b; /* FUNE */
    }
}

static inline uint64_t gb_fp_arith64(unsigned op, double a, double b)
{
    switch (op) {
    case GBT_OP_FADD: return gb_fp_bits64(a + b);
    case GBT_OP_FSUB: return gb_fp_bits64(a - b);
    case GBT_OP_FMUL: return gb_fp_bits64(a * b);
    default: return gb_fp_bits64(a / b);
    }
}

static inline uint64_t gb_fp_arith32(unsigned op, float a, float b)
{
    switch (op) {
    case GBT_OP_FADD: return gb_fp_bits32(a + b);
    case GBT_OP_FSUB: return gb_fp_bits32(a - b);
    case GBT_OP_FMUL: return gb_fp_bits32(a * b);
    default: return gb_fp_bits32(a / b);
    }
}

/* x rounded toward zero to an integer (NaN and infinities unchanged);
 * doubles of magnitude 2^52 or more are integers already. */
static inline double gb_fp_trunc(double x)
{
    return x > -4503599627370496.0 && x < 4503599627370496.0 ? (double)(int64_t)x : x;
}

/* FPTOSI/FPTOUI to width w: toward zero, and 0 when the truncated value
 * does not fit (or is NaN): LLVM makes that poison, the trace format
 * makes it 0 so that the evaluator and Z3 agree on every input. */
static inline uint64_t gb_fp_toint(unsigned op, double x, unsigned w)
{
    double t = gb_fp_trunc(x), top = 2.0 * (double)(1ull << (w - 1));
    if (op == GBT_OP_FPTOUI)
        return t >= 0.0 && t < top ? (uint64_t)t : 0;
    double half = top / 2.0;
    if (!(t >= -half && t < half))
        return 0;
    uint64_t v = (uint64_t)(int64_t)t;
    return w >= 64 ? v : v & ((1ull << w) - 1);
}

/* An integer of width aw (its bits in a) to a float of width w. */
static inline uint64_t gb_fp_fromint(unsigned op, uint64_t a, unsigned aw, unsigned w)
{
    if (op == GBT_OP_SITOFP) {
        uint64_t sign = 1ull << (aw - 1);
        int64_t s = (int64_t)((a ^ sign) - sign);
        return w == 32 ? gb_fp_bits32((float)s) : gb_fp_bits64((double)s);
    }
    return w == 32 ? gb_fp_bits32((float)a) : gb_fp_bits64((double)a);
}

/* The value of FP operator `op` with result width `width` on arguments
 * a[0..1], argument 0 of width aw0 (docs/trace-format.md, "Floating
 * point"). Compares give 0 or 1. */
static inline uint64_t gb_fp_apply(unsigned op, unsigned width, unsigned aw0, const uint64_t *a)
{
    if (gbt_op_is_fcmp(op))
        return (uint64_t)gb_fp_cmp(op, gb_fp_val(a[0], aw0), gb_fp_val(a[1], aw0));
    switch (op) {
    case GBT_OP_FADD: case GBT_OP_FSUB: case GBT_OP_FMUL: case GBT_OP_FDIV:
        return width == 32 ? gb_fp_arith32(op, gb_fp_f(a[0]), gb_fp_f(a[1]))
                           : gb_fp_arith64(op, gb_fp_d(a[0]), gb_fp_d(a[1]));
    case GBT_OP_SITOFP: case GBT_OP_UITOFP: return gb_fp_fromint(op, a[0], aw0, width);
    case GBT_OP_FPTOSI: case GBT_OP_FPTOUI:
        return gb_fp_toint(op, gb_fp_val(a[0], aw0), width);
    case GBT_OP_FPEXT: return gb_fp_bits64((double)gb_fp_f(a[0]));
    case GBT_OP_FPTRUNC: return gb_fp_bits32((float)gb_fp_d(a[0]));
    default: return 0;
    }
}

/* ---- Compares of a rounded quotient with a constant ---------------------
 * x = M / D for an integer M below 2^p (p = 53 for width 64, 24 for 32:
 * UITOFP(M) is exact) and an integer-valued constant D >= 1, rounded to
 * nearest even: what a decimal parse's fast path computes (the strtod
 * model). Rounding is monotone, so q >= c is M >= t for one integer t:
 * an FP compare of q with a constant becomes bit-vector compares of M,
 * which Z3 answers in milliseconds where fp.div took seconds. */

__extension__ typedef unsigned __int128 gb_fp_u128;

#define GB_FP_NEVER UINT64_MAX /* a threshold no M (< 2^53) reaches */

/* bits (a positive float of width w) as S * 2^E. */
static inline void gb_fp_split(uint64_t bits, unsigned w, uint64_t *S, int *E)
{
    unsigned p = w == 32 ? 24 : 53;
    int bias = w == 32 ? 127 : 1023;
    uint64_t ef = bits >> (p - 1), mant = bits & ((1ull << (p - 1)) - 1);
    *S = ef ? mant | 1ull << (p - 1) : mant;
    *E = (ef ? (int)ef : 1) - bias - (int)(p - 1);
}

/* The least integer t with RNE(M / D) >= c for every integer M, c > 0
 * finite (bits cb, width w): M / D must pass the midpoint m between c and
 * its predecessor, or reach it when the tie goes to c (even bits). */
static inline uint64_t gb_fp_quot_thr(uint64_t cb, unsigned w, uint64_t D)
{
    uint64_t Sc, Sp = 0;
    int Ec, Ep = 0;
    gb_fp_split(cb, w, &Sc, &Ec);
    if (cb > 1)
        gb_fp_split(cb - 1, w, &Sp, &Ep);
    int E0 = cb > 1 && Ep < Ec ? Ep : Ec; /* neighbours differ by one in E at most */
    uint64_t A = (Sp << (cb > 1 ? Ep - E0 : 0)) + (Sc << (Ec - E0)); /* m = A * 2^(E0-1) */
    gb_fp_u128 X = (gb_fp_u128)A * D, u;
    int E = E0 - 1, exact = 1;
    if (E >= 0) {
        if (E >= 64 || X > ((gb_fp_u128)UINT64_MAX >> E))
            return GB_FP_NEVER;
        u = X << E;
    } else if (-E >= 128) {
        u = 0, exact = X == 0;
    } else {
        u = X >> -E;
        exact = (X & (((gb_fp_u128)1 << -E) - 1)) == 0;
    }
    if (u >= GB_FP_NEVER)
        return GB_FP_NEVER;
    return exact && (cb & 1) == 0 ? (uint64_t)u : (uint64_t)u + 1;
}

/* t with (RNE(M / D) >= c) == (M >= t), for any c but NaN. */
static inline uint64_t gb_fp_quot_ge(uint64_t cb, unsigned w, uint64_t D)
{
    uint64_t sign = 1ull << (w - 1), inf = w == 32 ? 0x7f800000u : 0x7ff0000000000000ull;
    if ((cb & sign) || cb == 0)
        return 0; /* c <= 0: q >= +0 >= c */
    return cb >= inf ? GB_FP_NEVER : gb_fp_quot_thr(cb, w, D);
}

/* t with (RNE(M / D) > c) == (M >= t): q > c is q >= the float after c. */
static inline uint64_t gb_fp_quot_gt(uint64_t cb, unsigned w, uint64_t D)
{
    uint64_t sign = 1ull << (w - 1);
    if (cb & sign)
        return cb == sign ? gb_fp_quot_thr(1, w, D) : 0; /* -0: q > 0; c < 0: always */
    return gb_fp_quot_ge(cb + 1, w, D); /* +0 -> the least subnormal, MAX -> inf */
}

/* fcmp `op` (q, c) as (M >= t_ge, M >= t_gt) combined: the result is
 * ge1 && !ge2 per the mask returned (bit 0: use M >= t1, bit 1: use
 * !(M >= t2), bit 2: negate the whole), or -1 when op is ORD/UNO (a
 * constant: q is never NaN). c must not be NaN. */
static inline int gb_fp_quot_cmp(unsigned op, uint64_t cb, unsigned w, uint64_t D, uint64_t *t1,
                                 uint64_t *t2)
{
    unsigned o = op >= GBT_OP_FUEQ ? op - (GBT_OP_FUEQ - GBT_OP_FOEQ) : op;
    *t1 = gb_fp_quot_ge(cb, w, D);
    *t2 = gb_fp_quot_gt(cb, w, D);
    switch (o) {
    case GBT_OP_FOGE: return 1;     /* M >= t_ge */
    case GBT_OP_FOGT: *t1 = *t2; return 1;
    case GBT_OP_FOLT: return 1 | 4; /* !(M >= t_ge) */
    case GBT_OP_FOLE: *t1 = *t2; return 1 | 4;
    case GBT_OP_FOEQ: return 1 | 2; /* M >= t_ge && !(M >= t_gt) */
    case GBT_OP_FONE: return 1 | 2 | 4;
    default: return -1;             /* ORD, UNO */
    }
}

#endif
