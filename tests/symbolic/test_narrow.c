/* SPDX-License-Identifier: Apache-2.0 */
/* Narrowing (z3_bridge.c, docs/clauses.md "Narrowing") keeps Z3's answers:
 * random expressions over small operands (zero- and sign-extended bytes,
 * byte pairs, small and negative constants), the shapes parsers' offset
 * and length arithmetic has, with every input byte pinned. "The result
 * equals the value we compute" must be impossible to flip: a bound that is
 * wrong, or an operation narrowed that depends on high bits, makes Z3
 * compute another value and the flip SAT. The narrowed terms are counted,
 * so the test fails too if nothing is narrowed at all. */
#include <stdint.h>

#include "symbolic_int.h"
#include "tb.h"

#define NIN 8 /* input bytes */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    return check_xorshift(&rng);
}

typedef struct val {
    uint32_t node;
    uint64_t v;
} val_t;

static val_t mk(tb_t *b, unsigned op, unsigned w, unsigned nargs, const val_t *a, unsigned aw0,
                unsigned aw1, uint64_t imm)
{
    uint64_t v[3] = {nargs > 0 ? a[0].v : 0, nargs > 1 ? a[1].v : 0, nargs > 2 ? a[2].v : 0};
    val_t r;
    r.node = tb_node(b, op, w, nargs, nargs > 0 ? a[0].node : 0, nargs > 1 ? a[1].node : 0,
                     nargs > 2 ? a[2].node : 0, imm);
    r.v = gb_expr_apply(op, w, aw0, aw1, v, imm);
    return r;
}

static val_t cnst(tb_t *b, unsigned w, uint64_t v)
{
    v &= gb_mask(w);
    return (val_t){tb_const(b, w, v), v};
}

/* A small operand of width w (16..64). */
static val_t leaf(tb_t *b, unsigned w, const uint8_t *in)
{
    unsigned k = (unsigned)(rnd() % NIN), j = (unsigned)(rnd() % NIN);
    val_t x = {tb_in(b, k), in[k]}, y = {tb_in(b, j), in[j]};
    switch (rnd() % 6) {
    case 0: return mk(b, GBT_OP_ZEXT, w, 1, &x, 8, 0, 0);
    case 1: return mk(b, GBT_OP_SEXT, w, 1, &x, 8, 0, 0);
    case 2: {
        val_t p[2] = {x, y};
        val_t c = mk(b, GBT_OP_CONCAT, 16, 2, p, 8, 8, 0);
        return w == 16 ? c : mk(b, GBT_OP_ZEXT, w, 1, &c, 16, 0, 0);
    }
    case 3: return cnst(b, w, rnd() % 300);
    case 4: return cnst(b, w, (uint64_t)0 - rnd() % 300);
    default: return cnst(b, w, rnd());
    }
}

static val_t tree(tb_t *b, unsigned w, int depth, const uint8_t *in)
{
    if (depth == 0 || rnd() % 4 == 0)
        return leaf(b, w, in);
    val_t a[3] = {tree(b, w, depth - 1, in), tree(b, w, depth - 1, in), {0, 0}};
    static const unsigned bin[] = {GBT_OP_ADD, GBT_OP_SUB, GBT_OP_MUL,  GBT_OP_AND,
                                   GBT_OP_OR,  GBT_OP_XOR, GBT_OP_UDIV, GBT_OP_UREM};
    switch (rnd() % 7) {
    case 0:
    case 1:
    case 2: return mk(b, bin[rnd() % 8], w, 2, a, w, w, 0);
    case 3: { /* shift by a constant, or by a small operand */
        static const unsigned sh[] = {GBT_OP_SHL, GBT_OP_LSHR, GBT_OP_ASHR};
        if (rnd() % 3)
            a[1] = cnst(b, w, rnd() % w);
        return mk(b, sh[rnd() % 3], w, 2, a, w, w, 0);
    }
    case 4: return mk(b, rnd() % 2 ? GBT_OP_NEG : GBT_OP_NOT, w, 1, a, w, 0, 0);
    case 5: { /* through a narrower width and back */
        unsigned nw = w / 2;
        val_t t = mk(b, GBT_OP_EXTRACT, nw, 1, a, w, 0, 0);
        return mk(b, rnd() % 2 ? GBT_OP_ZEXT : GBT_OP_SEXT, w, 1, &t, nw, 0, 0);
    }
    default: { /* ite on a compare of the two */
        val_t cmp = mk(b, GBT_OP_EQ + (unsigned)(rnd() % 10), 1, 2, a, w, w, 0);
        val_t it[3] = {cmp, a[0], a[1]};
        return mk(b, GBT_OP_ITE, w, 3, it, 1, w, 0);
    }
    }
}

