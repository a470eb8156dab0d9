/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz.smt2: the SMT-LIB2 printer (symbolic/smt2.c) round-tripped through
 * Z3's parser. The fuzz bytes are a small program that builds a valid
 * trace (every operator, widths 1 to 64, constant tables, every entry
 * kind) over an 8-byte input also taken from them. The trace is loaded
 * (hash-consing and folding included), printed, and parsed back with
 * Z3_parse_smtlib2_string; Z3 must accept the text, with one assertion per
 * path-constraint entry, and each assertion, with the input substituted,
 * must hold exactly when the loaded trace's evaluation says it does and
 * when the built expression, unfolded, does (tracer/gb_bv.h semantics). */
#include <stdint.h>
#include <string.h>
#include <z3.h>

#include "fz.h"
#include "gb_bv.h"
#include "gbt.h"
#include "symbolic.h"
#include "symbolic/tb.h"

#define FZ_NODES 160    /* nodes built at most: keeps a run in milliseconds */
#define FZ_PCS 24       /* path-constraint entries at most */
#define FZ_INPUT 8      /* input bytes the expressions read (offsets 0..7) */
#define FZ_TABLE_MAX 64 /* bytes of a table the program may define */
#define FZ_FRESH 256    /* inputs per Z3 context (a plain context keeps every term) */

/* The program being read, and what it has built: trace node ids, widths
 * and their values on the input, unfolded. */
typedef struct prog {
    const uint8_t *p;
    size_t n, at;
    tb_t *b;
    uint32_t id[FZ_NODES];
    uint8_t w[FZ_NODES];
    uint64_t v[FZ_NODES];
    size_t nn;
    uint8_t in[FZ_INPUT];
    size_t len; /* the input's length: bytes past it read as 0 */
    uint8_t table[FZ_TABLE_MAX];
    uint32_t table_len; /* 0: no table yet */
    uint8_t taken[FZ_PCS];
    size_t npcs;
} prog_t;

static Z3_context z3;
static unsigned z3_uses;
static int z3_error;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_z3_error(Z3_context c, Z3_error_code code)
{
    (void)c;
    z3_error = (int)code;
}

static void z3_fresh(void)
{
    if (z3 && z3_uses++ < FZ_FRESH)
        return;
    if (z3)
        Z3_del_context(z3);
    Z3_config cfg = Z3_mk_config();
    z3 = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(z3, on_z3_error);
    z3_uses = 0;
}

static unsigned byte(prog_t *g)
{
    return g->at < g->n ? g->p[g->at++] : 0;
}

static uint64_t value(prog_t *g, unsigned w)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < (w + 7) / 8; i++)
        v |= (uint64_t)byte(g) << (8 * i);
    return v & gb_bv_mask(w);
}

static size_t add(prog_t *g, uint32_t id, unsigned w, uint64_t v)
{
    g->id[g->nn] = id;
    g->w[g->nn] = (uint8_t)w;
    g->v[g->nn] = v & gb_bv_mask(w);
    return g->nn++;
}

static size_t mk_const(prog_t *g, unsigned w)
{
    uint64_t v = value(g, w);
    return add(g, tb_const(g->b, w, v), w, v);
}

/* A node of width w: an earlier one the program names, else a constant. */
static size_t pick_w(prog_t *g, unsigned w)
{
    size_t start = g->nn ? byte(g) % g->nn : 0;
    for (size_t k = 0; k < g->nn; k++) {
        size_t i = (start + k) % g->nn;
        if (g->w[i] == w)
            return i;
    }
    return mk_const(g, w);
}

static size_t mk_input(prog_t *g)
{
    unsigned c = byte(g);
    uint64_t off = c & 0x80 ? GBT_LEN_OFFSET + c % GBT_LEN_BYTES : c % FZ_INPUT;
    return add(g, tb_in(g->b, off), 8, gbt_input_byte(g->in, g->len, off));
}

static size_t mk_op(prog_t *g, unsigned op, unsigned w, size_t x, size_t y, size_t z, uint64_t imm)
{
    unsigned nargs = (unsigned)gbt_op_arity(op);
    uint32_t a[3] = {g->id[x], nargs > 1 ? g->id[y] : 0, nargs > 2 ? g->id[z] : 0};
    uint64_t av[3] = {g->v[x], nargs > 1 ? g->v[y] : 0, nargs > 2 ? g->v[z] : 0};
    uint64_t v = gb_bv_apply(op, w, g->w[x], nargs > 1 ? g->w[y] : 0, av, imm);
    return add(g, tb_node(g->b, op, w, nargs, a[0], a[1], a[2], imm), w, v);
}

