/* SPDX-License-Identifier: Apache-2.0 */
/* The runtime's lowering of integers of 65 to 128 bits (tracer/rt/wide.c)
 * against the compiler's own unsigned __int128: every operation is built
 * once over input bytes, then its halves are evaluated (tracer/gb_bv.h)
 * on random and boundary inputs and must equal the native result, masked
 * to the width, bit for bit. */
#include <stdio.h>
#include <string.h>

#include "../check.h"
#include "gb_bv.h"
#include "rt_int.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

/* What wide.c and expr.c need of the rest of the runtime. */
rt_state_t rt;
RT_TLS int rt_active = 1;
static int pins;
RT_HIDDEN int rt_keep(uint32_t site) { return site != 0; }
RT_HIDDEN void rt_out_pc(unsigned kind, int taken, uint32_t site, rt_expr_t *cond)
{
    pins += kind == GBT_PC_PIN && taken && site && cond;
}
/* Memory is not exercised here (conformance i128_bitfield is): the
 * shadow and the 64-bit access entry points do nothing. */
RT_HIDDEN rt_expr_t *rt_shadow_load(uintptr_t addr, size_t n)
{
    (void)addr, (void)n;
    return NULL;
}
RT_HIDDEN void rt_shadow_store(uintptr_t addr, size_t n, rt_expr_t *e)
{
    (void)addr, (void)n, (void)e;
}
RT_EXPORT void *__gb_load(const void *addr, uint32_t size, void *s, uint32_t site)
{
    (void)addr, (void)size, (void)s, (void)site;
    return NULL;
}
RT_EXPORT void __gb_store(void *addr, uint32_t size, void *v, void *s, uint32_t site)
{
    (void)addr, (void)size, (void)v, (void)s, (void)site;
}
RT_EXPORT void *__gb_load_ix(const void *addr, uint32_t size, void *base, uint64_t vbase, void *idx,
                             uint64_t c, uint64_t scale, uint32_t site)
{
    (void)addr, (void)size, (void)base, (void)vbase, (void)idx, (void)c, (void)scale, (void)site;
    return NULL;
}
RT_EXPORT void __gb_store_ix(void *addr, uint32_t size, void *v, void *base, uint64_t vbase,
                             void *idx, uint64_t c, uint64_t scale, uint32_t site)
{
    (void)addr, (void)size, (void)v, (void)base, (void)vbase, (void)idx, (void)c, (void)scale,
        (void)site;
}

static uint8_t in[32]; /* the input the expressions are evaluated on */

static uint64_t eval(const rt_expr_t *e)
{
    if (!e)
        return 0;
    if (e->op == GBT_OP_INPUT)
        return in[e->imm];
    if (e->op == GBT_OP_CONST)
        return e->imm;
    int n = gbt_op_arity(e->op);
    uint64_t a[3] = {0, 0, 0};
    for (int i = 0; i < n; i++)
        a[i] = eval(e->arg[i]);
    return gb_bv_apply(e->op, e->width, n > 0 ? e->arg[0]->width : 0,
                       n > 1 ? e->arg[1]->width : 0, a, n < 3 ? e->imm : 0);
}

static rt_expr_t *word(unsigned at) /* input bytes at..at+7, little-endian */
{
    rt_expr_t *w = rt_input(at + 7);
    for (unsigned i = 7; i-- > 0;)
        w = rt_concat(w, rt_input(at + i));
    return w;
}

static unsigned W = 128; /* the width under test, 65..128 */

static u128 mask(void) { return W == 128 ? ~(u128)0 : ((u128)1 << W) - 1; }

/* The input's 16 bytes at `at` as a W-bit value. */
static u128 native(unsigned at)
{
    u128 v;
    memcpy(&v, in + at, 16);
    return v & mask();
}

/* v (W bits) sign-extended to 128. */
static s128 sext(u128 v)
{
    u128 sign = (u128)1 << (W - 1);
    return (s128)((v ^ sign) - sign);
}

