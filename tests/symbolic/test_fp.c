/* SPDX-License-Identifier: Apache-2.0 */
/* One floating-point semantics: for every FP operator (trace version 3) on
 * edge values (±0, ±inf, NaNs of both signs and other payloads, subnormals,
 * ties, the bounds of every integer conversion) and random ones, the
 * evaluator (tracer/gb_fp.h through gb_expr_apply and gb_trace_eval_pc) and
 * Z3 given the bridge's translation must give the same bits; and the
 * SMT-LIB2 text `glassbox show` prints for them must say the same in Z3. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "symbolic_int.h"
#include "tb.h"

static uint64_t rng = 0x243f6a8885a308d3ull;
static unsigned long long compared;

static uint64_t bits64(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static uint64_t bits32(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* Edge values as doubles; the float cases take (float) of them too. */
static const double edges[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1000.5, 1000.75, 0.1,
    4.9406564584124654e-324, -4.9406564584124654e-324, 2.2250738585072009e-308,
    2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308,
    1.401298464324817e-45, 1.1754943508222875e-38, 3.4028234663852886e38, 3.4028235677973366e38,
    127.5, 128.0, -128.0, -129.0, 255.9, 256.0, 32767.99, -32768.5, 2147483647.0, 2147483648.0,
    -2147483648.0, -2147483649.0, 4294967295.0, 4294967296.0, 9007199254740993.0,
    9223372036854775807.0, -9223372036854775808.0, 18446744073709551615.0, 1e300, -1e-300,
};

/* A value for a case: an edge, an infinity or NaN (as raw bits), or random
 * bits. Width w (32/64). */
static uint64_t pick(unsigned w, unsigned i)
{
    size_t ne = sizeof edges / sizeof edges[0];
    uint64_t r = check_xorshift(&rng);
    if (i < ne)
        return w == 32 ? bits32((float)edges[i]) : bits64(edges[i]);
    static const uint64_t special64[] = {0x7ff0000000000000ull, 0xfff0000000000000ull,
                                         0x7ff8000000000000ull, 0xfff8000000000000ull,
                                         0x7ff0000000000001ull, 0xfff4000000000123ull};
    static const uint64_t special32[] = {0x7f800000u, 0xff800000u, 0x7fc00000u,
                                         0xffc00000u, 0x7f800001u, 0xffa00123u};
    if (i < ne + 6)
        return w == 32 ? special32[i - ne] : special64[i - ne];
    return w == 32 ? (uint32_t)r : r;
}

/* An 8-byte little-endian value from input bytes base..base+7, cut to w. */
static uint32_t operand(tb_t *b, unsigned base, unsigned w)
{
    uint32_t v = tb_in(b, base);
    for (unsigned k = 1; k < 8; k++)
        v = tb_bin(b, GBT_OP_CONCAT, 8 * (k + 1), tb_in(b, base + k), v);
    return w == 64 ? v : tb_un(b, GBT_OP_EXTRACT, w, v, 0);
}

/* The printed path constraint with every input byte pinned to in[]: SAT
 * (1), UNSAT (0) or -1 (a parse error, or Z3 gave up). */
static int smt2_check(const gb_trace_t *t, const uint8_t in[16], int negate_last)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gb_err_t e;
    if (!f || gb_trace_print_smt2(t, f, &e) != 0)
        return -1;
    fclose(f);
    char *last = strstr(buf, " #b1))\n(check-sat)");
    if (negate_last && last)
        last[3] = '0';
    char *text = malloc(len + 16 * 40 + 1);
    size_t n = (size_t)sprintf(text, "%s", buf);
    for (unsigned k = 0; k < 16; k++) {
        char decl[40];
        snprintf(decl, sizeof decl, "(declare-const b%u ", k);
        if (strstr(buf, decl))
            n += (size_t)sprintf(text + n, "(assert (= b%u #x%02x))\n", k, in[k]);
    }
    free(buf);
    if (getenv("GB_TEST_FP_DUMP")) { /* a directory: the texts as files 0, 1, ... */
        static unsigned seq;
        char path[512];
        snprintf(path, sizeof path, "%s/%u.smt2", getenv("GB_TEST_FP_DUMP"), seq++);
        check_write_file(path, text, strlen(text));
    }
    Z3_config cfg = Z3_mk_config();
    Z3_context c = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(c, NULL); /* errors show in Z3_get_error_code */
    Z3_ast_vector v = Z3_parse_smtlib2_string(c, text, 0, NULL, NULL, 0, NULL, NULL);
    int r = -1;
    if (Z3_get_error_code(c) == Z3_OK) {
        Z3_ast_vector_inc_ref(c, v);
        Z3_solver s = Z3_mk_solver(c);
        Z3_solver_inc_ref(c, s);
        for (unsigned i = 0; i < Z3_ast_vector_size(c, v); i++)
            Z3_solver_assert(c, s, Z3_ast_vector_get(c, v, i));
        Z3_lbool l = Z3_solver_check(c, s);
        r = l == Z3_L_TRUE ? 1 : l == Z3_L_FALSE ? 0 : -1;
        Z3_solver_dec_ref(c, s);
        Z3_ast_vector_dec_ref(c, v);
    } else {
        fprintf(stderr, "%s\n", Z3_get_error_msg(c, Z3_get_error_code(c)));
    }
    Z3_del_context(c);
    free(text);
    return r;
}

