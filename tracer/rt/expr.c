/* SPDX-License-Identifier: Apache-2.0 */
/* Runtime expression construction: an append-only arena, constant folding
 * and extract/concat/zext folding, so that bytes stored and loaded again
 * come back as the expression that was stored rather than a tower of
 * extracts. Results deeper than the depth cap become concrete (NULL). */
#include <string.h>
#include <sys/mman.h>

#include "gb_bv.h"
#include "rt_int.h"

#define CHUNK_NODES (1u << 20) /* 32 MiB of nodes per arena chunk */

static rt_expr_t *chunk;
static size_t chunk_used = CHUNK_NODES;
static rt_expr_t *inputs_cache[4096]; /* INPUT nodes for the first 4 KiB */

RT_HIDDEN uint64_t rt_mask(unsigned width)
{
    return gb_bv_mask(width);
}

/* A fresh arena chunk (the slow path of alloc_node); 0, or -1 when no
 * memory is left. */
static int new_chunk(void)
{
    void *p = mmap(NULL, CHUNK_NODES * sizeof(rt_expr_t), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    /* First-touch page faults were half of a traced run's time: 2 MiB
     * pages take 512 times fewer (a hint; without THP nothing changes). */
    madvise(p, CHUNK_NODES * sizeof(rt_expr_t), MADV_HUGEPAGE);
    chunk = p;
    chunk_used = 0;
    return 0;
}

static inline rt_expr_t *alloc_node(void)
{
    if (RT_UNLIKELY(rt.nodes >= rt.lim.max_nodes))
        return NULL;
    if (RT_UNLIKELY(chunk_used == CHUNK_NODES) && new_chunk() != 0)
        return NULL;
    rt.nodes++;
    return &chunk[chunk_used++];
}

static unsigned depth_of(const rt_expr_t *e) { return e ? e->depth : 0u; }

/* Every node is made here: about 290,000 times in a traced 64 KiB
 * inflate, so it is inlined into each caller, where the NULL arguments
 * are constants and their tests fold away (callgrind: 78 instructions a
 * call out of line, with a loop over the three arguments). */
static inline __attribute__((always_inline)) rt_expr_t *
mk_at(unsigned op, unsigned width, rt_expr_t *a, rt_expr_t *b, rt_expr_t *c, uint64_t imm,
      unsigned depth)
{
    rt_expr_t *e = depth < rt.lim.max_depth ? alloc_node() : NULL;
    if (RT_UNLIKELY(!e)) {
        rt.concretized++;
        return NULL;
    }
    e->op = (uint8_t)op;
    e->width = (uint8_t)width;
    e->depth = (uint16_t)(depth + 1);
    e->id = 0;
    e->arg[0] = a;
    e->arg[1] = b;
    if (c)
        e->arg[2] = c; /* ITE: no immediate (rt_int.h) */
    else
        e->imm = imm;
    return e;
}

/* depth: the deepest argument's (0 without arguments). */
static inline __attribute__((always_inline)) rt_expr_t *
mk(unsigned op, unsigned width, rt_expr_t *a, rt_expr_t *b, rt_expr_t *c, uint64_t imm)
{
    unsigned da = depth_of(a), db = depth_of(b), dc = depth_of(c);
    unsigned depth = da > db ? da : db;
    return mk_at(op, width, a, b, c, imm, dc > depth ? dc : depth);
}

/* Constants were 43-59% of all nodes. Nodes never change once built (but
 * for the id they get when written, which sharing keeps valid), so one
 * node per (width, value) serves every use: a table for 0..255 at each
 * width, and a direct-mapped cache for other values. */
#define CONST_CACHE_BITS 12
static rt_expr_t *small_consts[64][256];
/* The key is kept beside the pointer: most look-ups miss (addresses), and
 * reading the key from the node, anywhere in the arena, was a cache miss
 * that made rt_const 30% of a traced inflate. */
static struct {
    uint64_t v;
    uint32_t width;
    rt_expr_t *e;
} other_consts[1u << CONST_CACHE_BITS];

RT_HIDDEN rt_expr_t *rt_const(unsigned width, uint64_t v)
{
    v &= rt_mask(width);
    if (width - 1u < 64u && v < 256) {
        rt_expr_t **slot = &small_consts[width - 1][v];
        if (!*slot)
            *slot = mk(GBT_OP_CONST, width, NULL, NULL, NULL, v);
        return *slot;
    }
    uint64_t h = ((v ^ width) * 0x9e3779b97f4a7c15ull) >> (64 - CONST_CACHE_BITS);
    if (other_consts[h].e && other_consts[h].v == v && other_consts[h].width == width)
        return other_consts[h].e;
    rt_expr_t *e = mk(GBT_OP_CONST, width, NULL, NULL, NULL, v);
    if (e) {
        other_consts[h].v = v;
        other_consts[h].width = width;
        other_consts[h].e = e;
    }
    return e;
}

RT_HIDDEN rt_expr_t *rt_input(uint64_t offset)
{
    if (offset < sizeof inputs_cache / sizeof inputs_cache[0]) {
        if (!inputs_cache[offset])
            inputs_cache[offset] = mk(GBT_OP_INPUT, 8, NULL, NULL, NULL, offset);
        return inputs_cache[offset];
    }
    return mk(GBT_OP_INPUT, 8, NULL, NULL, NULL, offset);
}

static int is_const(const rt_expr_t *e) { return e->op == GBT_OP_CONST; }

/* Constant folds evaluate through tracer/gb_bv.h, the semantics symbolic/
 * evaluates with and Z3 agrees with: a folded value is the one a solver
 * would have computed from the expression. */
static rt_expr_t *fold1(unsigned op, unsigned width, const rt_expr_t *a, uint64_t imm)
{
    uint64_t v[3] = {a->imm, 0, 0};
    return rt_const(width, gb_bv_apply(op, width, a->width, 0, v, imm));
}

/* x op c (c within x's width) that leaves x unchanged, or gives a
 * constant, or adds to x's own constant: the result; NULL otherwise. */
static inline __attribute__((always_inline)) rt_expr_t *
simplify_k(unsigned op, rt_expr_t *a, uint64_t c)
{
    uint64_t m = rt_mask(a->width);
    if (c == 0 && (op == GBT_OP_ADD || op == GBT_OP_SUB || op == GBT_OP_OR ||
                   op == GBT_OP_XOR || op == GBT_OP_SHL || op == GBT_OP_LSHR ||
                   op == GBT_OP_ASHR))
        return a;
    if ((op == GBT_OP_AND && c == m) || (op == GBT_OP_MUL && c == 1))
        return a;
    if ((op == GBT_OP_AND || op == GBT_OP_MUL) && c == 0)
        return rt_const(a->width, 0);
    /* (x + c1) + c2 => x + (c1 + c2): keeps pointer arithmetic flat. */
    if (op == GBT_OP_ADD && a->op == GBT_OP_ADD && is_const(a->arg[1]))
        return rt_binop_k(GBT_OP_ADD, a->arg[0], a->arg[1]->imm + c);
    return NULL;
}

static rt_expr_t *simplify_binop(unsigned op, rt_expr_t *a, rt_expr_t *b)
{
    return is_const(b) ? simplify_k(op, a, b->imm) : NULL;
}

/* Floating-point nodes (tracer/gb_fp.h): folded only when every argument
 * is constant, never simplified (x + 0.0 is not x when x is -0.0). */
RT_HIDDEN rt_expr_t *rt_fp(unsigned op, unsigned width, rt_expr_t *a, rt_expr_t *b)
{
    if (!a || (gbt_op_arity(op) == 2 && !b))
        return NULL;
    if (is_const(a) && (!b || is_const(b))) {
        uint64_t v[3] = {a->imm, b ? b->imm : 0, 0};
        return rt_const(width, gb_bv_apply(op, width, a->width, b ? b->width : 0, v, 0));
    }
    return mk(op, width, a, b, NULL, 0);
}

RT_HIDDEN rt_expr_t *rt_binop(unsigned op, rt_expr_t *a, rt_expr_t *b)
{
    if (!a || !b)
        return NULL;
    /* FP compares from the target go through rt_fcmp (fp_cmp.c, called by
     * __gb_binop), which rewrites a parsed decimal's compare and calls back
     * here; one built here is the plain FP node. */
    if (gbt_op_is_fp(op))
        return rt_fp(op, gbt_op_is_fcmp(op) ? 1u : a->width, a, b);
    unsigned w = gbt_op_is_cmp(op) ? 1 : a->width;
    if (is_const(a) && is_const(b))
        return rt_const(w, gb_bv_binop(op, a->width, a->imm, b->imm));
    /* Canonical order for commutative ops: constant on the right. */
    if (is_const(a) && rt_op_commutes(op)) {
        rt_expr_t *t = a;
        a = b;
        b = t;
    }
    if (!gbt_op_is_cmp(op)) {
        rt_expr_t *s = simplify_binop(op, a, b);
        if (s)
            return s;
    }
    return mk(op, w, a, b, NULL, 0);
}

/* rt_binop(op, a, rt_const(a->width, c)) for a non-FP op, without reading
 * the constant's node: the entry points know which operand is concrete,
 * and that node, anywhere in the arena, was a cache miss per operation.
 * Same simplifications, same result. */
RT_HIDDEN rt_expr_t *rt_binop_k(unsigned op, rt_expr_t *a, uint64_t c)
{
    if (!a)
        return NULL;
    unsigned width = a->width;
    if (is_const(a))
        return rt_binop(op, a, rt_const(width, c));
    c &= rt_mask(width);
    if (!gbt_op_is_cmp(op)) {
        rt_expr_t *s = simplify_k(op, a, c);
        if (s)
            return s;
    }
    rt_expr_t *b = rt_const(width, c);
    /* A constant's depth is 1: its node need not be read for mk's. */
    return b ? mk_at(op, gbt_op_is_cmp(op) ? 1u : width, a, b, NULL, 0, a->depth > 1 ? a->depth : 1)
             : NULL;
}

static rt_expr_t *zext(rt_expr_t *a, unsigned width)
{
    if (is_const(a))
        return fold1(GBT_OP_ZEXT, width, a, 0);
    if (a->op == GBT_OP_ZEXT)
        a = a->arg[0];
    return mk(GBT_OP_ZEXT, width, a, NULL, NULL, 0);
}

RT_HIDDEN rt_expr_t *rt_unop(unsigned op, unsigned width, rt_expr_t *a, uint64_t imm)
{
    if (!a)
        return NULL;
    switch (op) {
    case GBT_OP_ZEXT:
        return width == a->width ? a : zext(a, width);
    case GBT_OP_SEXT:
        if (width == a->width)
            return a;
        if (is_const(a))
            return fold1(op, width, a, 0);
        return mk(op, width, a, NULL, NULL, 0);
    case GBT_OP_EXTRACT:
        return rt_extract(a, (unsigned)imm, width);
    case GBT_OP_NOT:
    case GBT_OP_NEG:
        if (is_const(a))
            return fold1(op, a->width, a, 0);
        return mk(op, a->width, a, NULL, NULL, 0);
    default:
        return gbt_op_is_fp(op) ? rt_fp(op, width, a, NULL) : NULL;
    }
}

RT_HIDDEN rt_expr_t *rt_extract(rt_expr_t *a, unsigned lo, unsigned width)
{
    if (!a)
        return NULL;
    if (lo == 0 && width == a->width)
        return a;
    if (is_const(a))
        return fold1(GBT_OP_EXTRACT, width, a, lo);
    if (a->op == GBT_OP_EXTRACT)
        return rt_extract(a->arg[0], lo + (unsigned)a->imm, width);
    if (a->op == GBT_OP_CONCAT) {
        unsigned wl = a->arg[1]->width;
        if (lo + width <= wl)
            return rt_extract(a->arg[1], lo, width);
        if (lo >= wl)
            return rt_extract(a->arg[0], lo - wl, width);
    }
    if (a->op == GBT_OP_ZEXT) {
        unsigned wx = a->arg[0]->width;
        if (lo + width <= wx)
            return rt_extract(a->arg[0], lo, width);
        if (lo >= wx)
            return rt_const(width, 0);
        if (lo == 0)
            return zext(a->arg[0], width);
    }
    return mk(GBT_OP_EXTRACT, width, a, NULL, NULL, lo);
}

RT_HIDDEN rt_expr_t *rt_concat(rt_expr_t *hi, rt_expr_t *lo)
{
    if (!hi || !lo)
        return NULL;
    unsigned w = (unsigned)hi->width + lo->width;
    if (is_const(hi) && is_const(lo))
        return rt_const(w, gb_bv_concat(hi->imm, lo->imm, lo->width, w));
    /* Adjacent pieces of one value join back into it. */
    if (hi->op == GBT_OP_EXTRACT && lo->op == GBT_OP_EXTRACT && hi->arg[0] == lo->arg[0] &&
        hi->imm == lo->imm + lo->width)
        return rt_extract(lo->arg[0], (unsigned)lo->imm, w);
    /* Zero high part: a zero extension (keeps loads of small values narrow). */
    if (is_const(hi) && hi->imm == 0)
        return zext(lo, w);
    return mk(GBT_OP_CONCAT, w, hi, lo, NULL, 0);
}

RT_HIDDEN rt_expr_t *rt_ite(rt_expr_t *c, rt_expr_t *a, rt_expr_t *b)
{
    if (!c || !a || !b)
        return NULL;
    if (is_const(c))
        return c->imm ? a : b;
    if (a == b)
        return a;
    return mk(GBT_OP_ITE, a->width, c, a, b, 0);
}

/* A little-endian read of width/8 bytes at byte offset `off` of table t;
 * bytes past the end read as 0 (docs/trace-format.md, READ). */
RT_HIDDEN rt_expr_t *rt_read(rt_expr_t *off, rt_table_t *t, unsigned width)
{
    if (!off || !t)
        return NULL;
    if (is_const(off)) {
        uint64_t v = 0;
        for (unsigned i = width / 8; i-- > 0;) {
            uint64_t o = off->imm + i;
            v = v << 8 | (o < t->size ? *(const uint8_t *)(t->start + o) : 0);
        }
        return rt_const(width, v);
    }
    return mk(GBT_OP_READ, width, off, NULL, NULL, t->id);
}

/* Constant halves are kept as NULL: the entry points get every half's
 * concrete value beside the pair, and a NULL pair skips them inline. */
RT_HIDDEN rt_expr_t *rt_pair(unsigned width, rt_expr_t *lo, rt_expr_t *hi)
{
    if (lo && is_const(lo))
        lo = NULL;
    if (hi && is_const(hi))
        hi = NULL;
    if (!lo && !hi)
        return NULL;
    return mk(RT_OP_PAIR, width, lo, hi, NULL, 0);
}

RT_HIDDEN rt_expr_t *rt_resize(rt_expr_t *a, unsigned width)
{
    if (!a || a->width == width)
        return a;
    return a->width < width ? zext(a, width) : rt_extract(a, 0, width);
}
