/* SPDX-License-Identifier: Apache-2.0 */
/* The multi-interval prefilter (PARTI): constraints that are one input
 * variable under casts and arithmetic with constants, compared with a
 * constant, give each variable a set of values; an empty set refutes the
 * query, otherwise values picked inside the sets are checked by concrete
 * evaluation of the whole query. Anything else: unknown. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gb_config.h"
#include "symbolic_int.h"


typedef struct iv {
    uint64_t lo, hi;
} iv_t;

/* A set of w-bit values: sorted, disjoint, non-adjacent intervals. */
typedef struct ivset {
    iv_t v[GB_IV_TMP];
    unsigned n, w;
} ivset_t;

static int cmp_iv(const void *a, const void *b)
{
    const iv_t *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Sorts and merges; past GB_IV_MAX intervals, closes the smallest gaps, which
 * only adds values (sound for refutation; candidates are checked anyway). */
static void iv_norm(ivset_t *s)
{
    qsort(s->v, s->n, sizeof *s->v, cmp_iv);
    unsigned m = 0;
    for (unsigned i = 0; i < s->n; i++) {
        if (m && (s->v[m - 1].hi == UINT64_MAX || s->v[i].lo <= s->v[m - 1].hi + 1)) {
            if (s->v[i].hi > s->v[m - 1].hi)
                s->v[m - 1].hi = s->v[i].hi;
        } else
            s->v[m++] = s->v[i];
    }
    s->n = m;
    while (s->n > GB_IV_MAX) {
        unsigned best = 1;
        for (unsigned i = 2; i < s->n; i++)
            if (s->v[i].lo - s->v[i - 1].hi < s->v[best].lo - s->v[best - 1].hi)
                best = i;
        s->v[best - 1].hi = s->v[best].hi;
        memmove(&s->v[best], &s->v[best + 1], (s->n - best - 1) * sizeof *s->v);
        s->n--;
    }
}

static int in_set(const ivset_t *s, uint64_t x)
{
    for (unsigned i = 0; i < s->n; i++)
        if (x >= s->v[i].lo && x <= s->v[i].hi)
            return 1;
    return 0;
}

static void iv_push(ivset_t *s, uint64_t lo, uint64_t hi)
{
    if (s->n < GB_IV_TMP)
        s->v[s->n++] = (iv_t){lo, hi};
}

/* Adds [lo, hi] taken modulo 2^w: wraps into two pieces when lo > hi. */
static void iv_push_wrap(ivset_t *s, uint64_t lo, uint64_t hi)
{
    if (lo <= hi)
        iv_push(s, lo, hi);
    else {
        iv_push(s, lo, gb_mask(s->w));
        iv_push(s, 0, hi);
    }
}

static void iv_full(ivset_t *s, unsigned w)
{
    s->w = w;
    s->n = 1;
    s->v[0] = (iv_t){0, gb_mask(w)};
}

static void iv_complement(ivset_t *s)
{
    ivset_t r = {.n = 0, .w = s->w};
    uint64_t next = 0, m = gb_mask(s->w);
    int done = 0;
    for (unsigned i = 0; i < s->n && !done; i++) {
        if (s->v[i].lo > next)
            iv_push(&r, next, s->v[i].lo - 1);
        if (s->v[i].hi >= m)
            done = 1;
        else
            next = s->v[i].hi + 1;
    }
    if (!done)
        iv_push(&r, next, m);
    *s = r;
}

static void iv_cut(ivset_t *s, uint64_t lo, uint64_t hi)
{
    unsigned m = 0;
    for (unsigned i = 0; i < s->n; i++) {
        uint64_t a = s->v[i].lo > lo ? s->v[i].lo : lo, b = s->v[i].hi < hi ? s->v[i].hi : hi;
        if (a <= b)
            s->v[m++] = (iv_t){a, b};
    }
    s->n = m;
}

static void iv_intersect(ivset_t *a, const ivset_t *b)
{
    ivset_t r = {.n = 0, .w = a->w};
    for (unsigned i = 0, k = 0; i < a->n && k < b->n;) {
        uint64_t lo = a->v[i].lo > b->v[k].lo ? a->v[i].lo : b->v[k].lo;
        uint64_t hi = a->v[i].hi < b->v[k].hi ? a->v[i].hi : b->v[k].hi;
        if (lo <= hi)
            iv_push(&r, lo, hi);
        if (a->v[i].hi < b->v[k].hi)
            i++;
        else
            k++;
    }
    *a = r;
}

/* { y + k mod 2^w : y in s } */
static void iv_shift(ivset_t *s, uint64_t k)
{
    ivset_t r = {.n = 0, .w = s->w};
    uint64_t m = gb_mask(s->w);
    for (unsigned i = 0; i < s->n; i++)
        iv_push_wrap(&r, (s->v[i].lo + k) & m, (s->v[i].hi + k) & m);
    *s = r;
    iv_norm(s);
}

/* { k - y mod 2^w : y in s } */
static void iv_reflect(ivset_t *s, uint64_t k)
{
    ivset_t r = {.n = 0, .w = s->w};
    uint64_t m = gb_mask(s->w);
    for (unsigned i = 0; i < s->n; i++)
        iv_push_wrap(&r, (k - s->v[i].hi) & m, (k - s->v[i].lo) & m);
    *s = r;
    iv_norm(s);
}

/* The w-bit values y with (y op c) == truth. Signed orders are unsigned
 * orders on y + 2^(w-1), so they are computed there and shifted back. */
static void iv_cmp(unsigned op, uint64_t c, unsigned w, unsigned truth, ivset_t *s)
{
    uint64_t m = gb_mask(w), sb = 1ull << (w - 1);
    int sgn = op >= GBT_OP_SLT && op <= GBT_OP_SGE;
    if (sgn) {
        op = op - GBT_OP_SLT + GBT_OP_ULT;
        c = (c + sb) & m;
    }
    s->w = w;
    s->n = 0;
    switch (op) {
    case GBT_OP_EQ: iv_push(s, c, c); break;
    case GBT_OP_NE:
        iv_push(s, c, c);
        truth = !truth;
        break;
    case GBT_OP_ULT:
        if (c)
            iv_push(s, 0, c - 1);
        break;
    case GBT_OP_ULE: iv_push(s, 0, c); break;
    case GBT_OP_UGT:
        if (c < m)
            iv_push(s, c + 1, m);
        break;
    default: iv_push(s, c, m); break; /* UGE */
    }
    if (!truth)
        iv_complement(s);
    if (sgn)
        iv_shift(s, (0 - sb) & m);
}

static unsigned swap_cmp(unsigned op)
{
    switch (op) {
    case GBT_OP_ULT: return GBT_OP_UGT;
    case GBT_OP_ULE: return GBT_OP_UGE;
    case GBT_OP_UGT: return GBT_OP_ULT;
    case GBT_OP_UGE: return GBT_OP_ULE;
    case GBT_OP_SLT: return GBT_OP_SGT;
    case GBT_OP_SLE: return GBT_OP_SGE;
    case GBT_OP_SGT: return GBT_OP_SLT;
    case GBT_OP_SGE: return GBT_OP_SLE;
    default: return op;
    }
}

/* ---- Variables -------------------------------------------------------- */

/* An input variable: one byte, or the bytes base .. base+n-1 of one load. */
typedef struct ivar {
    uint64_t base;
    uint8_t n, be;
    ivset_t all, hard; /* sets from every conjunct / from hard ones only */
} ivar_t;

/* Recognises x as a variable: an INPUT, a CONCAT of consecutive INPUTs
 * (ascending offsets from the high part: big-endian; descending: little),
 * or an OR of zero-extended INPUTs shifted by multiples of 8 (how clang
 * assembles a load byte by byte). *vw is the variable's width; x is that
 * wide, or wider and then equal to its zero extension (OR loads only). */
static int as_var_w(const gb_dag_t *d, uint32_t x, uint64_t *base, uint8_t *n, uint8_t *be,
                    unsigned *vw)
{
    const gb_node_t *nd = &d->nodes[x];
    if (nd->op == GBT_OP_INPUT) {
        *base = nd->imm, *n = 1, *be = 0, *vw = 8;
        return 1;
    }
    if ((nd->op != GBT_OP_CONCAT && nd->op != GBT_OP_OR) || nd->width > 64)
        return 0;
    uint64_t off[8]; /* by byte position, most significant first */
    unsigned k = 0, top = 0;
    uint32_t stack[16];
    unsigned sp = 0;
    stack[sp++] = x;
    if (nd->op == GBT_OP_CONCAT) {
        if (nd->width % 8)
            return 0;
        while (sp) { /* leaves from the high part down */
            const gb_node_t *y = &d->nodes[stack[--sp]];
            if (y->op == GBT_OP_CONCAT && sp + 2 <= 16) {
                stack[sp++] = y->args[1];
                stack[sp++] = y->args[0];
            } else if (y->op == GBT_OP_INPUT && k < 8)
                off[k++] = y->imm;
            else
                return 0;
        }
        top = k;
    } else {
        uint64_t byoff[8];
        uint8_t seen = 0;
        while (sp) { /* terms: zext(b) or shl(zext(b), 8i) */
            const gb_node_t *y = &d->nodes[stack[--sp]];
            uint64_t sh = 0;
            if (y->op == GBT_OP_OR && sp + 2 <= 16) {
                stack[sp++] = y->args[0];
                stack[sp++] = y->args[1];
                continue;
            }
            if (y->op == GBT_OP_SHL && d->nodes[y->args[1]].op == GBT_OP_CONST) {
                sh = d->nodes[y->args[1]].imm;
                y = &d->nodes[y->args[0]];
            }
            if (y->op != GBT_OP_ZEXT || d->nodes[y->args[0]].op != GBT_OP_INPUT || sh % 8 ||
                sh >= 64 || (seen >> (sh / 8)) & 1)
                return 0;
            seen |= (uint8_t)(1u << (sh / 8));
            byoff[sh / 8] = d->nodes[y->args[0]].imm;
            top = top > sh / 8 + 1 ? top : (unsigned)(sh / 8 + 1);
        }
        if (seen != (uint8_t)((1u << top) - 1) || 8 * top > nd->width)
            return 0; /* a gap: not one load */
        for (k = 0; k < top; k++)
            off[k] = byoff[top - 1 - k];
    }
    int asc = 1, desc = 1;
    for (unsigned i = 1; i < k; i++) {
        asc &= off[i] == off[i - 1] + 1;
        desc &= off[i] + 1 == off[i - 1];
    }
    if (k == 0 || (nd->op == GBT_OP_CONCAT && k * 8 != nd->width) || (!asc && !desc))
        return 0;
    if (k == 1)
        asc = 0; /* one byte: the same variable as the INPUT itself */
    *n = (uint8_t)k, *be = (uint8_t)asc, *base = asc ? off[0] : off[k - 1], *vw = 8 * k;
    return 1;
}

/* All ones from bit 0 up to x's highest set bit. */
static uint64_t fill_down(uint64_t x)
{
    for (unsigned k = 1; k < 64; k *= 2)
        x |= x >> k;
    return x;
}

/* Forward hull [*lo, *hi] of node x's value over every input: an
 * over-approximation through casts, constants, add/sub/mul without
 * overflow, masks, shifts, division and remainder by constants, extract,
 * concat and ITE. *budget bounds the nodes visited; past it, or above 64
 * bits, a node is unknown: the full range. Returns 0 only above 64 bits. */
static int hull_b(const gb_dag_t *d, uint32_t x, uint64_t *lo, uint64_t *hi, int *budget)
{
    const gb_node_t *nd = &d->nodes[x];
    uint64_t m = gb_mask(nd->width), base;
    uint8_t n, be;
    unsigned vw;
    *lo = 0, *hi = m;
    if (nd->width > 64)
        return 0;
    if (--*budget < 0)
        return 1;
    if (nd->op == GBT_OP_CONST) {
        *lo = *hi = nd->imm & m;
        return 1;
    }
    if (as_var_w(d, x, &base, &n, &be, &vw)) {
        *hi = gb_mask(vw);
        return 1;
    }
    if (nd->nargs == 0 || (nd->op >= GBT_OP_EQ && nd->op <= GBT_OP_SGE) || nd->op > GBT_OP_ITE)
        return 1;
    uint32_t a = nd->args[0], b = nd->nargs > 1 ? nd->args[1] : 0;
    uint64_t la, ha, lb = 0, hb = 0;
    if (!hull_b(d, nd->op == GBT_OP_ITE ? b : a, &la, &ha, budget) ||
        (nd->nargs > 1 && !hull_b(d, nd->op == GBT_OP_ITE ? nd->args[2] : b, &lb, &hb, budget)))
        return 1;
    unsigned wa = d->nodes[a].width;
    if (la == ha && lb != hb && (nd->op == GBT_OP_ADD || nd->op == GBT_OP_MUL ||
                                 nd->op == GBT_OP_AND || nd->op == GBT_OP_OR)) {
        uint64_t t = la; /* commutative: the known side second */
        la = lb, lb = t, t = ha, ha = hb, hb = t;
    }
    int bk = nd->nargs > 1 && lb == hb; /* b a constant (or known) */
    switch (nd->op) {
    case GBT_OP_ZEXT: *lo = la, *hi = ha; break;
    case GBT_OP_SEXT:
        if (ha < (1ull << (wa - 1)))
            *lo = la, *hi = ha;
        break;
    case GBT_OP_ADD:
        if (ha <= m - hb)
            *lo = la + lb, *hi = ha + hb;
        break;
    case GBT_OP_SUB:
        if (bk && la >= lb)
            *lo = la - lb, *hi = ha - lb;
        break;
    case GBT_OP_MUL:
        if (!hb || ha <= m / hb)
            *lo = la * lb, *hi = ha * hb;
        break;
    case GBT_OP_UDIV:
        if (bk && lb)
            *lo = la / lb, *hi = ha / lb;
        break;
    case GBT_OP_UREM:
        if (bk && lb && ha < lb)
            *lo = la, *hi = ha;
        else if (bk && lb)
            *hi = lb - 1;
        break;
    case GBT_OP_AND: {
        /* below the highest bit the value can have, a mask that keeps
         * every bit from some t up rounds down: monotone */
        uint64_t keep = bk ? (lb | (~fill_down(ha) & m)) : 0;
        if (bk && ((~keep & m) & ((~keep & m) + 1)) == 0)
            *lo = la & keep, *hi = ha & keep;
        else
            *hi = ha < hb ? ha : hb;
        break;
    }
    case GBT_OP_OR:
        *lo = la > lb ? la : lb;
        *hi = fill_down(ha | hb) & m;
        break;
    case GBT_OP_LSHR:
        if (bk && lb < nd->width)
            *lo = la >> lb, *hi = ha >> lb;
        break;
    case GBT_OP_SHL:
        if (bk && lb < nd->width && ha <= (m >> lb))
            *lo = la << lb, *hi = ha << lb;
        break;
    case GBT_OP_EXTRACT:
        if (nd->imm < 64 && (ha >> nd->imm) <= m)
            *lo = la >> nd->imm, *hi = ha >> nd->imm;
        break;
    case GBT_OP_CONCAT: {
        unsigned wb = d->nodes[b].width;
        if (wb < 64)
            *lo = (la << wb) | lb, *hi = (ha << wb) | hb;
        break;
    }
    case GBT_OP_ITE: /* the arms' hulls, joined */
        *lo = la < lb ? la : lb, *hi = ha > hb ? ha : hb;
        break;
    default: break;
    }
    return 1;
}

static int hull(const gb_dag_t *d, uint32_t x, uint64_t *lo, uint64_t *hi)
{
    int budget = GB_IV_HULL_BUDGET;
    return hull_b(d, x, lo, hi, &budget);
}

static int lin_hull(const gb_dag_t *d, uint32_t x, uint64_t *lo, uint64_t *hi);

/* 1 when node x can take no value of s, whatever the input: outside its
 * forward hull, or the hull of it read as a sum (lin_hull), which holds
 * where a subtraction wraps and a later addition wraps back. */
static int never_in(const gb_dag_t *d, uint32_t x, const ivset_t *s)
{
    uint64_t lo, hi, llo, lhi;
    if (!hull(d, x, &lo, &hi))
        return 0;
    if (lin_hull(d, x, &llo, &lhi)) {
        lo = llo > lo ? llo : lo;
        hi = lhi < hi ? lhi : hi;
    }
    for (unsigned i = 0; i < s->n; i++)
        if (s->v[i].lo <= hi && s->v[i].hi >= lo)
            return 0;
    return 1;
}

/* Pulls the set s on node x's values back through one operator; returns
 * the operand to continue with, or GB_NONE when the shape is unsupported. */
static uint32_t pull_back(const gb_dag_t *d, uint32_t x, ivset_t *s)
{
    const gb_node_t *nd = &d->nodes[x];
    uint32_t a = nd->nargs > 0 ? nd->args[0] : 0, b = nd->nargs > 1 ? nd->args[1] : 0;
    int ac = nd->nargs > 1 && d->nodes[a].op == GBT_OP_CONST;
    int bc = nd->nargs > 1 && d->nodes[b].op == GBT_OP_CONST;
    uint64_t m = gb_mask(nd->width);
    unsigned wa = nd->nargs ? d->nodes[a].width : 0;
    switch (nd->op) {
    case GBT_OP_ZEXT:
        iv_cut(s, 0, gb_mask(wa));
        s->w = wa;
        return a;
    case GBT_OP_SEXT: {
        ivset_t hi = *s;
        uint64_t sm = gb_mask(wa - 1), delta = m - gb_mask(wa);
        iv_cut(s, 0, sm);
        iv_cut(&hi, m - sm, m);
        for (unsigned i = 0; i < hi.n; i++)
            iv_push(s, hi.v[i].lo - delta, hi.v[i].hi - delta);
        s->w = wa;
        iv_norm(s);
        return a;
    }
    case GBT_OP_NOT: iv_reflect(s, m); return a;
    case GBT_OP_NEG: iv_reflect(s, 0); return a;
    case GBT_OP_ADD:
        if (!ac && !bc)
            return GB_NONE;
        iv_shift(s, (0 - d->nodes[bc ? b : a].imm) & m);
        return bc ? a : b;
    case GBT_OP_SUB:
        if (bc)
            iv_shift(s, d->nodes[b].imm);
        else if (ac)
            iv_reflect(s, d->nodes[a].imm);
        return bc ? a : ac ? b : GB_NONE;
    case GBT_OP_AND: {
        /* y & k <= y, so every y with (y & k) in s is at least the least
         * value of s that fits under k: an over-approximation, which
         * refutation allows (candidates are checked anyway). */
        if (!ac && !bc)
            return GB_NONE;
        iv_cut(s, 0, d->nodes[bc ? b : a].imm);
        if (s->n)
            *s = (ivset_t){.v = {{s->v[0].lo, m}}, .n = 1, .w = s->w};
        return bc ? a : b;
    }
    case GBT_OP_MUL: {
        uint32_t y = bc ? a : b;
        uint64_t k = (ac || bc) ? d->nodes[bc ? b : a].imm : 0, lo, hi;
        if (!k || !hull(d, y, &lo, &hi) || hi > m / k)
            return GB_NONE; /* may overflow: PARTI gives up */
        unsigned o = 0;
        for (unsigned i = 0; i < s->n; i++) {
            uint64_t l = s->v[i].lo / k + (s->v[i].lo % k != 0), h = s->v[i].hi / k;
            if (l <= h)
                s->v[o++] = (iv_t){l, h};
        }
        s->n = o;
        iv_cut(s, lo, hi);
        return y;
    }
    default: return GB_NONE;
    }
}

/* Reads `x == value` through the negations around a compare: a width-1
 * NOT, or XOR with 1, flips the value. 0 when an XOR with 0 is met: unusual
 * enough to leave alone. */
static int unnegate(const gb_dag_t *d, uint32_t *x, unsigned *value)
{
    for (;;) {
        const gb_node_t *n1 = &d->nodes[*x];
        if (n1->width == 1 && n1->op == GBT_OP_NOT) {
            *x = n1->args[0];
        } else if (n1->width == 1 && n1->op == GBT_OP_XOR &&
                   (d->nodes[n1->args[0]].op == GBT_OP_CONST ||
                    d->nodes[n1->args[1]].op == GBT_OP_CONST)) {
            int c0 = d->nodes[n1->args[0]].op == GBT_OP_CONST;
            if (!(d->nodes[n1->args[c0 ? 0 : 1]].imm & 1))
                return 0;
            *x = n1->args[c0 ? 1 : 0];
        } else
            return 1;
        *value = !*value;
    }
}

/* The head of a conjunct `x == value`: a (possibly negated) comparison of
 * an expression with a constant. Returns the expression's node with the
 * set of values that satisfy the conjunct in *s, or GB_NONE. */
static uint32_t learn_head(const gb_dag_t *d, uint32_t x, unsigned value, ivset_t *s)
{
    if (!unnegate(d, &x, &value))
        return GB_NONE;
    const gb_node_t *nd = &d->nodes[x];
    if (!gbt_op_is_cmp(nd->op))
        return GB_NONE;
    int lc = d->nodes[nd->args[0]].op == GBT_OP_CONST;
    int rc = d->nodes[nd->args[1]].op == GBT_OP_CONST;
    if (lc == rc)
        return GB_NONE;
    uint32_t y = lc ? nd->args[1] : nd->args[0];
    iv_cmp(lc ? swap_cmp(nd->op) : nd->op, d->nodes[lc ? nd->args[0] : nd->args[1]].imm,
           d->nodes[y].width, value, s);
    return y;
}

/* An ITE whose arms are both constants (`mode = bit ? K1 : K2`, then a
 * switch on mode): 1 when x is one, with its arms in k[0..1]. */
static int const_arms(const gb_dag_t *d, uint32_t x, uint64_t *k)
{
    const gb_node_t *nd = &d->nodes[x];
    if (nd->op != GBT_OP_ITE || d->nodes[nd->args[1]].op != GBT_OP_CONST ||
        d->nodes[nd->args[2]].op != GBT_OP_CONST)
        return 0;
    k[0] = d->nodes[nd->args[1]].imm, k[1] = d->nodes[nd->args[2]].imm;
    return 1;
}

/* ---- Compares of two sums ------------------------------------------------
 * `p + 8 < p + len + 15`, as a decoder compares an output pointer with its
 * end: both sides are symbolic, so no set describes the conjunct, and the
 * sides' own hulls are the full range when a constant subtracted on the
 * way may wrap (`len - 21 + base`, fine again once base is added). Read as
 * sums of atoms with coefficients, modulo 2^w, the difference D = B - A
 * cancels what the sides share; the integer ranges of A and D (each atom
 * over its hull, coefficients and constant read as signed) then decide
 * the compare when they lie within one window of 2^w: A <u B exactly when
 * D != 0 and A + D < 2^w, A <=u B when A + D < 2^w, A == B when D == 0;
 * signed compares are the unsigned ones with 2^(w-1) added to both. */

typedef struct lin {
    uint32_t atom[GB_IV_LIN_MAX];
    uint64_t coef[GB_IV_LIN_MAX]; /* modulo 2^w */
    unsigned n;
    uint64_t k; /* modulo 2^w */
} lin_t;

static int lin_atom(lin_t *l, uint32_t x, uint64_t c, uint64_t m)
{
    for (unsigned i = 0; i < l->n; i++)
        if (l->atom[i] == x) {
            l->coef[i] = (l->coef[i] + c) & m;
            return 1;
        }
    if (l->n == GB_IV_LIN_MAX)
        return 0;
    l->atom[l->n] = x;
    l->coef[l->n++] = c & m;
    return 1;
}

/* l += c * x (modulo 2^w, m = 2^w - 1); 0 past the budget or the atoms. */
static int lin_of(const gb_dag_t *d, uint32_t x, uint64_t c, uint64_t m, lin_t *l, int *budget)
{
    const gb_node_t *nd = &d->nodes[x];
    if (--*budget < 0)
        return 0;
    uint32_t a = nd->nargs > 0 ? nd->args[0] : 0, b = nd->nargs > 1 ? nd->args[1] : 0;
    int ac = nd->nargs > 1 && d->nodes[a].op == GBT_OP_CONST;
    int bc = nd->nargs > 1 && d->nodes[b].op == GBT_OP_CONST;
    switch (nd->op) {
    case GBT_OP_CONST: l->k = (l->k + c * nd->imm) & m; return 1;
    case GBT_OP_ADD: return lin_of(d, a, c, m, l, budget) && lin_of(d, b, c, m, l, budget);
    case GBT_OP_SUB: return lin_of(d, a, c, m, l, budget) && lin_of(d, b, 0 - c, m, l, budget);
    case GBT_OP_NEG: return lin_of(d, a, 0 - c, m, l, budget);
    case GBT_OP_NOT: /* ~y = -y - 1 */
        l->k = (l->k - c) & m;
        return lin_of(d, a, 0 - c, m, l, budget);
    case GBT_OP_XOR:
        if ((ac || bc) && (d->nodes[ac ? a : b].imm & m) == m) {
            l->k = (l->k - c) & m;
            return lin_of(d, ac ? b : a, 0 - c, m, l, budget);
        }
        break;
    case GBT_OP_MUL:
        if (ac || bc)
            return lin_of(d, ac ? b : a, c * d->nodes[ac ? a : b].imm, m, l, budget);
        break;
    case GBT_OP_SHL:
        if (bc && d->nodes[b].imm < nd->width)
            return lin_of(d, a, c << d->nodes[b].imm, m, l, budget);
        break;
    default: break;
    }
    return lin_atom(l, x, c, m);
}

/* v modulo 2^w read as a signed number. */
static __int128 signed_of(uint64_t v, unsigned w)
{
    if (w == 64)
        return (int64_t)v;
    return (v >> (w - 1)) & 1 ? (__int128)v - ((__int128)1 << w) : (__int128)v;
}

/* The values of l modulo 2^w, plus `add`, as [*lo, *hi] when they lie in
 * one window of 2^w integers (each atom over its hull); 0 when not, or an
 * atom's range is too wide to add up safely. */
static int lin_window(const gb_dag_t *d, const lin_t *l, unsigned w, __int128 add, uint64_t *lo,
                      uint64_t *hi)
{
    const __int128 lim = (__int128)1 << 100;
    __int128 L = signed_of(l->k, w) + add, H = L;
    for (unsigned i = 0; i < l->n; i++) {
        uint64_t al, ah;
        __int128 c = signed_of(l->coef[i], w);
        if (c == 0)
            continue;
        if (!hull(d, l->atom[i], &al, &ah) || (c < 0 ? -c : c) > lim / ((__int128)ah + 1))
            return 0;
        L += c < 0 ? c * ah : c * al;
        H += c < 0 ? c * al : c * ah;
    }
    if ((L >> w) != (H >> w))
        return 0; /* it may wrap: no single window */
    __int128 base = (L >> w) * ((__int128)1 << w); /* a multiple of 2^w; no shift of a negative */
    *lo = (uint64_t)(L - base), *hi = (uint64_t)(H - base);
    return 1;
}

/* The values of node x (64 bits at most) read as a sum of atoms, when
 * they lie in one window of 2^w. */
static int lin_hull(const gb_dag_t *d, uint32_t x, uint64_t *lo, uint64_t *hi)
{
    unsigned w = d->nodes[x].width;
    lin_t l = {0};
    int budget = GB_IV_LIN_BUDGET;
    return w <= 64 && lin_of(d, x, 1, gb_mask(w), &l, &budget) &&
           lin_window(d, &l, w, 0, lo, hi);
}

/* 1 when x is a compare of two non-constant sides that, read with the
 * difference of its sides, never equals `value`. */
static int diff_never(const gb_dag_t *d, uint32_t x, unsigned value)
{
    if (!unnegate(d, &x, &value))
        return 0;
    const gb_node_t *nd = &d->nodes[x];
    if (!gbt_op_is_cmp(nd->op))
        return 0;
    uint32_t A = nd->args[0], B = nd->args[1];
    unsigned w = d->nodes[A].width, op = nd->op;
    if (w > 64 || d->nodes[A].op == GBT_OP_CONST || d->nodes[B].op == GBT_OP_CONST)
        return 0; /* a constant side: learn_head's set and never_in */
    if (op == GBT_OP_NE)
        op = GBT_OP_EQ, value = !value;
    if (op == GBT_OP_UGT || op == GBT_OP_UGE || op == GBT_OP_SGT || op == GBT_OP_SGE) {
        uint32_t t = A;
        A = B, B = t, op = swap_cmp(op);
    }
    int sgn = op == GBT_OP_SLT || op == GBT_OP_SLE;
    __int128 add = sgn ? (__int128)1 << (w - 1) : 0;
    uint64_t m = gb_mask(w), alo, ahi, blo, bhi, dlo, dhi;
    lin_t la = {0}, lb = {0}, ld = {0};
    int ba = GB_IV_LIN_BUDGET, bb = GB_IV_LIN_BUDGET;
    if (!lin_of(d, A, 1, m, &la, &ba) || !lin_of(d, B, 1, m, &lb, &bb))
        return 0;
    ld = lb; /* D = B - A */
    for (unsigned i = 0; i < la.n; i++)
        if (!lin_atom(&ld, la.atom[i], 0 - la.coef[i], m))
            return 0;
    ld.k = (ld.k - la.k) & m;
    int hd = lin_window(d, &ld, w, 0, &dlo, &dhi);
    int ha = lin_window(d, &la, w, add, &alo, &ahi);
    int hb = lin_window(d, &lb, w, add, &blo, &bhi);
    const __int128 top = (__int128)1 << w;
    int always = 0, never = 0; /* the compare's truth over every input */
    switch (op) {
    case GBT_OP_EQ:
        always = hd && dlo == 0 && dhi == 0;
        never = (hd && dlo > 0) || (ha && hb && (ahi < blo || bhi < alo));
        break;
    case GBT_OP_ULT:
    case GBT_OP_SLT:
        always = (hd && ha && dlo > 0 && (__int128)ahi + dhi < top) || (ha && hb && ahi < blo);
        never = (hd && dhi == 0) || (hd && ha && (__int128)alo + dlo >= top) ||
                (ha && hb && alo >= bhi);
        break;
    case GBT_OP_ULE:
    case GBT_OP_SLE:
        always = (hd && ha && (__int128)ahi + dhi < top) || (ha && hb && ahi <= blo);
        never = (hd && ha && (__int128)alo + dlo >= top) || (ha && hb && alo > bhi);
        break;
    default: return 0;
    }
    return value ? never : always;
}

/* Learns the set of one conjunct: node `x` == value. Returns 1 with the
 * variable in *var and its set in *s, 0 when the shape is unsupported,
 * -1 when the conjunct holds for no input at all (a compare of a
 * constant-armed ITE with a value neither arm has). */
static int learn(const gb_dag_t *d, uint32_t x, unsigned value, ivar_t *var, ivset_t *s)
{
    uint32_t y = learn_head(d, x, value, s);
    if (y == GB_NONE)
        return diff_never(d, x, value) ? -1 : 0;
    if (never_in(d, y, s))
        return -1; /* a compare no input can satisfy (a sum of masked fields, say) */
    for (int depth = 0; depth < GB_IV_CHAIN && y != GB_NONE; depth++) {
        unsigned vw;
        uint64_t k[2];
        if (as_var_w(d, y, &var->base, &var->n, &var->be, &vw)) {
            iv_cut(s, 0, gb_mask(vw)); /* a wider OR load is the zero extension */
            s->w = vw;
            return 1;
        }
        if (const_arms(d, y, k)) {
            int in0 = in_set(s, k[0]), in1 = in_set(s, k[1]);
            if (!in0 && !in1)
                return -1;
            if (in0 && in1)
                return 0; /* holds whatever the condition: nothing to learn */
            y = learn_head(d, d->nodes[y].args[0], (unsigned)in0, s); /* the arm it needs */
            continue;
        }
        uint32_t z = pull_back(d, y, s);
        if (z == GB_NONE && never_in(d, y, s)) /* s is unchanged when pull_back gives up */
            return -1;
        y = z;
    }
    return 0;
}

/* ---- Solving ----------------------------------------------------------- */

typedef struct ictx {
    const gb_dag_t *d;
    const gb_conj_t *cj;
    size_t nc;
    ivar_t *vars;     /* distinct variables met */
    size_t nv;
    uint32_t *cvar;   /* per conjunct: index in vars, or GB_NONE */
    const uint64_t *offs; /* the query's input bytes, ascending */
    size_t noffs;
} ictx_t;

static size_t var_index(ictx_t *c, const ivar_t *v)
{
    for (size_t i = 0; i < c->nv; i++)
        if (c->vars[i].base == v->base && c->vars[i].n == v->n && c->vars[i].be == v->be)
            return i;
    ivar_t *nv = &c->vars[c->nv];
    *nv = *v;
    iv_full(&nv->all, 8u * v->n);
    iv_full(&nv->hard, 8u * v->n);
    return c->nv++;
}

/* Learns every conjunct; returns the index of a variable whose hard set is
 * empty, or GB_NONE. Fills c->cvar; *never is a hard conjunct that holds
 * for no input, or GB_NONE. */
static size_t learn_all(ictx_t *c, size_t *never)
{
    size_t empty = GB_NONE;
    *never = GB_NONE;
    for (size_t i = 0; i < c->nc; i++) {
        ivar_t v;
        ivset_t s;
        c->cvar[i] = GB_NONE;
        int l = learn(c->d, c->cj[i].node, c->cj[i].value, &v, &s);
        if (l < 0 && !c->cj[i].soft && *never == GB_NONE)
            *never = i;
        if (l <= 0)
            continue;
        size_t k = var_index(c, &v);
        c->cvar[i] = (uint32_t)k;
        iv_intersect(&c->vars[k].all, &s);
        if (!c->cj[i].soft) {
            iv_intersect(&c->vars[k].hard, &s);
            if (c->vars[k].hard.n == 0 && empty == GB_NONE)
                empty = k;
        }
    }
    return empty;
}

static uint64_t var_value(const ivar_t *v, const uint8_t *in, size_t len)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < v->n; i++) {
        uint64_t off = v->base + i;
        uint64_t b = gbt_input_byte(in, len, off);
        x |= b << (8 * (v->be ? v->n - 1 - i : i));
    }
    return x;
}