/* One trace: pins, then per width a few "tree == value" and "a cmp b ==
 * value" entries; every entry after the pins must be unflippable. */
static void one_case(gb_solver_t *s, const uint8_t *in)
{
    static const unsigned widths[] = {16, 32, 64};
    tb_t *b = tb_new(NIN, 0);
    for (unsigned k = 0; k < NIN; k++)
        tb_pc(b, GBT_PC_PIN, 1, 0, tb_bin(b, GBT_OP_EQ, 1, tb_in(b, k), tb_const(b, 8, in[k])));
    size_t n = 0;
    for (size_t wi = 0; wi < 3; wi++) {
        unsigned w = widths[wi];
        for (int rep = 0; rep < 4; rep++) {
            val_t x[2] = {tree(b, w, 3, in), tree(b, w, 3, in)};
            val_t c = cnst(b, w, x[0].v), eq[2] = {x[0], c};
            tb_pc(b, GBT_PC_BRANCH, 1, (uint32_t)n++, mk(b, GBT_OP_EQ, 1, 2, eq, w, w, 0).node);
            for (unsigned op = GBT_OP_EQ; op <= GBT_OP_SGE; op++) {
                val_t r = mk(b, op, 1, 2, x, w, w, 0);
                tb_pc(b, GBT_PC_BRANCH, (unsigned)r.v, (uint32_t)n++, r.node);
            }
        }
    }
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    for (size_t i = 0; t && i < n; i++) {
        CHECK_MSG(gb_trace_eval_pc(t, NIN + i, in, NIN) == 1, "entry %zu: evaluation", i);
        gb_flip_t f;
        gb_err_t e;
        CHECK(gb_solver_flip(s, t, NIN + i, &f, &e) == 0);
        CHECK_MSG(f.status == GB_Q_UNSAT || f.status == GB_Q_SKIP,
                  "entry %zu: Z3 computes another value (status %d)", i, f.status);
        gb_flip_clear(&f);
    }
    gb_trace_free(t);
    tb_free(b);
}

int main(void)
{
    gb_solver_t *s;
    gb_err_t e;
    gb_solver_opts_t o = {10000, 0, GB_SOLVER_PLAIN & ~GB_SOLVER_NO_NARROW, 0};
    if (gb_solver_new(&o, &s, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    for (int rep = 0; rep < 60; rep++) {
        uint8_t in[NIN];
        for (int k = 0; k < NIN; k++) {
            uint64_t r = rnd();
            in[k] = rep == 0 ? 0 : rep == 1 ? 0xff : (uint8_t)(r % 5 == 0 ? 0x80 : r >> 8);
        }
        one_case(s, in);
    }
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    printf("narrow: %llu queries, %llu terms narrowed, %llu ms in Z3\n",
           (unsigned long long)st.queries_z3, (unsigned long long)st.nodes_narrowed,
           (unsigned long long)st.z3_time_ms);
    CHECK_MSG(st.nodes_narrowed >= 500, "only %llu terms narrowed",
              (unsigned long long)st.nodes_narrowed);
    CHECK(st.queries_sat == 0 && st.queries_timeout == 0);
    gb_solver_free(s);
    return check_exit("symbolic_narrow");
}