static uint64_t lo64(u128 v) { return (uint64_t)v; }
static uint64_t hi64(u128 v) { return (uint64_t)(v >> 64); }

/* A pair's value on `in`; a NULL pair or half is the concrete `v`. */
static u128 value(const rt_expr_t *p, u128 v)
{
    uint64_t lo = p && p->arg[0] ? eval(p->arg[0]) : lo64(v);
    uint64_t hi = p && p->arg[1] ? eval(p->arg[1]) : hi64(v);
    return (u128)hi << 64 | lo;
}

/* A W-bit pair over the input's 16 bytes at `at`, or with a concrete low
 * half. */
static rt_expr_t *operand(unsigned at, int lo_too)
{
    return rt_pair(W, lo_too ? word(at) : NULL, rt_resize(word(at + 8), W - 64));
}

/* The operations, built over the pairs a (bytes 0..15) and b (16..31)
 * with this input's concrete halves, as instrumented code passes them. */
static void check_binops(rt_expr_t *a, rt_expr_t *b, const char *what)
{
    static const unsigned ops[] = {GBT_OP_ADD, GBT_OP_SUB, GBT_OP_MUL,
                                   GBT_OP_AND, GBT_OP_OR,  GBT_OP_XOR};
    u128 x = native(0), y = native(16), m = mask();
    u128 want[] = {(x + y) & m, (x - y) & m, (x * y) & m, x & y, x | y, x ^ y};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        rt_expr_t *r = __gb_w_binop(ops[i], W, a, lo64(x), hi64(x), b, lo64(y), hi64(y), 1);
        CHECK_MSG(value(r, want[i]) == want[i], "%s i%u op %u", what, W, ops[i]);
    }
    for (unsigned k = 0; k < W; k++) {
        u128 want3[] = {(x << k) & m, x >> k, (u128)(sext(x) >> k) & m};
        unsigned sh[] = {GBT_OP_SHL, GBT_OP_LSHR, GBT_OP_ASHR};
        for (int i = 0; i < 3; i++) {
            rt_expr_t *r = __gb_w_binop(sh[i], W, a, lo64(x), hi64(x), NULL, k, 0, 1);
            CHECK_MSG(value(r, want3[i]) == want3[i], "%s i%u shift %u by %u", what, W, sh[i], k);
        }
    }
}

/* a holds bytes xa..xa+15 and b bytes ya..ya+15 (or concrete halves). */
static void check_cmps(rt_expr_t *a, unsigned xa, rt_expr_t *b, unsigned ya)
{
    u128 x = native(xa), y = native(ya);
    s128 sx = sext(x), sy = sext(y);
    int want[] = {x == y,  x != y,   x < y,   x <= y,  x > y,
                  x >= y,  sx < sy,  sx <= sy, sx > sy, sx >= sy};
    for (unsigned op = GBT_OP_EQ; op <= GBT_OP_SGE; op++) {
        rt_expr_t *r = __gb_w_cmp(op, W, a, lo64(x), hi64(x), b, lo64(y), hi64(y));
        int got = r ? (int)eval(r) : want[op - GBT_OP_EQ];
        CHECK_MSG(got == want[op - GBT_OP_EQ], "i%u cmp %u", W, op);
    }
}

/* zext/sext of the first 1, 8, 32 and 64 bits of a, trunc to those, a
 * to and from 128 bits, and a select on a symbolic condition. */