/* Candidate values for one variable: its current value if allowed, then
 * interval boundaries (first, last, second interval), then a midpoint.
 * The input's length (docs/trace-format.md) gets the lengths nearest the
 * current one instead, as Z3 gets its length preferences: an upper bound
 * such as 2^24 - 1 would make a 1 MiB input for `off + n <= L`. */
static unsigned candidates(const ivar_t *v, uint64_t cur, uint64_t *out)
{
    const ivset_t *s = v->all.n ? &v->all : &v->hard;
    uint64_t c[GB_IV_CANDS + 8];
    unsigned n = 0, m = 0;
    if (in_set(s, cur))
        c[n++] = cur;
    if (s->n && gbt_is_len_offset(v->base)) {
        for (unsigned i = 0; i < s->n; i++)
            if (s->v[i].hi > cur) {
                c[n++] = s->v[i].lo > cur ? s->v[i].lo : cur + 1; /* the next longer */
                break;
            }
        for (unsigned i = s->n; i-- > 0;)
            if (s->v[i].lo < cur) {
                c[n++] = s->v[i].hi < cur ? s->v[i].hi : cur - 1; /* the next shorter */
                break;
            }
        for (unsigned i = 0; i < s->n && i < 4; i++)
            c[n++] = s->v[i].lo;
    } else if (s->n) {
        const iv_t *f = &s->v[0], *l = &s->v[s->n - 1];
        c[n++] = f->lo, c[n++] = f->hi, c[n++] = l->lo, c[n++] = l->hi;
        if (s->n > 2)
            c[n++] = s->v[1].lo, c[n++] = s->v[1].hi;
        c[n++] = f->lo + (f->hi - f->lo) / 2;
    }
    for (unsigned i = 0; i < n && m < GB_IV_CANDS; i++) {
        int dup = 0;
        for (unsigned k = 0; k < m; k++)
            dup |= out[k] == c[i];
        if (!dup)
            out[m++] = c[i];
    }
    return m;
}

