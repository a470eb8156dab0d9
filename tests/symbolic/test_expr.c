/* SPDX-License-Identifier: Apache-2.0 */
/* White-box tests of the DAG: hash-consing, folding on construction, and
 * the concrete semantics on hand-checked SMT-LIB corner cases. */
#include <stdint.h>

#include "symbolic_int.h"
#include "tb.h"

static uint32_t mk(gb_dag_t *d, unsigned op, unsigned w, uint32_t a, uint32_t b, uint64_t imm)
{
    uint32_t args[2] = {a, b};
    return gb_dag_mk(d, op, w, (unsigned)gbt_op_arity(op), args, imm);
}

static uint32_t in(gb_dag_t *d, uint64_t off)
{
    return gb_dag_mk(d, GBT_OP_INPUT, 8, 0, NULL, off);
}

static uint32_t cst(gb_dag_t *d, unsigned w, uint64_t v)
{
    return gb_dag_mk(d, GBT_OP_CONST, w, 0, NULL, v);
}

static int is_const(gb_dag_t *d, uint32_t x, uint64_t v)
{
    return d->nodes[x].op == GBT_OP_CONST && d->nodes[x].imm == v;
}

static void hash_consing(void)
{
    gb_dag_t d;
    CHECK(gb_dag_init(&d) == 0);
    uint32_t a = in(&d, 0), b = in(&d, 1);
    CHECK(in(&d, 0) == a && a != b);
    CHECK(d.nvars == 2 && d.nodes[a].var == 0 && d.nodes[b].var == 1);
    uint32_t s1 = mk(&d, GBT_OP_ADD, 8, a, b, 0), s2 = mk(&d, GBT_OP_ADD, 8, b, a, 0);
    CHECK(s1 == s2); /* commutative operands are ordered */
    CHECK(mk(&d, GBT_OP_SUB, 8, a, b, 0) != mk(&d, GBT_OP_SUB, 8, b, a, 0));
    CHECK(cst(&d, 8, 5) == cst(&d, 8, 5) && cst(&d, 8, 5) != cst(&d, 16, 5));
    /* many nodes: the table grows and still finds every one */
    uint32_t ids[5000];
    for (unsigned i = 0; i < 5000; i++)
        ids[i] = mk(&d, GBT_OP_XOR, 8, a, cst(&d, 8, i & 0xff), 0);
    for (unsigned i = 0; i < 5000; i++)
        CHECK(ids[i] == mk(&d, GBT_OP_XOR, 8, a, cst(&d, 8, i & 0xff), 0));
    gb_dag_fini(&d);
}