/* READ of the one table: width/8 little-endian bytes at offset x. */
static size_t mk_read(prog_t *g, size_t x)
{
    if (!g->table_len) {
        g->table_len = 1 + byte(g) % FZ_TABLE_MAX;
        for (uint32_t i = 0; i < g->table_len; i++)
            g->table[i] = (uint8_t)byte(g);
        tb_need(g->b, 3 + GBT_TABLE_BODY(FZ_TABLE_MAX));
        g->b->blen += gbt_enc_table(g->b->blk + g->b->blen, 1, g->table, g->table_len);
    }
    unsigned w = 8 * (1 + byte(g) % 8);
    uint64_t v = 0, off = g->v[x];
    for (unsigned i = 0; i < w / 8; i++)
        if (off + i >= off && off + i < g->table_len)
            v |= (uint64_t)g->table[off + i] << (8 * i);
    return add(g, tb_node(g->b, GBT_OP_READ, w, 1, g->id[x], 0, 0, 1), w, v);
}

/* One width-1 node: an earlier one, or a comparison made now. */
static size_t condition(prog_t *g)
{
    size_t x = g->nn ? byte(g) % g->nn : mk_input(g);
    if (g->w[x] == 1)
        return x;
    unsigned op = GBT_OP_EQ + byte(g) % (GBT_OP_SGE - GBT_OP_EQ + 1);
    return mk_op(g, op, 1, x, pick_w(g, g->w[x]), 0, 0);
}

static void step(prog_t *g)
{
    unsigned c = byte(g) % 11;
    size_t x = g->nn ? byte(g) % g->nn : mk_input(g);
    unsigned w = g->w[x];
    if (c == 0) {
        mk_input(g);
    } else if (c == 1) {
        mk_const(g, 1 + byte(g) % GBT_MAX_WIDTH);
    } else if (c == 2) {
        unsigned op = GBT_OP_ADD + byte(g) % (GBT_OP_XOR - GBT_OP_ADD + 1);
        mk_op(g, op, w, x, pick_w(g, w), 0, 0);
    } else if (c == 3) {
        condition(g);
    } else if (c == 4) {
        mk_op(g, byte(g) & 1 ? GBT_OP_NOT : GBT_OP_NEG, w, x, 0, 0, 0);
    } else if (c == 5 && w < GBT_MAX_WIDTH) {
        unsigned to = w + 1 + byte(g) % (GBT_MAX_WIDTH - w);
        mk_op(g, byte(g) & 1 ? GBT_OP_SEXT : GBT_OP_ZEXT, to, x, 0, 0, 0);
    } else if (c == 6) {
        unsigned lo = byte(g) % w;
        mk_op(g, GBT_OP_EXTRACT, 1 + byte(g) % (w - lo), x, 0, 0, lo);
    } else if (c == 7 && w < GBT_MAX_WIDTH) {
        size_t y = pick_w(g, 1 + byte(g) % (GBT_MAX_WIDTH - w));
        mk_op(g, GBT_OP_CONCAT, w + g->w[y], x, y, 0, 0);
    } else if (c == 8) {
        size_t k = condition(g);
        mk_op(g, GBT_OP_ITE, w, k, x, pick_w(g, w), 0);
    } else if (c == 9) {
        mk_read(g, x);
    } else if (g->npcs < FZ_PCS) {
        size_t k = condition(g);
        unsigned kind = byte(g) % 4, taken = byte(g) & 1;
        tb_pc(g->b, kind, taken, 0x100 + (uint32_t)g->npcs, g->id[k]);
        g->taken[g->npcs++] = (uint8_t)((g->v[k] & 1) == taken);
    }
}