static size_t off_pos(const ictx_t *c, uint64_t off)
{
    return gb_lower_u64(c->offs, c->noffs, off);
}

static void put_var(const ictx_t *c, const ivar_t *v, uint64_t x, uint8_t *vals)
{
    for (unsigned i = 0; i < v->n; i++) {
        uint64_t off = v->base + i;
        size_t p = off_pos(c, off);
        if (p < c->noffs && c->offs[p] == off)
            vals[p] = (uint8_t)(x >> (8 * (v->be ? v->n - 1 - i : i)));
    }
}

/* Concrete evaluation of the whole query: the reachable nodes in
 * topological order with their arguments' positions resolved once. */
typedef struct evalr {
    uint32_t *list;
    size_t n;
    uint32_t *apos; /* 3 per node */
    uint64_t *val;
} evalr_t;

static int eval_init(evalr_t *ev, const ictx_t *c)
{
    memset(ev, 0, sizeof *ev);
    uint32_t *roots = gb_malloc(c->nc * sizeof *roots);
    if (!roots)
        return -1;
    for (size_t i = 0; i < c->nc; i++)
        roots[i] = c->cj[i].node;
    ev->n = gb_dag_reach(c->d, roots, c->nc, &ev->list);
    gb_free(roots);
    if (ev->n == (size_t)-1)
        return -1;
    ev->apos = gb_malloc((3 * ev->n + 1) * sizeof *ev->apos);
    ev->val = gb_malloc((ev->n + 1) * sizeof *ev->val);
    if (!ev->apos || !ev->val)
        return -1;
    for (size_t i = 0; i < ev->n; i++) {
        const gb_node_t *x = &c->d->nodes[ev->list[i]];
        if (x->op > GBT_OP_ITE)
            return 1; /* an operator gb_expr_apply does not know: leave it to Z3 */
        for (unsigned k = 0; k < 3; k++)
            ev->apos[3 * i + k] = k < x->nargs ? (uint32_t)gb_dag_pos(ev->list, i, x->args[k]) : 0;
        if (x->op == GBT_OP_INPUT) { /* position among the query's bytes, or GB_NONE */
            size_t p = off_pos(c, x->imm);
            ev->apos[3 * i] = p < c->noffs && c->offs[p] == x->imm ? (uint32_t)p : GB_NONE;
        }
    }
    return 0;
}

