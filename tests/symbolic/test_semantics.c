/* SPDX-License-Identifier: Apache-2.0 */
/* The concrete semantics (folding, gb_trace_eval_pc) agree with the Z3
 * translation bit for bit: with every input byte pinned, "op(a, b) equals
 * the value we compute" must be impossible to flip, for every op and width. */
#include <stdint.h>

#include "symbolic_int.h"
#include "tb.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
    return check_xorshift(&rng);
}

/* An 8-byte little-endian value from input bytes base..base+7, cut to w. */
static uint32_t operand(tb_t *b, unsigned base, unsigned w)
{
    uint32_t v = tb_in(b, base);
    for (unsigned k = 1; k < 8; k++)
        v = tb_bin(b, GBT_OP_CONCAT, 8 * (k + 1), tb_in(b, base + k), v);
    return w == 64 ? v : tb_un(b, GBT_OP_EXTRACT, w, v, 0);
}

typedef struct branch {
    unsigned op, width;
} branch_t;

/* Adds one branch "r == value" (taken) and remembers what it was. */
static void expect(tb_t *b, uint32_t r, unsigned rw, uint64_t value, branch_t *log, size_t *n,
                   unsigned op)
{
    tb_pc(b, GBT_PC_BRANCH, 1, op, tb_bin(b, GBT_OP_EQ, 1, r, tb_const(b, rw, value)));
    log[*n].op = op;
    log[*n].width = rw;
    (*n)++;
}

static void one_case(gb_solver_t *s, unsigned w, const uint8_t in[16])
{
    tb_t *b = tb_new(16, 0);
    for (unsigned k = 0; k < 16; k++) /* pin every byte */
        tb_pc(b, GBT_PC_PIN, 1, 0, tb_bin(b, GBT_OP_EQ, 1, tb_in(b, k), tb_const(b, 8, in[k])));
    uint32_t a = operand(b, 0, w), c = operand(b, 8, w);
    uint64_t va = 0, vc = 0;
    for (unsigned k = 0; k < 8; k++) {
        va |= (uint64_t)in[k] << (8 * k);
        vc |= (uint64_t)in[8 + k] << (8 * k);
    }
    va &= gb_mask(w);
    vc &= gb_mask(w);
    uint64_t v2[3] = {va, vc, 0};
    branch_t log[64];
    size_t n = 0;
    for (unsigned op = GBT_OP_ADD; op <= GBT_OP_SGE; op++) {
        if (op > GBT_OP_XOR && op < GBT_OP_EQ)
            continue;
        unsigned rw = gbt_op_is_cmp(op) ? 1 : w;
        expect(b, tb_bin(b, op, rw, a, c), rw, gb_expr_apply(op, rw, w, w, v2, 0), log, &n, op);
    }
    expect(b, tb_un(b, GBT_OP_NOT, w, a, 0), w, gb_expr_apply(GBT_OP_NOT, w, w, 0, v2, 0), log,
           &n, GBT_OP_NOT);
    expect(b, tb_un(b, GBT_OP_NEG, w, a, 0), w, gb_expr_apply(GBT_OP_NEG, w, w, 0, v2, 0), log,
           &n, GBT_OP_NEG);
    if (w < 64) {
        for (unsigned op = GBT_OP_ZEXT; op <= GBT_OP_SEXT; op++)
            expect(b, tb_un(b, op, 64, a, 0), 64, gb_expr_apply(op, 64, w, 0, v2, 0), log, &n, op);
        unsigned lw = 64 - w < w ? 64 - w : w;
        uint32_t lo = lw == w ? c : tb_un(b, GBT_OP_EXTRACT, lw, c, 0);
        uint64_t vcat[2] = {va, vc & gb_mask(lw)};
        expect(b, tb_bin(b, GBT_OP_CONCAT, w + lw, a, lo), w + lw,
               gb_expr_apply(GBT_OP_CONCAT, w + lw, w, lw, vcat, 0), log, &n, GBT_OP_CONCAT);
    }
    unsigned elo = w / 3, ew = w - w / 3;
    expect(b, tb_un(b, GBT_OP_EXTRACT, ew, a, elo), ew,
           gb_expr_apply(GBT_OP_EXTRACT, ew, w, 0, v2, elo), log, &n, GBT_OP_EXTRACT);
    uint32_t cond = w == 1 ? c : tb_un(b, GBT_OP_EXTRACT, 1, c, 0);
    uint32_t na = tb_un(b, GBT_OP_NOT, w, a, 0);
    uint64_t vite[3] = {vc & 1, va, ~va & gb_mask(w)};
    expect(b, tb_node(b, GBT_OP_ITE, w, 3, cond, a, na, 0), w,
           gb_expr_apply(GBT_OP_ITE, w, 1, w, vite, 0), log, &n, GBT_OP_ITE);
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    for (size_t i = 0; t && i < n; i++) {
        size_t j = 16 + i;
        CHECK_MSG(gb_trace_eval_pc(t, j, in, 16) == 1, "eval: op %u width %u", log[i].op, w);
        gb_flip_t f;
        gb_err_t e;
        CHECK(gb_solver_flip(s, t, j, &f, &e) == 0);
        /* a constant-folded entry is a SKIP; otherwise Z3 must agree */
        CHECK_MSG(f.status == GB_Q_UNSAT || f.status == GB_Q_SKIP,
                  "op %u width %u a=0x%llx b=0x%llx: Z3 disagrees (status %d)", log[i].op, w,
                  (unsigned long long)va, (unsigned long long)vc, f.status);
        gb_flip_clear(&f);
    }
    gb_trace_free(t);
    tb_free(b);
}

int main(void)
{
    static const unsigned widths[] = {1, 3, 8, 13, 16, 32, 63, 64};
    gb_solver_t *s;
    gb_err_t e;
    gb_solver_opts_t o = {10000, 0, GB_SOLVER_PLAIN, 0};
    if (gb_solver_new(&o, &s, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
        for (int rep = 0; rep < 8; rep++) {
            uint8_t in[16];
            for (int k = 0; k < 16; k++) {
                uint64_t r = rnd();
                in[k] = rep == 0 ? 0 : rep == 1 ? 0xff : rep == 2 ? (k == 7 || k == 15 ? 0x80 : 0)
                      : (uint8_t)(r % 4 == 0 ? 0 : r >> 8);
            }
            if (rep == 3) /* divisor zero at every width */
                memset(in + 8, 0, 8);
            if (rep == 4 || rep == 5) { /* shift by exactly the width, and one less */
                memset(in + 8, 0, 8);
                in[8] = (uint8_t)(widths[wi] - (unsigned)(rep - 4));
            }
            one_case(s, widths[wi], in);
        }
    }
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    printf("semantics: %llu queries, %llu ms in Z3\n", (unsigned long long)st.queries_z3,
           (unsigned long long)st.solver_time_ms);
    CHECK(st.queries_sat == 0 && st.queries_timeout == 0);
    gb_solver_free(s);
    return check_exit("symbolic_semantics");
}
