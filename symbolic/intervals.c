/* SPDX-License-Identifier: Apache-2.0 */
/* The multi-interval prefilter (PARTI): constraints that are one input
 * variable under casts and arithmetic with constants, compared with a
 * constant, give each variable a set of values; an empty set refutes the
 * query, otherwise values picked inside the sets are checked by concrete
 * evaluation of the whole query. Anything else: unknown. */
#include <stdlib.h>
#include <string.h>

#include "symbolic_int.h"

#define IV_MAX 16   /* intervals kept per set; more are merged (over-approximation) */
#define IV_TMP 64   /* room while an operation runs */
#define IV_CHAIN 32 /* operators between a comparison and its variable */
#define IV_CANDS 8  /* values tried per variable */

typedef struct iv {
    uint64_t lo, hi;
} iv_t;

/* A set of w-bit values: sorted, disjoint, non-adjacent intervals. */
typedef struct ivset {
    iv_t v[IV_TMP];
    unsigned n, w;
} ivset_t;

static int cmp_iv(const void *a, const void *b)
{
    const iv_t *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Sorts and merges; past IV_MAX intervals, closes the smallest gaps, which
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
    while (s->n > IV_MAX) {
        unsigned best = 1;
        for (unsigned i = 2; i < s->n; i++)
            if (s->v[i].lo - s->v[i - 1].hi < s->v[best].lo - s->v[best - 1].hi)
                best = i;
        s->v[best - 1].hi = s->v[best].hi;
        memmove(&s->v[best], &s->v[best + 1], (s->n - best - 1) * sizeof *s->v);
        s->n--;
    }
}