static void eval_fini(evalr_t *ev)
{
    gb_free(ev->list);
    gb_free(ev->apos);
    gb_free(ev->val);
}

/* Evaluates the query with its bytes set to vals: 2 if every conjunct
 * holds, 1 if every hard one does (*broken = soft ones that do not), 0 if
 * a hard one fails. */
static void eval_nodes(evalr_t *ev, const ictx_t *c, const uint8_t *vals)
{
    const gb_dag_t *d = c->d;
    for (size_t i = 0; i < ev->n; i++) {
        const gb_node_t *x = &d->nodes[ev->list[i]];
        if (x->op == GBT_OP_INPUT) {
            ev->val[i] = ev->apos[3 * i] != GB_NONE ? vals[ev->apos[3 * i]] : 0;
            continue;
        }
        uint64_t a[3] = {0, 0, 0};
        for (unsigned k = 0; k < x->nargs; k++)
            a[k] = ev->val[ev->apos[3 * i + k]];
        unsigned aw0 = x->nargs > 0 ? d->nodes[x->args[0]].width : 0;
        unsigned aw1 = x->nargs > 1 ? d->nodes[x->args[1]].width : 0;
        ev->val[i] = gb_expr_apply(x->op, x->width, aw0, aw1, a, x->imm);
    }
}

