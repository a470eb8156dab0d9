/* SPDX-License-Identifier: Apache-2.0 */
/* gb_trace_print_smt2: the text parses in Z3, says what the run did (SAT
 * with the run's own input pinned), labels entries and pins, and stays
 * small on DAGs whose tree form would be exponential, READs of READs
 * included. */
#include <stdint.h>
#include <z3.h>

#include "gen.h"

static int z3_error;

static void on_error(Z3_context c, Z3_error_code code)
{
    (void)c;
    z3_error = (int)code;
}

static char *print(const gb_trace_t *t, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    gb_err_t e;
    CHECK(f != NULL);
    CHECK_MSG(gb_trace_print_smt2(t, f, &e) == 0, "%s", e.msg);
    fclose(f);
    return buf;
}

/* Parses `text` plus `extra` assertions; returns the number of assertions
 * and the satisfiability (1 SAT, 0 UNSAT, -1 other or parse error). */
static unsigned parse_and_check(const char *text, const char *extra, int *sat)
{
    Z3_config cfg = Z3_mk_config();
    Z3_context c = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(c, on_error);
    z3_error = 0;
    size_t n = strlen(text) + strlen(extra) + 1;
    char *all = malloc(n);
    snprintf(all, n, "%s%s", text, extra);
    Z3_ast_vector v = Z3_parse_smtlib2_string(c, all, 0, NULL, NULL, 0, NULL, NULL);
    free(all);
    unsigned count = 0;
    *sat = -1;
    if (v && !z3_error) {
        Z3_ast_vector_inc_ref(c, v);
        count = Z3_ast_vector_size(c, v);
        Z3_solver s = Z3_mk_solver(c);
        Z3_solver_inc_ref(c, s);
        for (unsigned i = 0; i < count; i++)
            Z3_solver_assert(c, s, Z3_ast_vector_get(c, v, i));
        Z3_lbool r = Z3_solver_check(c, s);
        *sat = r == Z3_L_TRUE ? 1 : r == Z3_L_FALSE ? 0 : -1;
        Z3_solver_dec_ref(c, s);
        Z3_ast_vector_dec_ref(c, v);
    }
    CHECK_MSG(!z3_error, "Z3 error %d parsing the printed script", z3_error);
    Z3_del_context(c);
    return count;
}

static size_t count_lines(const char *text, const char *prefix)
{
    size_t n = 0, pl = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        n += strncmp(p, prefix, pl) == 0;
    return n;
}

/* "(assert (= bK #xVV))" for every byte the script declares. */
static char *pin_declared(const char *text, const uint8_t *in, size_t len)
{
    size_t cap = 4096, n = 0;
    char *out = calloc(cap, 1);
    for (const char *p = strstr(text, "(declare-const b"); p;
         p = strstr(p + 1, "(declare-const b")) {
        unsigned long off = strtoul(p + 16, NULL, 10);
        unsigned v = off < len ? in[off] : 0;
        n += (size_t)snprintf(out + n, cap - n, "(assert (= b%lu #x%02x))\n", off, v);
    }
    return out;
}

static void lecture(void)
{
    tb_t *b = tb_new(4, 0);
    const char *good = "good";
    for (unsigned i = 0; i < 4; i++)
        tb_pc(b, GBT_PC_BRANCH, good[i] == "bad!"[i], 0x100 + i,
              tb_bin(b, GBT_OP_EQ, 1, tb_in(b, i), tb_const(b, 8, (uint8_t)"bad!"[i])));
    uint32_t x = tb_in(b, 3);
    tb_pc(b, GBT_PC_PIN, 1, 0xabc, tb_bin(b, GBT_OP_EQ, 1, x, tb_const(b, 8, 'd')));
    tb_end(b, GBT_END_EXIT, 0, 0);
    gb_trace_t *t = tb_load(b, 0);
    size_t len;
    char *text = print(t, &len);
    CHECK(strstr(text, "(declare-const b0 (_ BitVec 8))\n"));
    CHECK(strstr(text, "(declare-const b3 (_ BitVec 8))\n"));
    CHECK(count_lines(text, "(declare-const") == 4);
    CHECK(strncmp(text, "; glassbox trace: input length 4,", 33) == 0);
    CHECK(strstr(text, "5 path-constraint entries; ended by exit (code 0)\n"));
    CHECK(strstr(text, ";; pc 0 branch site 0x00000100 taken 0\n"));
    CHECK(strstr(text, ";; pc 4 pin site 0x00000abc taken 1 (pin: never flipped)\n"));
    CHECK(count_lines(text, "(assert") == 5 && count_lines(text, ";; pc ") == 5);
    CHECK(len > 12 && strcmp(text + len - 12, "(check-sat)\n") == 0);
    int sat;
    CHECK(parse_and_check(text, "", &sat) == 5 && sat == 1);
    char *pins = pin_declared(text, (const uint8_t *)"good", 4);
    CHECK(parse_and_check(text, pins, &sat) == 9 && sat == 1);
    free(pins);
    pins = pin_declared(text, (const uint8_t *)"bad!", 4);
    CHECK(parse_and_check(text, pins, &sat) == 9 && sat == 0);
    free(pins);
    free(text);
    gb_trace_free(t);
    tb_free(b);
}