static void iv_push(ivset_t *s, uint64_t lo, uint64_t hi)
{
    if (s->n < IV_TMP)
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

/* Recognises x as a variable: an INPUT, or a CONCAT of consecutive INPUTs
 * (ascending offsets from the high part: big-endian; descending: little). */
static int as_var(const gb_dag_t *d, uint32_t x, uint64_t *base, uint8_t *n, uint8_t *be)
{
    const gb_node_t *nd = &d->nodes[x];
    if (nd->op == GBT_OP_INPUT) {
        *base = nd->imm, *n = 1, *be = 0;
        return 1;
    }
    if (nd->op != GBT_OP_CONCAT || nd->width % 8 || nd->width > 64)
        return 0;
    uint64_t off[8];
    unsigned k = 0;
    uint32_t stack[16];
    unsigned sp = 0;
    stack[sp++] = x;
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
    int asc = 1, desc = 1;
    for (unsigned i = 1; i < k; i++) {
        asc &= off[i] == off[i - 1] + 1;
        desc &= off[i] + 1 == off[i - 1];
    }
    if (k * 8 != nd->width || (!asc && !desc))
        return 0;
    *n = (uint8_t)k, *be = (uint8_t)asc, *base = asc ? off[0] : off[k - 1];
    return 1;
}

/* Forward hull [0, *hi] of a chain node's value; 0 when unknown. */
static int hull(const gb_dag_t *d, uint32_t x, uint64_t *lo, uint64_t *hi, int depth)
{
    const gb_node_t *nd = &d->nodes[x];
    uint64_t m = gb_mask(nd->width), base;
    uint8_t n, be;
    *lo = 0, *hi = m;
    if (depth > IV_CHAIN || as_var(d, x, &base, &n, &be))
        return 1;
    uint32_t a = nd->nargs > 0 ? nd->args[0] : 0, b = nd->nargs > 1 ? nd->args[1] : 0;
    int bc = nd->nargs > 1 && d->nodes[b].op == GBT_OP_CONST;
    uint64_t k = bc ? d->nodes[b].imm : 0, l, h;
    if (nd->op == GBT_OP_ZEXT || nd->op == GBT_OP_SEXT || (bc && nd->op >= GBT_OP_ADD &&
                                                          nd->op <= GBT_OP_MUL)) {
        hull(d, a, &l, &h, depth + 1);
        if (nd->op == GBT_OP_ZEXT || (nd->op == GBT_OP_SEXT &&
                                       h < (1ull << (d->nodes[a].width - 1))))
            *lo = l, *hi = h;
        else if (nd->op == GBT_OP_ADD && h <= m - k)
            *lo = l + k, *hi = h + k;
        else if (nd->op == GBT_OP_SUB && l >= k)
            *lo = l - k, *hi = h - k;
        else if (nd->op == GBT_OP_MUL && k && h <= m / k)
            *lo = l * k, *hi = h * k;
    }
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
    case GBT_OP_MUL: {
        uint32_t y = bc ? a : b;
        uint64_t k = (ac || bc) ? d->nodes[bc ? b : a].imm : 0, lo, hi;
        if (!k || !hull(d, y, &lo, &hi, 0) || hi > m / k)
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

/* Learns the set of one conjunct: node `x` == value. Returns 1 with the
 * variable in *var and its set in *s, or 0 when the shape is unsupported. */
static int learn(const gb_dag_t *d, uint32_t x, unsigned value, ivar_t *var, ivset_t *s)
{
    while (d->nodes[x].op == GBT_OP_NOT && d->nodes[x].width == 1) {
        x = d->nodes[x].args[0];
        value = !value;
    }
    const gb_node_t *nd = &d->nodes[x];
    if (!gbt_op_is_cmp(nd->op))
        return 0;
    int lc = d->nodes[nd->args[0]].op == GBT_OP_CONST;
    int rc = d->nodes[nd->args[1]].op == GBT_OP_CONST;
    if (lc == rc)
        return 0;
    uint32_t y = lc ? nd->args[1] : nd->args[0];
    iv_cmp(lc ? swap_cmp(nd->op) : nd->op, d->nodes[lc ? nd->args[0] : nd->args[1]].imm,
           d->nodes[y].width, value, s);
    for (int depth = 0; depth < IV_CHAIN && y != GB_NONE; depth++) {
        if (as_var(d, y, &var->base, &var->n, &var->be))
            return 1;
        y = pull_back(d, y, s);
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
 * empty, or GB_NONE. Fills c->cvar. */
static size_t learn_all(ictx_t *c)
{
    size_t empty = GB_NONE;
    for (size_t i = 0; i < c->nc; i++) {
        ivar_t v;
        ivset_t s;
        c->cvar[i] = GB_NONE;
        if (!learn(c->d, c->cj[i].node, c->cj[i].value, &v, &s))
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

static int in_set(const ivset_t *s, uint64_t x)
{
    for (unsigned i = 0; i < s->n; i++)
        if (x >= s->v[i].lo && x <= s->v[i].hi)
            return 1;
    return 0;
}

/* Candidate values for one variable: its current value if allowed, then
 * interval boundaries (first, last, second interval), then a midpoint. */
static unsigned candidates(const ivar_t *v, uint64_t cur, uint64_t *out)
{
    const ivset_t *s = v->all.n ? &v->all : &v->hard;
    uint64_t c[IV_CANDS + 8];
    unsigned n = 0, m = 0;
    if (in_set(s, cur))
        c[n++] = cur;
    if (s->n) {
        const iv_t *f = &s->v[0], *l = &s->v[s->n - 1];
        c[n++] = f->lo, c[n++] = f->hi, c[n++] = l->lo, c[n++] = l->hi;
        if (s->n > 2)
            c[n++] = s->v[1].lo, c[n++] = s->v[1].hi;
        c[n++] = f->lo + (f->hi - f->lo) / 2;
    }
    for (unsigned i = 0; i < n && m < IV_CANDS; i++) {
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
    size_t p = 0, hi = c->noffs;
    while (p < hi) {
        size_t mid = p + (hi - p) / 2;
        if (c->offs[mid] < off)
            p = mid + 1;
        else
            hi = mid;
    }
    return p;
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

/* 1 if every conjunct holds with the query's bytes set to vals. */
static int eval_holds(evalr_t *ev, const ictx_t *c, const uint8_t *vals)
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
    for (size_t i = 0; i < c->nc; i++)
        if ((ev->val[gb_dag_pos(ev->list, ev->n, c->cj[i].node)] & 1) != c->cj[i].value)
            return 0;
    return 1;
}

/* Tries rounds of candidates: in round r every variable takes its r-th
 * candidate (or its last). Unconstrained bytes keep the parent's values. */
static int try_candidates(ictx_t *c, const uint8_t *in, size_t len, uint8_t *vals)
{
    evalr_t ev = {NULL, 0, NULL, NULL};
    uint64_t (*cand)[IV_CANDS] = gb_malloc((c->nv + 1) * sizeof *cand);
    unsigned *nc = gb_malloc((c->nv + 1) * sizeof *nc), rounds = 0;
    int r = -1;
    if (!cand || !nc || (r = eval_init(&ev, c)) != 0) {
        r = r > 0 ? 0 : -1;
        goto done;
    }
    for (size_t k = 0; k < c->nv; k++) {
        nc[k] = candidates(&c->vars[k], var_value(&c->vars[k], in, len), cand[k]);
        rounds = nc[k] > rounds ? nc[k] : rounds;
    }
    r = 0;
    for (unsigned round = 0; round < rounds && !r; round++) {
        for (size_t i = 0; i < c->noffs; i++)
            vals[i] = gbt_input_byte(in, len, c->offs[i]);
        for (size_t k = 0; k < c->nv; k++)
            if (nc[k])
                put_var(c, &c->vars[k], cand[k][round < nc[k] ? round : nc[k] - 1], vals);
        r = eval_holds(&ev, c, vals);
    }
done:
    eval_fini(&ev);
    gb_free(cand);
    gb_free(nc);
    return r;
}

int gb_ival_solve(const gb_trace_t *t, const gb_conj_t *cj, size_t nc, const uint64_t *offs,
                  size_t noffs, const uint8_t *in, size_t len, gb_qstatus_t *st, uint8_t *vals,
                  uint32_t *conf, size_t *nconf)
{
    ictx_t c = {&t->dag, cj, nc, gb_malloc((nc + 1) * sizeof(ivar_t)), 0,
                gb_malloc((nc + 1) * sizeof(uint32_t)), offs, noffs};
    int r = 0;
    *st = GB_Q_SKIP;
    *nconf = 0;
    if (!c.vars || !c.cvar) {
        r = -1;
        goto done;
    }
    size_t empty = learn_all(&c);
    if (empty != GB_NONE) {
        for (size_t i = 0; i < nc; i++)
            if (c.cvar[i] == empty && !cj[i].soft)
                conf[(*nconf)++] = (uint32_t)i;
        *st = GB_Q_UNSAT;
    } else if (nc && c.cvar[nc - 1] != GB_NONE) {
        /* only when the flipped condition itself has a set to pick from */
        r = try_candidates(&c, in, len, vals);
        if (r == 1)
            *st = GB_Q_SAT;
        r = r < 0 ? -1 : 0;
    }
done:
    gb_free(c.vars);
    gb_free(c.cvar);
    return r;
}