/* Conjunct i's value after eval_nodes. */
static int conj_holds(const evalr_t *ev, const ictx_t *c, size_t i)
{
    return (ev->val[gb_dag_pos(ev->list, ev->n, c->cj[i].node)] & 1) == c->cj[i].value;
}

static int eval_holds(evalr_t *ev, const ictx_t *c, const uint8_t *vals, size_t *broken)
{
    eval_nodes(ev, c, vals);
    *broken = 0;
    for (size_t i = 0; i < c->nc; i++) {
        if (conj_holds(ev, c, i))
            continue;
        if (!c->cj[i].soft)
            return 0;
        ++*broken;
    }
    return *broken ? 1 : 2;
}

/* ---- Inverting the flipped condition ---------------------------------- */

/* The value node x had when ev was last evaluated (x must be in ev). */
static uint64_t ev_val(const evalr_t *ev, uint32_t x)
{
    return ev->val[gb_dag_pos(ev->list, ev->n, x)];
}

/* The inverse of an odd k modulo 2^64 (Newton's iteration doubles the
 * correct low bits each step: 3, 6, 12, 24, 48, 96). */
static uint64_t odd_inverse(uint64_t k)
{
    uint64_t x = k;
    for (int i = 0; i < 5; i++)
        x *= 2 - k * x;
    return x;
}