typedef struct fcase {
    uint32_t node; /* "op(...) == value" */
    unsigned op, w;
} fcase_t;

static void expect(tb_t *b, uint32_t r, unsigned rw, uint64_t v, fcase_t *c, size_t *n,
                   unsigned op, unsigned w)
{
    c[*n] = (fcase_t){tb_bin(b, GBT_OP_EQ, 1, r, tb_const(b, rw, v)), op, w};
    tb_pc(b, GBT_PC_BRANCH, 1, op, c[*n].node);
    (*n)++;
}

/* Every FP operator on the floats a, c of width w (bits va, vc). */
static void build_ops(tb_t *b, unsigned w, uint32_t a, uint32_t c, uint64_t va, uint64_t vc,
                      fcase_t *cs, size_t *n)
{
    static const unsigned iw[] = {1, 8, 16, 32, 53, 64};
    uint64_t v[3] = {va, vc, 0};
    for (unsigned op = GBT_OP_FCMP_FIRST; op <= GBT_OP_FDIV; op++) {
        unsigned rw = gbt_op_is_fcmp(op) ? 1 : w;
        expect(b, tb_bin(b, op, rw, a, c), rw, gb_expr_apply(op, rw, w, w, v, 0), cs, n, op, w);
    }
    for (size_t k = 0; k < sizeof iw / sizeof iw[0]; k++) {
        for (unsigned op = GBT_OP_FPTOSI; op <= GBT_OP_FPTOUI; op++)
            expect(b, tb_un(b, op, iw[k], a, 0), iw[k], gb_expr_apply(op, iw[k], w, 0, v, 0), cs,
                   n, op, w);
        if (iw[k] > w) /* c is only w bits wide here */
            continue;
        uint64_t x[3] = {vc & gb_mask(iw[k]), 0, 0};
        uint32_t xi = iw[k] == w ? c : tb_un(b, GBT_OP_EXTRACT, iw[k], c, 0);
        for (unsigned op = GBT_OP_SITOFP; op <= GBT_OP_UITOFP; op++)
            expect(b, tb_un(b, op, w, xi, 0), w, gb_expr_apply(op, w, iw[k], 0, x, 0), cs, n, op,
                   w);
    }
    unsigned op = w == 32 ? GBT_OP_FPEXT : GBT_OP_FPTRUNC, rw = w == 32 ? 64 : 32;
    expect(b, tb_un(b, op, rw, a, 0), rw, gb_expr_apply(op, rw, w, 0, v, 0), cs, n, op, w);
}

static void one_case(gb_z3_t *z, unsigned w, uint64_t va, uint64_t vc)
{
    uint8_t in[16];
    for (unsigned k = 0; k < 8; k++) {
        in[k] = (uint8_t)(va >> (8 * k));
        in[8 + k] = (uint8_t)(vc >> (8 * k));
    }
    tb_t *b = tb_new(16, 0);
    gbt_enc_header_v(b->file, GBT_VERSION_FP, 16, 0, gb_hash64);
    uint32_t a = operand(b, 0, w), c = operand(b, 8, w);
    fcase_t cs[64];
    size_t n = 0;
    build_ops(b, w, a, c, va & gb_mask(w), vc & gb_mask(w), cs, &n);
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    uint32_t vars[16];
    for (size_t k = 0; t && k < t->dag.nvars && k < 16; k++) /* byte i's node in vars[i] */
        vars[t->dag.nodes[t->dag.vars[k]].imm] = t->dag.vars[k];
    CHECK(t && t->dag.nvars == 16);
    for (size_t i = 0; t && i < n; i++) {
        CHECK_MSG(gb_trace_eval_pc(t, i, in, 16) == 1, "eval: op %u w %u", cs[i].op, w);
        gb_conj_t cj = {t->pcs[i].node, 1, 0};
        gb_qstatus_t st = GB_Q_SKIP;
        gb_err_t e;
        int r = gb_z3_holds(z, &(gb_z3_query_t){t, &cj, 1}, &(gb_z3_vars_t){vars, 16, in}, 20000,
                            &st, &e);
        CHECK_MSG(r == 0 && st == GB_Q_SAT,
                  "op %u width %u a=0x%llx b=0x%llx: Z3 disagrees (status %d)", cs[i].op, w,
                  (unsigned long long)(va & gb_mask(w)), (unsigned long long)(vc & gb_mask(w)),
                  (int)st);
        compared++;
    }
    if (t && (compared / n) % 8 == 1) { /* the printed form, on some of the cases */
        CHECK_MSG(smt2_check(t, in, 0) == 1, "smt2: w %u a=0x%llx b=0x%llx", w,
                  (unsigned long long)va, (unsigned long long)vc);
        CHECK_MSG(smt2_check(t, in, 1) == 0, "smt2 negated: w %u", w);
    }
    gb_trace_free(t);
    tb_free(b);
}