/* Builds the trace; g->taken[j] says whether entry j holds, unfolded. */
static void build(prog_t *g, const uint8_t *data, size_t size)
{
    memset(g, 0, sizeof *g);
    g->p = data;
    g->n = size;
    for (size_t i = 0; i < FZ_INPUT; i++)
        g->in[i] = (uint8_t)byte(g);
    g->len = byte(g) % (FZ_INPUT + 4);
    g->b = tb_new(g->len, 0);
    /* version 2: TABLE records and READ nodes may come */
    gbt_enc_header_v(g->b->file, GBT_VERSION_TABLES, g->len, 0, gb_hash64);
    while (g->at < g->n && g->nn + 8 < FZ_NODES)
        step(g);
    if (g->npcs == 0) {
        size_t k = condition(g);
        tb_pc(g->b, GBT_PC_BRANCH, 1, 0x100, g->id[k]);
        g->taken[g->npcs++] = (uint8_t)(g->v[k] & 1);
    }
    tb_end(g->b, GBT_END_EXIT, 0, 0);
}

static char *print(const gb_trace_t *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    FZ_CHECK(f != NULL);
    gb_err_t e;
    FZ_CHECK(gb_trace_print_smt2(t, f, &e) == 0);
    fclose(f);
    return text;
}

/* Assertion `a` with the input's bytes and length put in: 1 true, 0 false. */
static int z3_holds(Z3_ast a, const prog_t *g)
{
    Z3_sort bv8 = Z3_mk_bv_sort(z3, 8);
    Z3_ast from[FZ_INPUT + GBT_LEN_BYTES], to[FZ_INPUT + GBT_LEN_BYTES];
    for (unsigned k = 0; k < FZ_INPUT + GBT_LEN_BYTES; k++) {
        uint64_t off = k < FZ_INPUT ? k : GBT_LEN_OFFSET + (k - FZ_INPUT);
        char name[32];
        gb_input_name(off, name, sizeof name);
        from[k] = Z3_mk_const(z3, Z3_mk_string_symbol(z3, name), bv8);
        to[k] = Z3_mk_unsigned_int(z3, gbt_input_byte(g->in, g->len, off), bv8);
    }
    Z3_ast s = Z3_simplify(z3, Z3_substitute(z3, a, FZ_INPUT + GBT_LEN_BYTES, from, to));
    Z3_lbool v = Z3_get_bool_value(z3, s);
    if (v == Z3_L_UNDEF) { /* not folded to a constant: ask the solver */
        Z3_solver sv = Z3_mk_simple_solver(z3);
        Z3_solver_inc_ref(z3, sv);
        Z3_solver_assert(z3, sv, s);
        v = Z3_solver_check(z3, sv);
        Z3_solver_dec_ref(z3, sv);
    }
    FZ_CHECK(v != Z3_L_UNDEF && !z3_error);
    return v == Z3_L_TRUE;
}

static void roundtrip(const gb_trace_t *t, const prog_t *g)
{
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    FZ_CHECK(info.pcs == g->npcs);
    char *text = print(t);
    z3_fresh();
    z3_error = 0;
    Z3_ast_vector v = Z3_parse_smtlib2_string(z3, text, 0, NULL, NULL, 0, NULL, NULL);
    if (z3_error || !v || Z3_ast_vector_size(z3, v) != info.pcs) {
        fprintf(stderr, "Z3 error %d, %u assertions for %zu entries, on:\n%s\n", z3_error,
                v && !z3_error ? Z3_ast_vector_size(z3, v) : 0, info.pcs, text);
        FZ_CHECK(!"Z3 takes the printed script");
    }
    Z3_ast_vector_inc_ref(z3, v);
    for (unsigned j = 0; j < info.pcs; j++) {
        Z3_ast a = Z3_ast_vector_get(z3, v, j);
        FZ_CHECK(Z3_get_sort_kind(z3, Z3_get_sort(z3, a)) == Z3_BOOL_SORT);
        int held = gb_trace_eval_pc(t, j, g->in, g->len);
        if (held < 0)
            continue; /* out of memory */
        int z = z3_holds(a, g);
        if (held != z || held != g->taken[j]) {
            fprintf(stderr, "entry %u: evaluated %d, Z3 %d, unfolded %d, on:\n%s\n", j, held, z,
                    g->taken[j], text);
            FZ_CHECK(!"the printed entry means what the trace evaluates");
        }
    }
    Z3_ast_vector_dec_ref(z3, v);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static prog_t g;
    build(&g, data, size);
    gb_trace_t *t = tb_load(g.b, 0);
    FZ_CHECK(t != NULL); /* the program only builds valid traces */
    roundtrip(t, &g);
    gb_trace_free(t);
    tb_free(g.b);
    return 0;
}