/* The operand an invertible operator's value comes from (invert_step
 * knows how to push a value into it), or GB_NONE. */
static uint32_t chain_next(const gb_dag_t *d, uint32_t x)
{
    const gb_node_t *nd = &d->nodes[x];
    int ac = nd->nargs == 2 && d->nodes[nd->args[0]].op == GBT_OP_CONST;
    int bc = nd->nargs == 2 && d->nodes[nd->args[1]].op == GBT_OP_CONST;
    switch (nd->op) {
    case GBT_OP_ZEXT: case GBT_OP_SEXT: case GBT_OP_NOT: case GBT_OP_NEG: case GBT_OP_EXTRACT:
        return nd->args[0];
    case GBT_OP_SHL: case GBT_OP_LSHR: return bc && !ac ? nd->args[0] : GB_NONE;
    case GBT_OP_ADD: case GBT_OP_SUB: case GBT_OP_XOR: case GBT_OP_AND: case GBT_OP_OR:
    case GBT_OP_MUL: case GBT_OP_CONCAT:
        return ac == bc ? GB_NONE : nd->args[bc ? 0 : 1];
    default: return GB_NONE;
    }
}

/* One step down a chain: the value operand `*y` of node x must take so
 * that x takes v, keeping the operand's other bits at their current
 * values (ev: the parent's). Returns 0 when none exists or the shape is
 * not invertible. */
static int invert_step(const gb_dag_t *d, const evalr_t *ev, uint32_t x, uint64_t *v, uint32_t *y)
{
    const gb_node_t *nd = &d->nodes[x];
    uint32_t a = nd->nargs > 0 ? nd->args[0] : 0, b = nd->nargs > 1 ? nd->args[1] : 0;
    int ac = nd->nargs > 1 && d->nodes[a].op == GBT_OP_CONST;
    int bc = nd->nargs > 1 && d->nodes[b].op == GBT_OP_CONST;
    uint64_t m = gb_mask(nd->width), k = bc ? d->nodes[b].imm : ac ? d->nodes[a].imm : 0;
    unsigned wa = nd->nargs ? d->nodes[a].width : 0;
    if ((*y = chain_next(d, x)) == GB_NONE)
        return 0;
    uint64_t cur = ev_val(ev, *y);
    switch (nd->op) {
    case GBT_OP_ZEXT: return *v <= gb_mask(wa);
    case GBT_OP_SEXT: {
        uint64_t low = *v & gb_mask(wa), sign = (low >> (wa - 1)) & 1;
        if (*v != (sign ? (low | (m & ~gb_mask(wa))) : low))
            return 0;
        *v = low;
        return 1;
    }
    case GBT_OP_NOT: *v = ~*v & m; return 1;
    case GBT_OP_NEG: *v = (0 - *v) & m; return 1;
    case GBT_OP_ADD: *v = (*v - k) & m; return 1;
    case GBT_OP_SUB: *v = (bc ? *v + k : k - *v) & m; return 1;
    case GBT_OP_XOR: *v = (*v ^ k) & m; return 1;
    case GBT_OP_AND:
        if (*v & ~k)
            return 0;
        *v = (cur & ~k) | *v;
        return 1;
    case GBT_OP_OR:
        if ((*v & k) != k)
            return 0;
        *v = (*v & ~k) | (cur & k);
        return 1;
    case GBT_OP_SHL:
        if (!bc || k >= nd->width || (*v & gb_mask((unsigned)k)))
            return 0;
        *v = (*v >> k) | (cur & ~(m >> k));
        return 1;
    case GBT_OP_LSHR:
        if (!bc || k >= nd->width || *v > (m >> k))
            return 0;
        *v = (*v << k) | (cur & gb_mask((unsigned)k));
        return 1;
    case GBT_OP_MUL: {
        if (!k)
            return 0;
        unsigned t = (unsigned)__builtin_ctzll(k);
        uint64_t odd = k >> t, hi = t ? ~(m >> t) & m : 0;
        if (*v & gb_mask(t))
            return 0; /* y * 2^t * odd has t low zero bits */
        uint64_t z = ((*v >> t) | ((cur * odd) & hi)) & m;
        *v = (z * odd_inverse(odd)) & m;
        return 1;
    }
    case GBT_OP_EXTRACT:
        *v = (cur & ~(gb_mask(nd->width) << nd->imm)) | (*v << nd->imm);
        *v &= gb_mask(wa);
        return 1;
    case GBT_OP_CONCAT: { /* one side constant */
        unsigned wl = d->nodes[b].width;
        if (ac == bc)
            return 0;
        if (ac && (*v >> wl) != d->nodes[a].imm)
            return 0;
        if (bc && (*v & gb_mask(wl)) != d->nodes[b].imm)
            return 0;
        *y = ac ? b : a;
        *v = ac ? *v & gb_mask(wl) : *v >> wl;
        return 1;
    }
    default: return 0;
    }
}

/* Flip candidates: (variable, value) pairs that may make the flipped
 * condition take its new value, each tried alone first. */

typedef struct flips {
    size_t var[GB_IV_FLIPS];
    uint64_t val[GB_IV_FLIPS];
    unsigned n, splits;
} flips_t;

static void add_flip(flips_t *f, size_t var, uint64_t v)
{
    for (unsigned i = 0; i < f->n; i++)
        if (f->var[i] == var && f->val[i] == v)
            return;
    if (f->n < GB_IV_FLIPS) {
        f->var[f->n] = var;
        f->val[f->n++] = v;
    }
}

static void flip_targets(ictx_t *c, const evalr_t *ev, uint32_t y, const ivset_t *s, int depth,
                         flips_t *f);

/* Pushes the value v of node x down to a variable: through invertible
 * operators with a constant operand, and through ADD/SUB/XOR of two input
 * expressions by solving for one side with the other at its current value
 * (both sides are tried). Values are only candidates: they are checked. */