static void folding(void)
{
    gb_dag_t d;
    CHECK(gb_dag_init(&d) == 0);
    uint32_t a = in(&d, 0), b = in(&d, 1), c = in(&d, 2);
    /* constants */
    CHECK(is_const(&d, mk(&d, GBT_OP_ADD, 8, cst(&d, 8, 200), cst(&d, 8, 100), 0), 44));
    CHECK(is_const(&d, mk(&d, GBT_OP_SLT, 1, cst(&d, 8, 0x80), cst(&d, 8, 1), 0), 1));
    CHECK(is_const(&d, mk(&d, GBT_OP_ULT, 1, cst(&d, 8, 0x80), cst(&d, 8, 1), 0), 0));
    /* concat / extract */
    uint32_t ab = mk(&d, GBT_OP_CONCAT, 16, a, b, 0);
    CHECK(mk(&d, GBT_OP_EXTRACT, 8, ab, 0, 0) == b);
    CHECK(mk(&d, GBT_OP_EXTRACT, 8, ab, 0, 8) == a);
    uint32_t lo4 = mk(&d, GBT_OP_EXTRACT, 4, ab, 0, 2);
    CHECK(d.nodes[lo4].op == GBT_OP_EXTRACT && d.nodes[lo4].args[0] == b && d.nodes[lo4].imm == 2);
    CHECK(d.nodes[mk(&d, GBT_OP_EXTRACT, 8, ab, 0, 4)].args[0] == ab); /* straddles: kept */
    uint32_t abc = mk(&d, GBT_OP_CONCAT, 24, ab, c, 0);
    CHECK(mk(&d, GBT_OP_EXTRACT, 8, abc, 0, 16) == a);               /* through two concats */
    uint32_t hi = mk(&d, GBT_OP_EXTRACT, 5, a, 0, 3), lo = mk(&d, GBT_OP_EXTRACT, 3, a, 0, 0);
    CHECK(mk(&d, GBT_OP_CONCAT, 8, hi, lo, 0) == a); /* adjacent extracts rejoin */
    uint32_t e2 = mk(&d, GBT_OP_EXTRACT, 2, hi, 0, 1); /* extract of extract */
    CHECK(d.nodes[e2].args[0] == a && d.nodes[e2].imm == 4);
    /* extensions */
    uint32_t z16 = mk(&d, GBT_OP_ZEXT, 16, a, 0, 0);
    uint32_t z32 = mk(&d, GBT_OP_ZEXT, 32, z16, 0, 0);
    CHECK(d.nodes[z32].op == GBT_OP_ZEXT && d.nodes[z32].args[0] == a);
    CHECK(mk(&d, GBT_OP_EXTRACT, 8, z32, 0, 0) == a);
    CHECK(is_const(&d, mk(&d, GBT_OP_EXTRACT, 8, z32, 0, 8), 0));
    uint32_t s16 = mk(&d, GBT_OP_SEXT, 16, a, 0, 0);
    CHECK(d.nodes[mk(&d, GBT_OP_EXTRACT, 8, s16, 0, 8)].op == GBT_OP_EXTRACT); /* sign bits */
    CHECK(mk(&d, GBT_OP_CONCAT, 16, cst(&d, 8, 0), a, 0) == z16);
    /* identities */
    CHECK(mk(&d, GBT_OP_ADD, 8, a, cst(&d, 8, 0), 0) == a);
    CHECK(mk(&d, GBT_OP_AND, 8, cst(&d, 8, 0xff), a, 0) == a);
    CHECK(is_const(&d, mk(&d, GBT_OP_XOR, 8, a, a, 0), 0));
    CHECK(mk(&d, GBT_OP_NOT, 8, mk(&d, GBT_OP_NOT, 8, a, 0, 0), 0, 0) == a);
    uint32_t eq = mk(&d, GBT_OP_EQ, 1, a, b, 0);
    uint32_t z = mk(&d, GBT_OP_ZEXT, 8, eq, 0, 0);
    CHECK(d.nodes[mk(&d, GBT_OP_NE, 1, z, cst(&d, 8, 0), 0)].op == GBT_OP_NE); /* 8-bit: kept */
    CHECK(mk(&d, GBT_OP_NE, 1, eq, cst(&d, 1, 0), 0) == eq);
    CHECK(mk(&d, GBT_OP_EQ, 1, cst(&d, 1, 1), eq, 0) == eq);
    uint32_t neq = mk(&d, GBT_OP_EQ, 1, eq, cst(&d, 1, 0), 0);
    CHECK(d.nodes[neq].op == GBT_OP_NOT && d.nodes[neq].args[0] == eq);
    uint32_t args3[3] = {cst(&d, 1, 1), a, b};
    CHECK(gb_dag_mk(&d, GBT_OP_ITE, 8, 3, args3, 0) == a);
    gb_dag_fini(&d);
}

struct vec {
    unsigned op, w;
    uint64_t a, b, want;
};