/* gb_fp_quot_cmp's rewrite of fcmp(M / D rounded, c) against the compare
 * itself, on quotients near c and on c's neighbours. */
static void quot_case(unsigned w, uint64_t M, uint64_t D, uint64_t cb)
{
    double q = w == 32 ? (double)((float)M / (float)D) : (double)M / (double)D;
    double c = gb_fp_val(cb, w);
    if (c != c)
        return;
    for (unsigned op = GBT_OP_FCMP_FIRST; op <= GBT_OP_FCMP_LAST; op++) {
        uint64_t t1, t2;
        int form = gb_fp_quot_cmp(op, cb, w, D, &t1, &t2), got;
        if (form < 0)
            got = op == GBT_OP_FORD;
        else {
            got = M >= t1;
            if (form & 2)
                got = got && !(M >= t2);
            if (form & 4)
                got = !got;
        }
        CHECK_MSG(got == gb_fp_cmp(op, q, c), "quot: op %u w %u M %llu D %llu c 0x%llx", op, w,
                  (unsigned long long)M, (unsigned long long)D, (unsigned long long)cb);
        compared++;
    }
}

static void quot_cases(void)
{
    static const uint64_t tens[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                    1000000000000000ull, 3, 7, 1ull << 20};
    for (unsigned w = 32; w <= 64; w += 32) {
        uint64_t lim = w == 32 ? 1ull << 24 : 1ull << 53;
        for (unsigned i = 0; i < 20000; i++) {
            uint64_t r = check_xorshift(&rng);
            uint64_t D = tens[r % (sizeof tens / sizeof tens[0])];
            if (w == 32 && D > 10000000)
                D = 10;
            uint64_t M = (r >> 8) % (i % 3 == 0 ? 100000 : lim);
            double q = w == 32 ? (double)((float)M / (float)D) : (double)M / (double)D;
            uint64_t qb = w == 32 ? bits32((float)q) : bits64(q);
            int64_t dc = (int64_t)(check_xorshift(&rng) % 5) - 2; /* c near q */
            quot_case(w, M, D, (qb + (uint64_t)dc) & gb_mask(w));
            quot_case(w, M, D, qb | 1ull << (w - 1)); /* -q */
            quot_case(w, M, D, pick(w, i % (sizeof edges / sizeof edges[0] + 6)));
        }
        quot_case(w, 0, 10, 0);
        quot_case(w, 0, 10, 1ull << (w - 1)); /* -0 */
        quot_case(w, 1, 10, 1);               /* the least subnormal */
    }
}

int main(void)
{
    quot_cases();
    gb_z3_t *z;
    gb_err_t e;
    if (gb_z3_new(&z, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    size_t nv = sizeof edges / sizeof edges[0] + 6 + 8; /* 8 random ones */
    for (unsigned w = 32; w <= 64; w += 32)
        for (unsigned i = 0; i < nv; i++) {
            one_case(z, w, pick(w, i), pick(w, (i * 7 + 3) % (unsigned)nv));
            one_case(z, w, pick(w, i), pick(w, i)); /* equal operands */
        }
    /* The rounding of a 53-bit-or-more integer and of a tie. */
    one_case(z, 64, bits64(1.0), 0x20000000000001ull);
    one_case(z, 64, bits64(1.0), 0xffffffffffffffffull);
    one_case(z, 32, bits32(1.0f), 0x1000001u);
    printf("fp: %llu values compared with Z3\n", compared);
    gb_z3_free(z);
    return check_exit("symbolic_fp");
}