static void push_down(ictx_t *c, const evalr_t *ev, uint32_t x, uint64_t v, int depth, flips_t *f)
{
    const gb_dag_t *d = c->d;
    const gb_node_t *nd = &d->nodes[x];
    ivar_t var;
    unsigned vw;
    uint32_t y;
    if (f->n >= GB_IV_FLIPS || depth > GB_IV_CHAIN)
        return;
    if (as_var_w(d, x, &var.base, &var.n, &var.be, &vw)) {
        if (v <= gb_mask(vw))
            add_flip(f, var_index(c, &var), v);
        return;
    }
    uint64_t k[2];
    if (const_arms(d, x, k)) { /* the arm that gives v: its condition's targets */
        ivset_t s;
        if ((v == k[0]) != (v == k[1]) &&
            (y = learn_head(d, nd->args[0], v == k[0], &s)) != GB_NONE)
            flip_targets(c, ev, y, &s, depth + 1, f);
        return;
    }
    if (chain_next(d, x) != GB_NONE) {
        if (invert_step(d, ev, x, &v, &y))
            push_down(c, ev, y, v, depth + 1, f);
        return;
    }
    if (nd->nargs != 2 || (nd->op != GBT_OP_ADD && nd->op != GBT_OP_SUB && nd->op != GBT_OP_XOR) ||
        f->splits >= GB_IV_SPLITS)
        return;
    f->splits++;
    uint64_t m = gb_mask(nd->width), a0 = ev_val(ev, nd->args[0]), a1 = ev_val(ev, nd->args[1]);
    uint64_t v0 = nd->op == GBT_OP_ADD ? v - a1 : nd->op == GBT_OP_SUB ? v + a1 : v ^ a1;
    uint64_t v1 = nd->op == GBT_OP_ADD ? v - a0 : nd->op == GBT_OP_SUB ? a0 - v : v ^ a0;
    push_down(c, ev, nd->args[0], v0 & m, depth + 1, f);
    push_down(c, ev, nd->args[1], v1 & m, depth + 1, f);
}

/* A few values of s for node y (next to its current value first, then
 * interval boundaries), each pushed down to a variable. */
static void flip_targets(ictx_t *c, const evalr_t *ev, uint32_t y, const ivset_t *s, int depth,
                         flips_t *f)
{
    uint64_t cur = ev_val(ev, y), m = gb_mask(s->w), t[GB_IV_CANDS];
    unsigned nt = 0;
    if (in_set(s, (cur + 1) & m))
        t[nt++] = (cur + 1) & m;
    if (in_set(s, (cur - 1) & m))
        t[nt++] = (cur - 1) & m;
    for (unsigned i = 0; i < s->n && nt + 2 <= GB_IV_CANDS; i++) {
        if (i == 2 && s->n > 3)
            i = s->n - 1; /* first two intervals and the last */
        t[nt++] = s->v[i].lo;
        t[nt++] = s->v[i].hi;
    }
    for (unsigned i = 0; i < nt; i++)
        push_down(c, ev, y, t[i], depth, f);
}

/* Flip candidates for the last conjunct (the flipped condition): a
 * comparison with a constant, or of two input expressions, one side then
 * the other compared with the other's current value. */
static void flip_cands(ictx_t *c, const evalr_t *ev, flips_t *f)
{
    const gb_dag_t *d = c->d;
    const gb_conj_t *last = &c->cj[c->nc - 1];
    ivset_t s;
    uint32_t y = learn_head(d, last->node, last->value, &s);
    if (y != GB_NONE) {
        flip_targets(c, ev, y, &s, 0, f);
        return;
    }
    uint32_t x = last->node;
    unsigned value = last->value;
    if (!unnegate(d, &x, &value))
        return;
    const gb_node_t *nd = &d->nodes[x];
    if (!gbt_op_is_cmp(nd->op))
        return;
    for (int side = 0; side < 2; side++) {
        uint32_t me = nd->args[side], other = nd->args[!side];
        iv_cmp(side ? swap_cmp(nd->op) : nd->op, ev_val(ev, other), d->nodes[me].width, value, &s);
        flip_targets(c, ev, me, &s, 0, f);
    }
}

/* Rounds of candidates: first each flip candidate alone (the other
 * variables at their first candidate, the parent's value when allowed);
 * then in round r every variable takes its r-th candidate (or its last).
 * Unconstrained bytes keep the parent's values. Returns 2 with vals
 * satisfying every conjunct, or 1 with vals satisfying the hard ones
 * (*broken soft ones fail: an optimistic model), 0 if nothing held. */
static int try_rounds(ictx_t *c, evalr_t *ev, uint64_t (*cand)[GB_IV_CANDS], const unsigned *nc,
                      const flips_t *f, const uint8_t *in, size_t len, uint8_t *vals,
                      size_t *broken)
{
    unsigned rounds = 0;
    for (size_t k = 0; k < c->nv; k++)
        rounds = nc[k] > rounds ? nc[k] : rounds;
    uint8_t *best = gb_malloc(c->noffs ? c->noffs : 1);
    size_t best_broken = 0;
    int got = 0, r = 0;
    if (!best)
        return -1;
    for (unsigned round = 0; round < f->n + rounds && r < 2; round++) {
        for (size_t i = 0; i < c->noffs; i++)
            vals[i] = gbt_input_byte(in, len, c->offs[i]);
        for (size_t k = 0; k < c->nv; k++) {
            unsigned p = round < f->n ? 0 : round - f->n;
            if (nc[k])
                put_var(c, &c->vars[k], cand[k][p < nc[k] ? p : nc[k] - 1], vals);
        }
        if (round < f->n)
            put_var(c, &c->vars[f->var[round]], f->val[round], vals);
        size_t br;
        r = eval_holds(ev, c, vals, &br);
        if (r == 1 && (!got || br < best_broken)) {
            memcpy(best, vals, c->noffs);
            best_broken = br;
            got = 1;
        }
    }
    if (r < 2 && got) {
        memcpy(vals, best, c->noffs);
        *broken = best_broken;
        r = 1;
    } else if (r < 2)
        r = 0;
    gb_free(best);
    return r;
}

/* Flip candidates, candidates for every variable, then try_rounds.
 * Returns 2, 1 (optimistic) or 0 as try_rounds, -1 out of memory. */
static int try_candidates(ictx_t *c, evalr_t *ev, const uint8_t *in, size_t len, uint8_t *vals,
                          size_t *broken)
{
    uint64_t (*cand)[GB_IV_CANDS] = gb_malloc((c->nc + GB_IV_FLIPS + 1) * sizeof *cand);
    unsigned *nc = gb_malloc((c->nc + GB_IV_FLIPS + 1) * sizeof *nc);
    flips_t f = {.n = 0, .splits = 0};
    int r = -1;
    if (!cand || !nc)
        goto done;
    for (size_t i = 0; i < c->noffs; i++) /* the parent's values, for inversion */
        vals[i] = gbt_input_byte(in, len, c->offs[i]);
    size_t br;
    eval_holds(ev, c, vals, &br);
    flip_cands(c, ev, &f);
    for (size_t k = 0; k < c->nv; k++)
        nc[k] = candidates(&c->vars[k], var_value(&c->vars[k], in, len), cand[k]);
    r = try_rounds(c, ev, cand, nc, &f, in, len, vals, broken);
done:
    gb_free(cand);
    gb_free(nc);
    return r;
}

/* ---- Enumeration of one- and two-byte queries ------------------------- */

/* Which of the query's (at most two) bytes each conjunct reads: bit p for
 * offs[p], from the nodes in topological order. */
static void conj_masks(const evalr_t *ev, const ictx_t *c, uint8_t *nmask, uint8_t *cmask)
{
    for (size_t i = 0; i < ev->n; i++) {
        const gb_node_t *x = &c->d->nodes[ev->list[i]];
        uint8_t m = 0;
        if (x->op == GBT_OP_INPUT)
            m = ev->apos[3 * i] != GB_NONE ? (uint8_t)(1u << ev->apos[3 * i]) : 0;
        else
            for (unsigned k = 0; k < x->nargs; k++)
                m |= nmask[ev->apos[3 * i + k]];
        nmask[i] = m;
    }
    for (size_t i = 0; i < c->nc; i++)
        cmask[i] = nmask[gb_dag_pos(ev->list, ev->n, c->cj[i].node)];
}

/* The conjuncts with read mask `m` that fail after eval_nodes: 1 if a
 * hard one does, else 0 with the soft ones counted in *soft. */
static int fails(const evalr_t *ev, const ictx_t *c, const uint8_t *cmask, uint8_t m,
                 unsigned *soft)
{
    *soft = 0;
    for (size_t i = 0; i < c->nc; i++) {
        if (cmask[i] != m || conj_holds(ev, c, i))
            continue;
        if (!c->cj[i].soft)
            return 1;
        ++*soft;
    }
    return 0;
}

