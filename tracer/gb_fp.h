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

#endif