/* The one-entry trace in `b` prints small (under 16 KiB) and holds on
 * its own input; frees it all. */
static void expect_small(tb_t *b)
{
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    size_t len;
    char *text = print(t, &len);
    CHECK_MSG(len < 16384, "%zu bytes", len);
    int sat;
    CHECK(parse_and_check(text, "", &sat) == 1 && sat == 1);
    free(text);
    gb_trace_free(t);
    tb_free(b);
}

/* x_{k+1} = x_k * x_k + x_k: 2^60 leaves as a tree, 60 terms as a DAG. */
static void shared_dag(void)
{
    tb_t *b = tb_new(1, 0);
    uint32_t x = tb_un(b, GBT_OP_ZEXT, 32, tb_in(b, 0), 0);
    for (int k = 0; k < 60; k++)
        x = tb_bin(b, GBT_OP_ADD, 32, tb_bin(b, GBT_OP_MUL, 32, x, x), x);
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_NE, 1, x, tb_const(b, 32, 12345)));
    expect_small(b);
}

/* A chain of 8-byte READs, each at the offset the one before read: a READ
 * prints its offset once per byte, so an unnamed offset grew 8-fold per
 * level (found by tests/fuzz's smt2: 16 MB from a 365-byte input). */
static void nested_reads(void)
{
    uint8_t tab[64];
    for (int i = 0; i < 64; i++)
        tab[i] = (uint8_t)(i % 7);
    tb_t *b = tb_new(1, 0);
    gbt_enc_header_v(b->file, GBT_VERSION_TABLES, 1, 0, gb_hash64);
    tb_need(b, 3 + GBT_TABLE_BODY(sizeof tab));
    b->blen += gbt_enc_table(b->blk + b->blen, 1, tab, sizeof tab);
    uint32_t x = tb_un(b, GBT_OP_ZEXT, 64, tb_in(b, 0), 0);
    for (int k = 0; k < 3; k++) /* 8^3 copies of the innermost offset before */
        x = tb_un(b, GBT_OP_READ, 64, x, 1);
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_NE, 1, x, tb_const(b, 64, 12345)));
    expect_small(b);
}

/* Random traces: the script holds on the run's own input, for every op. */
static void random_roundtrip(void)
{
    for (uint64_t seed = 100; seed < 140; seed++) {
        uint8_t in[8];
        for (int k = 0; k < 8; k++)
            in[k] = (uint8_t)(seed * 13 + (uint64_t)k * 59);
        tb_t *b = gen_trace_for(seed, 120, 10, in);
        gb_trace_t *t = tb_load(b, 0);
        gb_trace_info_t info;
        gb_trace_get_info(t, &info);
        size_t len;
        char *text = print(t, &len);
        char *pins = pin_declared(text, in, 8);
        int sat;
        unsigned n = parse_and_check(text, pins, &sat);
        CHECK_MSG(n >= info.pcs && sat == 1, "seed %llu: %u assertions, sat %d",
                  (unsigned long long)seed, n, sat);
        free(pins);
        free(text);
        gb_trace_free(t);
        tb_free(b);
    }
}

/* The header line says how the run ended: signal, cap, or no END at all. */
static void run_end(void)
{
    static const struct { int kind; int32_t code; const char *want; } v[] = {
        {GBT_END_SIGNAL, 11, "ended by signal 11\n"},
        {GBT_END_LIMIT, 0, "ended: the tracer hit a cap, 3 constraints dropped by the tracer\n"},
        {-1, 0, "incomplete (no END record: the run died)\n"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        tb_t *b = tb_new(1, 0);
        tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_EQ, 1, tb_in(b, 0), tb_const(b, 8, 0)));
        if (v[i].kind >= 0)
            tb_end(b, (unsigned)v[i].kind, v[i].code, v[i].kind == GBT_END_LIMIT ? 3 : 0);
        gb_trace_t *t = tb_load(b, 0);
        size_t len;
        char *text = print(t, &len);
        CHECK_MSG(strstr(text, v[i].want), "want \"%s\" in: %.200s", v[i].want, text);
        free(text);
        gb_trace_free(t);
        tb_free(b);
    }
}

static void write_error(void)
{
    tb_t *b = tb_new(1, 0);
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_EQ, 1, tb_in(b, 0), tb_const(b, 8, 0)));
    gb_trace_t *t = tb_load(b, 0);
    FILE *f = fopen("/dev/full", "w");
    if (f) {
        gb_err_t e = {{0}};
        CHECK(gb_trace_print_smt2(t, f, &e) == -1 && e.msg[0]);
        fclose(f);
    }
    gb_trace_free(t);
    tb_free(b);
}

int main(void)
{
    lecture();
    shared_dag();
    nested_reads();
    random_roundtrip();
    run_end();
    write_error();
    return check_exit("symbolic_smt2");
}