static void conflict_of(const ictx_t *c, const uint8_t *cmask, uint8_t m, uint32_t *conf,
                        size_t *nconf)
{
    *nconf = 0;
    for (size_t i = 0; i < c->nc; i++)
        if (!c->cj[i].soft && (cmask[i] & m) && (m == 3 || cmask[i] == m))
            conf[(*nconf)++] = (uint32_t)i;
}

/* A query over one or two input bytes (not the length) is decided by
 * trying their values: each byte's 256 against the conjuncts that read it
 * alone, then the pairs left against the rest, within GB_IV_ENUM_WORK node
 * evaluations. Returns 2 (every conjunct holds), 1 (the hard ones; *broken
 * soft ones fail) with vals, 3 for UNSAT with the conflict in conf, 0 when
 * too big, -1 out of memory. */
static int enumerate(const ictx_t *c, evalr_t *ev, const uint8_t *in, size_t len, uint8_t *vals,
                     size_t *broken, uint32_t *conf, size_t *nconf)
{
    size_t nb = c->noffs;
    if (nb == 0 || nb > 2 || (uint64_t)ev->n * 256u * nb > GB_IV_ENUM_WORK)
        return 0;
    for (size_t p = 0; p < nb; p++)
        if (gbt_is_len_offset(c->offs[p]))
            return 0; /* the length has preferences Z3 keeps */
    uint8_t *nmask = gb_malloc(ev->n + 1), *cmask = gb_malloc(c->nc + 1);
    uint16_t(*ok)[256] = gb_malloc(2 * sizeof *ok); /* per byte: broken softs + 1, or 0 */
    unsigned nok[2] = {0, 0}, soft;
    int r = -1;
    if (!nmask || !cmask || !ok)
        goto done;
    conj_masks(ev, c, nmask, cmask);
    uint8_t base[2];
    for (size_t p = 0; p < nb; p++)
        base[p] = (uint8_t)gbt_input_byte(in, len, c->offs[p]);
    eval_nodes(ev, c, base);
    unsigned soft0 = 0;
    if (fails(ev, c, cmask, 0, &soft0)) { /* a constant conjunct: no byte helps */
        r = 0;
        goto done;
    }
    for (size_t p = 0; p < nb; p++) {
        uint8_t v[2] = {base[0], nb > 1 ? base[1] : 0};
        for (unsigned x = 0; x < 256; x++) {
            v[p] = (uint8_t)x;
            eval_nodes(ev, c, v);
            ok[p][x] = fails(ev, c, cmask, (uint8_t)(1u << p), &soft) ? 0
                                                                   : (uint16_t)(soft < 65534 ? soft + 1 : 65535);
            nok[p] += ok[p][x] != 0;
        }
        if (!nok[p]) {
            conflict_of(c, cmask, (uint8_t)(1u << p), conf, nconf);
            r = 3;
            goto done;
        }
    }
    if (nb == 2 && (uint64_t)nok[0] * nok[1] * ev->n > GB_IV_ENUM_WORK) {
        r = 0;
        goto done;
    }
    unsigned best = UINT_MAX;
    for (unsigned x = 0; x < 256 && best; x++) {
        if (!ok[0][x])
            continue;
        for (unsigned y = 0; y < (nb > 1 ? 256u : 1u) && best; y++) {
            unsigned b = soft0 + ok[0][x] - 1;
            uint8_t v[2] = {(uint8_t)x, (uint8_t)y};
            if (nb > 1) {
                if (!ok[1][y])
                    continue;
                eval_nodes(ev, c, v);
                if (fails(ev, c, cmask, 3, &soft))
                    continue;
                b += ok[1][y] - 1 + soft;
            }
            if (b < best) {
                best = b;
                memcpy(vals, v, nb);
            }
        }
    }
    if (best == UINT_MAX) {
        conflict_of(c, cmask, 3, conf, nconf);
        r = 3;
    } else {
        *broken = best;
        r = best ? 1 : 2;
    }
done:
    gb_free(nmask);
    gb_free(cmask);
    gb_free(ok);
    return r;
}

/* A query over more bytes: each byte alone through its 256 values, the
 * others at the parent's, within GB_IV_SWEEP_WORK node evaluations. Not
 * complete, so it only finds models: returns 2 or 1 (*broken) as
 * try_rounds does, 0 when none held or the query is too big, -1 out of
 * memory. */
static int sweep(const ictx_t *c, evalr_t *ev, const uint8_t *in, size_t len, uint8_t *vals,
                 size_t *broken)
{
    if ((uint64_t)ev->n * 256u * c->noffs > GB_IV_SWEEP_WORK)
        return 0;
    uint8_t *best = gb_malloc(c->noffs ? c->noffs : 1);
    size_t best_broken = 0, br;
    int got = 0;
    if (!best)
        return -1;
    for (size_t i = 0; i < c->noffs; i++)
        vals[i] = gbt_input_byte(in, len, c->offs[i]);
    for (size_t p = 0; p < c->noffs; p++) {
        uint8_t cur = vals[p];
        if (gbt_is_len_offset(c->offs[p]))
            continue; /* the length has preferences Z3 keeps */
        for (unsigned x = 0; x < 256; x++) {
            if (x == cur)
                continue;
            vals[p] = (uint8_t)x;
            int h = eval_holds(ev, c, vals, &br);
            if (h == 2) {
                gb_free(best);
                return 2;
            }
            if (h == 1 && (!got || br < best_broken)) {
                memcpy(best, vals, c->noffs);
                best_broken = br;
                got = 1;
            }
        }
        vals[p] = cur;
    }
    if (got) {
        memcpy(vals, best, c->noffs);
        *broken = best_broken;
    }
    gb_free(best);
    return got;
}

int gb_ival_solve(const gb_trace_t *t, const gb_conj_t *cj, size_t nc, const uint64_t *offs,
                  size_t noffs, const uint8_t *in, size_t len, gb_qstatus_t *st, uint8_t *vals,
                  uint32_t *conf, size_t *nconf, size_t *broken, int *enumerated)
{
    ictx_t c = {&t->dag, cj, nc, gb_malloc((nc + GB_IV_FLIPS + 1) * sizeof(ivar_t)), 0,
                gb_malloc((nc + 1) * sizeof(uint32_t)), offs, noffs};
    int r = 0;
    *st = GB_Q_SKIP;
    *nconf = 0;
    *broken = 0;
    *enumerated = 0;
    if (!c.vars || !c.cvar) {
        r = -1;
        goto done;
    }
    size_t never, empty = learn_all(&c, &never);
    if (never != GB_NONE) {
        conf[(*nconf)++] = (uint32_t)never;
        *st = GB_Q_UNSAT;
    } else if (empty != GB_NONE) {
        for (size_t i = 0; i < nc; i++)
            if (c.cvar[i] == empty && !cj[i].soft)
                conf[(*nconf)++] = (uint32_t)i;
        *st = GB_Q_UNSAT;
    } else if (nc) {
        evalr_t ev;
        int init = eval_init(&ev, &c);
        r = init == 0 ? try_candidates(&c, &ev, in, len, vals, broken) : init < 0 ? -1 : 0;
        if (init == 0 && (r == 0 || r == 1)) { /* not every conjunct held: try all values */
            uint8_t *ev_vals = gb_malloc(noffs ? noffs : 1);
            size_t eb = 0;
            int x = ev_vals ? enumerate(&c, &ev, in, len, ev_vals, &eb, conf, nconf) : -1;
            if (x == 3 || x == 2 || (x == 1 && (r == 0 || eb < *broken))) {
                if (x != 3)
                    memcpy(vals, ev_vals, noffs);
                *broken = x == 3 ? 0 : eb;
                r = x == 3 ? 0 : x;
                *st = x == 3 ? GB_Q_UNSAT : GB_Q_SAT;
                *enumerated = 1;
            } else if (x < 0)
                r = -1;
            else if (x == 0 && r == 0 && (r = sweep(&c, &ev, in, len, vals, broken)) > 0)
                *enumerated = 2;
            gb_free(ev_vals);
        }
        eval_fini(&ev);
        if (r >= 1)
            *st = GB_Q_SAT;
        r = r < 0 ? -1 : 0;
    }
done:
    gb_free(c.vars);
    gb_free(c.cvar);
    return r;
}