static void semantics(void)
{
    static const struct vec v[] = {
        {GBT_OP_UDIV, 8, 7, 0, 0xff},         {GBT_OP_UREM, 8, 7, 0, 7},
        {GBT_OP_SDIV, 8, 7, 0, 0xff},         {GBT_OP_SDIV, 8, 0xf9, 0, 1}, /* -7 / 0 = 1 */
        {GBT_OP_SREM, 8, 0xf9, 0, 0xf9},      {GBT_OP_SREM, 8, 7, 0, 7},
        {GBT_OP_SDIV, 8, 0x80, 0xff, 0x80},   /* INT_MIN / -1 wraps */
        {GBT_OP_SREM, 8, 0x80, 0xff, 0},      {GBT_OP_SDIV, 8, 0xf9, 2, 0xfd}, /* -7/2 = -3 */
        {GBT_OP_SREM, 8, 0xf9, 2, 0xff},      /* -7 % 2 = -1 */
        {GBT_OP_SREM, 8, 7, 0xfe, 1},         /* 7 % -2 = 1 */
        {GBT_OP_SHL, 8, 1, 8, 0},             {GBT_OP_SHL, 8, 1, 7, 0x80},
        {GBT_OP_LSHR, 8, 0x80, 8, 0},         {GBT_OP_LSHR, 8, 0x80, 255, 0},
        {GBT_OP_ASHR, 8, 0x80, 9, 0xff},      {GBT_OP_ASHR, 8, 0x40, 9, 0},
        {GBT_OP_ASHR, 8, 0x80, 3, 0xf0},      {GBT_OP_ASHR, 64, 1ull << 63, 63, ~0ull},
        {GBT_OP_SHL, 64, 1, 64, 0},           {GBT_OP_MUL, 64, 1ull << 32, 1ull << 32, 0},
        {GBT_OP_SUB, 16, 0, 1, 0xffff},       {GBT_OP_UDIV, 64, 5, 0, ~0ull},
        {GBT_OP_SLT, 8, 0xff, 0, 1},          {GBT_OP_SGE, 8, 0x7f, 0x80, 1},
        {GBT_OP_SLE, 64, ~0ull, 0, 1},        {GBT_OP_UGT, 64, ~0ull, 0, 1},
        {GBT_OP_SGT, 1, 0, 1, 1}, /* 1-bit signed: 1 is -1 */
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint64_t a[2] = {v[i].a, v[i].b};
        unsigned rw = gbt_op_is_cmp(v[i].op) ? 1 : v[i].w;
        uint64_t got = gb_expr_apply(v[i].op, rw, v[i].w, v[i].w, a, 0);
        CHECK_MSG(got == v[i].want, "vector %zu: op %u w %u: got 0x%llx want 0x%llx", i, v[i].op,
                  v[i].w, (unsigned long long)got, (unsigned long long)v[i].want);
    }
    uint64_t a[3] = {0x80, 0, 0};
    CHECK(gb_expr_apply(GBT_OP_SEXT, 16, 8, 0, a, 0) == 0xff80);
    CHECK(gb_expr_apply(GBT_OP_SEXT, 64, 8, 0, a, 0) == 0xffffffffffffff80ull);
    CHECK(gb_expr_apply(GBT_OP_ZEXT, 64, 8, 0, a, 0) == 0x80);
    CHECK(gb_expr_apply(GBT_OP_EXTRACT, 4, 8, 0, a, 4) == 8);
    uint64_t c[2] = {0xab, 0xcd};
    CHECK(gb_expr_apply(GBT_OP_CONCAT, 16, 8, 8, c, 0) == 0xabcd);
    uint64_t it[3] = {1, 5, 6};
    CHECK(gb_expr_apply(GBT_OP_ITE, 8, 1, 8, it, 0) == 5);
    it[0] = 0;
    CHECK(gb_expr_apply(GBT_OP_ITE, 8, 1, 8, it, 0) == 6);
    uint64_t n[1] = {1};
    CHECK(gb_expr_apply(GBT_OP_NEG, 64, 64, 0, n, 0) == ~0ull);
    CHECK(gb_expr_apply(GBT_OP_NOT, 1, 1, 0, n, 0) == 0);
}

/* A chain far deeper than any C stack would allow for recursion. */
static void deep_chain(void)
{
    tb_t *b = tb_new(1, 0);
    uint32_t x = tb_in(b, 0);
    for (int i = 0; i < 200000; i++)
        x = tb_bin(b, GBT_OP_ADD, 8, x, tb_in(b, (uint64_t)(i % 3)));
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_ULT, 1, x, tb_const(b, 8, 200)));
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    if (t) {
        uint8_t input[3] = {1, 2, 3}; /* 1 + 66667*1 + 66667*2 + 66666*3 mod 256 */
        uint64_t sum = 1 + 66667ull * 1 + 66667ull * 2 + 66666ull * 3;
        CHECK(gb_trace_eval_pc(t, 0, input, 3) == ((sum & 0xff) < 200));
        FILE *devnull = fopen("/dev/null", "w");
        gb_err_t e;
        CHECK(devnull && gb_trace_print_smt2(t, devnull, &e) == 0);
        if (devnull)
            fclose(devnull);
    }
    gb_trace_free(t);
    tb_free(b);
}