static void check_casts(rt_expr_t *a, rt_expr_t *b)
{
    static const unsigned widths[] = {1, 8, 32, 64};
    u128 x = native(0), y = native(16);
    for (size_t i = 0; i < 4; i++) {
        unsigned w = widths[i];
        uint64_t v = lo64(x) & gb_bv_mask(w);
        rt_expr_t *e = rt_extract(a->arg[0], 0, w);
        u128 sx = (u128)(s128)(int64_t)gb_bv_sext(v, w, 64) & mask();
        CHECK(value(__gb_w_ext(GBT_OP_ZEXT, w, W, e), v) == v);
        CHECK(value(__gb_w_ext(GBT_OP_SEXT, w, W, e), sx) == sx);
        rt_expr_t *t = __gb_w_trunc(w, W, b);
        CHECK(!t || eval(t) == (lo64(y) & gb_bv_mask(w)));
    }
    /* between wide widths: W to 128 and back */
    unsigned w0 = W;
    u128 zx = x, sx = (u128)sext(x);
    CHECK(value(__gb_w_resize(GBT_OP_ZEXT, W, 128, a), zx) == zx);
    CHECK(value(__gb_w_resize(GBT_OP_SEXT, W, 128, a), sx) == sx);
    W = 128;
    rt_expr_t *full = operand(0, 1);
    W = w0;
    CHECK(value(__gb_w_resize(GBT_OP_EXTRACT, 128, W, full), x) == x);
    rt_expr_t *c = rt_binop(GBT_OP_ULT, rt_input(3), rt_input(20));
    u128 want = in[3] < in[20] ? x : y;
    rt_expr_t *s = __gb_w_select(c, in[3] < in[20], a, lo64(x), b, lo64(y), hi64(x), hi64(y), W);
    CHECK(value(s, want) == want);
}

/* Byte patterns that reach the carries, borrows and sign boundaries. */
static void fill(unsigned seed)
{
    static const uint8_t edge[] = {0x00, 0xff, 0x80, 0x7f, 0x01, 0xfe};
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    unsigned mode = seed % 4;
    for (size_t i = 0; i < sizeof in; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        in[i] = mode == 0 || (s >> 40) % 3 == 0 ? (uint8_t)(s >> 24) : edge[(s >> 32) % 6];
    }
    if (seed % 5 == 1)
        memcpy(in + 16, in, 16); /* equal operands */
    if (seed % 7 == 2)
        memcpy(in + 16, in, 8); /* equal low halves */
    if (seed % 11 == 3)
        memcpy(in + 24, in + 8, 8); /* equal high halves */
}

int main(void)
{
    static const unsigned widths[] = {128, 65, 72, 96, 100, 127};
    rt.lim.max_depth = 1000;
    rt.lim.max_nodes = UINT64_MAX;
    CHECK(rt_pair(128, NULL, rt_const(64, 5)) == NULL);
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        W = widths[i];
        /* Fully symbolic operands, and a low half concrete (a NULL half). */
        rt_expr_t *a = operand(0, 1), *b = operand(16, 1), *b_hi = operand(16, 0);
        CHECK(a && b && b_hi && a->op == RT_OP_PAIR && a->width == W);
        for (unsigned seed = 0; seed < (W == 128 ? 400u : 100u); seed++) {
            fill(seed);
            check_binops(a, b, "symbolic");
            check_binops(a, b_hi, "hi only");
            check_cmps(a, 0, b, 16);
            check_cmps(b_hi, 16, a, 0);
            check_casts(a, b);
        }
        /* Anything but a pair of this width reads as concrete. */
        CHECK(__gb_w_trunc(8, W, word(0)) == NULL);
        CHECK(__gb_w_trunc(8, W == 128 ? 127 : 128, a) == NULL);
    }
    /* A symbolic shift amount is pinned, then used as a constant. */
    W = 128;
    pins = 0;
    fill(1);
    u128 x = native(0);
    rt_expr_t *a = operand(0, 1), *amount = rt_pair(128, rt_resize(rt_input(16), 64), NULL);
    rt_expr_t *r = __gb_w_binop(GBT_OP_SHL, 128, a, lo64(x), hi64(x), amount, in[16], 0, 7);
    CHECK(pins == 1 && (in[16] >= 128 ? r == NULL : value(r, x << in[16]) == x << in[16]));
    return check_exit("tracer.wide");
}