/* gb_trace_pc_token: a compare of adjacent bytes that the input matched is
 * a token; a mismatch, a one-byte compare, a gap, a byte that does not
 * decide (an OR) and the length variable are not. Input "xITEM BEGIN". */
static void tokens(void)
{
    static const uint8_t input[] = "xITEM BEGIN";
    size_t len = sizeof input - 1;
    tb_t *b = tb_new(len, 0);
    uint32_t in1 = tb_in(b, 1), in2 = tb_in(b, 2), in3 = tb_in(b, 3), in4 = tb_in(b, 4);
    uint32_t w = tb_bin(b, GBT_OP_CONCAT, 16, in2, in1);
    w = tb_bin(b, GBT_OP_CONCAT, 24, in3, w);
    w = tb_bin(b, GBT_OP_CONCAT, 32, in4, w); /* "ITEM" read as one little-endian word */
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_EQ, 1, w, tb_const(b, 32, 0x4d455449)));
    tb_pc(b, GBT_PC_BRANCH, 0, 2, tb_bin(b, GBT_OP_EQ, 1, w, tb_const(b, 32, 0x444e4500)));
    tb_pc(b, GBT_PC_BRANCH, 1, 3, tb_bin(b, GBT_OP_EQ, 1, in1, tb_const(b, 8, 'I')));
    uint32_t gap = tb_bin(b, GBT_OP_AND, 1, tb_bin(b, GBT_OP_EQ, 1, in1, tb_const(b, 8, 'I')),
                          tb_bin(b, GBT_OP_EQ, 1, in3, tb_const(b, 8, 'E')));
    tb_pc(b, GBT_PC_BRANCH, 1, 4, gap);
    uint32_t any = tb_bin(b, GBT_OP_OR, 1, tb_bin(b, GBT_OP_EQ, 1, in1, tb_const(b, 8, 'I')),
                          tb_bin(b, GBT_OP_EQ, 1, in2, tb_const(b, 8, 'T')));
    tb_pc(b, GBT_PC_BRANCH, 1, 5, any);
    /* BEGIN at 6..10, byte by byte as a memcmp model's conjunction, and its direction
     * false = "differs" (the compare recorded as NE) */
    uint32_t all = tb_const(b, 1, 1);
    for (unsigned k = 0; k < 5; k++)
        all = tb_bin(b, GBT_OP_AND, 1, all,
                     tb_bin(b, GBT_OP_EQ, 1, tb_in(b, 6 + k), tb_const(b, 8, "BEGIN"[k])));
    tb_pc(b, GBT_PC_BRANCH, 0, 6, tb_un(b, GBT_OP_NOT, 1, all, 0));
    uint32_t lenv = tb_in(b, GBT_LEN_OFFSET);
    tb_pc(b, GBT_PC_BRANCH, 1, 7,
          tb_bin(b, GBT_OP_EQ, 1, tb_bin(b, GBT_OP_CONCAT, 16, lenv, in1),
                 tb_const(b, 16, (uint64_t)len << 8 | 'I')));
    tb_end(b, GBT_END_EXIT, 0, 0);
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    uint64_t s = 0, e = 0;
    CHECK(gb_trace_pc_token(t, 0, input, len, &s, &e) == 1 && s == 1 && e == 5);
    CHECK(gb_trace_pc_token(t, 1, input, len, &s, &e) == 0); /* "ITEM" is not "\0END" */
    CHECK(gb_trace_pc_token(t, 2, input, len, &s, &e) == 0); /* one byte */
    CHECK(gb_trace_pc_token(t, 3, input, len, &s, &e) == 0); /* byte 2 unread */
    CHECK(gb_trace_pc_token(t, 4, input, len, &s, &e) == 0); /* either byte alone keeps it */
    CHECK(gb_trace_pc_token(t, 5, input, len, &s, &e) == 1 && s == 6 && e == 11);
    CHECK(gb_trace_pc_token(t, 6, input, len, &s, &e) == 0); /* the length variable */
    CHECK(gb_trace_pc_token(t, 0, input, 3, &s, &e) == 0);   /* past a shorter input */
    gb_trace_free(t);
    tb_free(b);
}

int main(void)
{
    hash_consing();
    folding();
    semantics();
    deep_chain();
    tokens();
    return check_exit("symbolic_expr");
}
