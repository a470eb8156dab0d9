/* SPDX-License-Identifier: Apache-2.0 */
/* The solver's shortcuts: intervals against brute force on random chains
 * (every supported shape, wrap-around, signedness, both endiannesses),
 * learned clauses (sound across traces, saved and loaded, a corrupted file
 * rejected), the answer cache, and the queries decided without sets:
 * one- and two-byte queries by trying their values, constant-armed ITEs;
 * and which queries Z3 gets without bit-blasting. */
#include <stdint.h>
#include <unistd.h>

#include "tb.h"

static gb_solver_t *solver(unsigned disable, int optimistic)
{
    gb_solver_t *s = NULL;
    gb_err_t e;
    gb_solver_opts_t o = {2000, optimistic, disable, 0};
    if (gb_solver_new(&o, &s, &e) != 0) {
        fprintf(stderr, "gb_solver_new: %s\n", e.msg);
        exit(1);
    }
    return s;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    return check_xorshift(&rng);
}

/* ---- Intervals against brute force ----------------------------------- */

/* A random chain over the variable x (width w): returns the node and its
 * width; mirrors it in *ops for concrete evaluation. */
typedef struct chain {
    uint32_t node;
    unsigned w;
} chain_t;

static chain_t grow(tb_t *b, chain_t c)
{
    unsigned k = (unsigned)(rnd() % 7), w = c.w;
    uint64_t v = rnd() & (w >= 64 ? ~0ull : (1ull << w) - 1);
    switch (k) {
    case 0:
        if (w < 64)
            return (chain_t){tb_un(b, GBT_OP_ZEXT, w * 2, c.node, 0), w * 2};
        break;
    case 1:
        if (w < 64)
            return (chain_t){tb_un(b, GBT_OP_SEXT, w * 2, c.node, 0), w * 2};
        break;
    case 2: return (chain_t){tb_bin(b, GBT_OP_ADD, w, c.node, tb_const(b, w, v)), w};
    case 3: return (chain_t){tb_bin(b, GBT_OP_SUB, w, c.node, tb_const(b, w, v)), w};
    case 4: return (chain_t){tb_bin(b, GBT_OP_SUB, w, tb_const(b, w, v), c.node), w};
    case 5: return (chain_t){tb_bin(b, GBT_OP_MUL, w, c.node, tb_const(b, w, 1 + rnd() % 5)), w};
    default: return (chain_t){tb_un(b, GBT_OP_NOT, w, c.node, 0), w};
    }
    return c;
}

/* The variable: byte 0, or bytes 0-1 as a little- or big-endian load. */
static chain_t var(tb_t *b, unsigned kind)
{
    if (kind == 0)
        return (chain_t){tb_in(b, 0), 8};
    uint32_t lo = tb_in(b, 0), hi = tb_in(b, 1);
    if (kind == 1) /* little-endian: byte 1 is the high part */
        return (chain_t){tb_bin(b, GBT_OP_CONCAT, 16, hi, lo), 16};
    return (chain_t){tb_bin(b, GBT_OP_CONCAT, 16, lo, hi), 16};
}

/* n comparisons of random chains over one variable, with directions
 * taken[] (replayable: the generator state is restored by the caller). */
static tb_t *build(unsigned kind, size_t n, const int *taken)
{
    tb_t *b = tb_new(2, 0);
    for (size_t i = 0; i < n; i++) {
        chain_t c = var(b, kind);
        for (int d = (int)(rnd() % 4); d > 0; d--)
            c = grow(b, c);
        unsigned op = GBT_OP_EQ + (unsigned)(rnd() % 10);
        uint64_t kv = (rnd() % 3 ? rnd() & 0x1ff : rnd()) & (c.w >= 64 ? ~0ull : (1ull << c.w) - 1);
        uint32_t k = tb_const(b, c.w, kv);
        uint32_t cond = rnd() % 2 ? tb_bin(b, op, 1, c.node, k) : tb_bin(b, op, 1, k, c.node);
        tb_pc(b, GBT_PC_BRANCH, taken ? (unsigned)taken[i] : 0, (uint32_t)i + 1, cond);
    }
    return b;
}

/* Brute force: does some value of the variable keep entries 0..j-1 and
 * flip entry j? */
static int brute_sat(const gb_trace_t *t, unsigned kind, size_t j, const uint8_t *in)
{
    for (uint32_t x = 0; x < (kind ? 65536u : 256u); x++) {
        uint8_t c[2] = {(uint8_t)x, kind ? (uint8_t)(x >> 8) : in[1]};
        int ok = gb_trace_eval_pc(t, j, c, 2) == 0;
        for (size_t i = 0; ok && i < j; i++)
            ok = gb_trace_eval_pc(t, i, c, 2) == 1;
        if (ok)
            return 1;
    }
    return 0;
}

static void interval_case(gb_solver_t *s, unsigned kind, size_t n, uint64_t *hits)
{
    uint8_t in[2] = {(uint8_t)rnd(), (uint8_t)rnd()};
    int taken[8];
    uint64_t saved = rng;
    tb_t *b = build(kind, n, NULL);
    gb_trace_t *t = tb_load(b, 0);
    for (size_t i = 0; i < n; i++)
        taken[i] = !gb_trace_eval_pc(t, i, in, 2); /* eval says "equals taken (0)" */
    gb_trace_free(t);
    tb_free(b);
    rng = saved;
    b = build(kind, n, taken);
    t = tb_load(b, 0);
    gb_solver_set_input(s, in, 2);
    for (size_t j = 0; j < n; j++) {
        CHECK(gb_trace_eval_pc(t, j, in, 2) == 1);
        gb_flip_t f;
        gb_err_t e;
        CHECK(gb_solver_flip(s, t, j, &f, &e) == 0);
        if (f.status == GB_Q_SKIP || f.status == GB_Q_TIMEOUT) {
            gb_flip_clear(&f);
            continue;
        }
        *hits += f.stage == GB_STAGE_INTERVAL;
        int want = brute_sat(t, kind, j, in);
        CHECK_MSG((f.status == GB_Q_SAT) == want, "kind %u entry %zu: stage %d says %d, brute %d",
                  kind, j, f.stage, f.status, want);
        if (f.status == GB_Q_SAT) {
            size_t cl;
            uint8_t *c = tb_combine(in, 2, &f.model, &cl);
            CHECK(gb_trace_eval_pc(t, j, c, cl) == 0);
            for (size_t i = 0; i < j; i++)
                CHECK_MSG(gb_trace_eval_pc(t, i, c, cl) == 1, "stage %d model breaks %zu",
                          f.stage, i);
            free(c);
        }
        gb_flip_clear(&f);
    }
    gb_solver_set_input(s, NULL, 0);
    gb_trace_free(t);
    tb_free(b);
}

static void intervals(void)
{
    gb_solver_t *s = solver(GB_SOLVER_NO_CLAUSES | GB_SOLVER_NO_CACHE, 0);
    uint64_t hits = 0;
    for (int rep = 0; rep < 150; rep++)
        interval_case(s, (unsigned)(rep % 3), 1 + (size_t)(rnd() % 6), &hits);
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    printf("intervals: %llu interval answers (%llu sat, %llu unsat), %llu by z3\n",
           (unsigned long long)hits, (unsigned long long)st.sat_interval,
           (unsigned long long)st.cut_interval_unsat, (unsigned long long)st.queries_z3);
    CHECK(st.sat_interval > 50 && st.cut_interval_unsat > 10);
    gb_solver_free(s);
}

/* A few fixed shapes, each answered by the interval stage itself. */
static void interval_shapes(void)
{
    static const struct {
        unsigned op, w, sext;
        uint64_t add, k;
        int want_sat;
    } cases[] = {
        /* (b0 + 200) mod 256 <u 50: wrap-around (b0 in [56, 105]) */
        {GBT_OP_ULT, 8, 0, 200, 50, 1},
        /* sext(b0) <s -100 (as 16 bits): b0 in [0x80, 0x9b] */
        {GBT_OP_SLT, 16, 1, 0, 0xff9c, 1},
        /* zext(b0) >u 300: never true */
        {GBT_OP_UGT, 16, 0, 0, 300, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb_t *b = tb_new(1, 0);
        uint32_t x = tb_in(b, 0);
        if (cases[i].w > 8)
            x = tb_un(b, cases[i].sext ? GBT_OP_SEXT : GBT_OP_ZEXT, cases[i].w, x, 0);
        if (cases[i].add)
            x = tb_bin(b, GBT_OP_ADD, cases[i].w, x, tb_const(b, cases[i].w, cases[i].add));
        uint32_t c = tb_bin(b, cases[i].op, 1, x, tb_const(b, cases[i].w, cases[i].k));
        uint8_t in[1] = {0x90};
        tb_pc(b, GBT_PC_BRANCH, 0, 1, c);
        gb_trace_t *t = tb_load(b, 0);
        unsigned taken = gb_trace_eval_pc(t, 0, in, 1) ? 0 : 1;
        CHECK(taken == (i == 1)); /* 0x90: (0x90 + 200) & 255 = 88; sext = -112; 144 */
        gb_solver_t *s = solver(GB_SOLVER_NO_CLAUSES | GB_SOLVER_NO_CACHE, 0);
        gb_solver_set_input(s, in, 1);
        gb_flip_t f;
        gb_err_t e;
        CHECK(gb_solver_flip(s, t, 0, &f, &e) == 0);
        /* entry 0 was recorded as not taken; for shape 1 that is the flip
         * "sext(b0) <s -100", SAT; for 0 "(b0+200) <u 50", SAT; for 2
         * "zext(b0) >u 300", UNSAT */
        CHECK_MSG(f.stage == GB_STAGE_INTERVAL, "shape %zu: stage %d", i, f.stage);
        CHECK_MSG((f.status == GB_Q_SAT) == cases[i].want_sat, "shape %zu: status %d", i,
                  f.status);
        if (f.status == GB_Q_SAT) {
            size_t cl;
            uint8_t *cb = tb_combine(in, 1, &f.model, &cl);
            CHECK(gb_trace_eval_pc(t, 0, cb, cl) == 0);
            free(cb);
        }
        gb_flip_clear(&f);
        gb_solver_free(s);
        gb_trace_free(t);
        tb_free(b);
    }
}

/* A byte-wise little-endian load (clang's or of shl(zext b)), pinned to its
 * value, then a branch on (x & 0xff00) == 0x1200. Flipping the branch
 * conflicts with the pin: the interval stage itself must give an
 * optimistic model (the pin broken, the flip holding), with no Z3 call;
 * without optimistic solving the query is UNSAT. */
static void interval_load_pin(void)
{
    for (int optimistic = 1; optimistic >= 0; optimistic--) {
        tb_t *b = tb_new(4, 0);
        uint32_t lo = tb_un(b, GBT_OP_ZEXT, 32, tb_in(b, 0), 0);
        uint32_t hi = tb_un(b, GBT_OP_ZEXT, 32, tb_in(b, 1), 0);
        uint32_t x = tb_bin(b, GBT_OP_OR, 32, tb_bin(b, GBT_OP_SHL, 32, hi, tb_const(b, 32, 8)), lo);
        tb_pc(b, GBT_PC_PIN, 1, 1, tb_bin(b, GBT_OP_EQ, 1, x, tb_const(b, 32, 0x1234)));
        uint32_t m = tb_bin(b, GBT_OP_AND, 32, x, tb_const(b, 32, 0xff00));
        tb_pc(b, GBT_PC_BRANCH, 1, 2, tb_bin(b, GBT_OP_EQ, 1, m, tb_const(b, 32, 0x1200)));
        gb_trace_t *t = tb_load(b, 0);
        uint8_t in[4] = {0x34, 0x12, 0, 0};
        CHECK(gb_trace_eval_pc(t, 0, in, 4) == 1 && gb_trace_eval_pc(t, 1, in, 4) == 1);
        gb_solver_t *s = solver(GB_SOLVER_NO_CLAUSES | GB_SOLVER_NO_CACHE, optimistic);
        gb_solver_set_input(s, in, 4);
        gb_flip_t f;
        gb_err_t e;
        CHECK(gb_solver_flip(s, t, 1, &f, &e) == 0);
        if (optimistic) {
            CHECK_MSG(f.status == GB_Q_SAT && f.optimistic, "status %d optimistic %d", f.status,
                      f.optimistic);
            CHECK_MSG(f.stage == GB_STAGE_INTERVAL && f.z3_calls == 0, "stage %d, %u Z3 calls",
                      f.stage, f.z3_calls);
            size_t cl;
            uint8_t *cb = tb_combine(in, 4, &f.model, &cl);
            CHECK(gb_trace_eval_pc(t, 1, cb, cl) == 0); /* the flip holds */
            free(cb);
        } else {
            CHECK_MSG(f.status == GB_Q_UNSAT, "status %d", f.status);
        }
        gb_flip_clear(&f);
        gb_solver_free(s);
        gb_trace_free(t);
        tb_free(b);
    }
}

/* ---- Clauses ---------------------------------------------------------- */

/* PC0: (b0 & 1) == 0 taken; PC1: (b0 & 3) == 1 not taken: flipping PC1 is
 * UNSAT, and no interval can tell (AND). `pad` dummy nodes first change the
 * node numbering; `odd` makes PC0 say b0 is odd (then the flip is SAT). */
static gb_trace_t *conflict_trace(int pad, int odd, tb_t **bp)
{
    tb_t *b = tb_new(1, 0);
    for (int i = 0; i < pad; i++)
        tb_const(b, 32, 1000u + (unsigned)i);
    uint32_t x = tb_in(b, 0);
    uint32_t m1 = tb_bin(b, GBT_OP_AND, 8, tb_const(b, 8, 1), x); /* operands swapped too */
    tb_pc(b, GBT_PC_BRANCH, 1, 10, tb_bin(b, GBT_OP_EQ, 1, m1, tb_const(b, 8, (uint64_t)odd)));
    uint32_t m3 = tb_bin(b, GBT_OP_AND, 8, x, tb_const(b, 8, 3));
    tb_pc(b, GBT_PC_BRANCH, 0, 11, tb_bin(b, GBT_OP_EQ, 1, m3, tb_const(b, 8, 1)));
    *bp = b;
    return tb_load(b, 0);
}

static gb_flip_t flip1(gb_solver_t *s, const gb_trace_t *t)
{
    gb_flip_t f;
    gb_err_t e;
    CHECK(gb_solver_flip(s, t, 1, &f, &e) == 0);
    return f;
}

static void clauses(void)
{
    char dir[] = "/tmp/gb-clauses.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    gb_solver_t *s = solver(GB_SOLVER_NO_CACHE, 0), *plain = solver(GB_SOLVER_PLAIN, 0);
    tb_t *b1, *b2, *b3;
    gb_trace_t *t1 = conflict_trace(0, 0, &b1), *t2 = conflict_trace(7, 0, &b2);
    gb_trace_t *t3 = conflict_trace(3, 1, &b3);
    gb_flip_t f = flip1(s, t1); /* one byte: refuted by trying its 256 values */
    CHECK(f.status == GB_Q_UNSAT && f.stage == GB_STAGE_INTERVAL && f.z3_calls == 0);
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    CHECK(st.clauses_learned == 1);
    f = flip1(s, t2); /* another trace, other node numbers: the clause applies */
    CHECK(f.status == GB_Q_UNSAT && f.stage == GB_STAGE_CLAUSE && f.z3_calls == 0);
    gb_qstatus_t vst;
    int zok, eok;
    gb_err_t e;
    CHECK(gb_solver_verify(plain, t2, 1, 0, NULL, &vst, &zok, &eok, &e) == 0 &&
          vst == GB_Q_UNSAT);
    f = flip1(s, t3); /* PC0 differs: the clause does not apply, and it is SAT */
    CHECK(f.status == GB_Q_SAT && f.stage != GB_STAGE_CLAUSE);
    gb_flip_clear(&f);
    CHECK(gb_solver_clauses_save(s, dir, &e) == 0);
    /* persistence: a new solver loads the clause and cuts at once */
    gb_solver_t *s2 = solver(GB_SOLVER_NO_CACHE, 0);
    size_t added = 0;
    CHECK(gb_solver_clauses_load(s2, dir, 0, &added, &e) == 0 && added == 1);
    f = flip1(s2, t2);
    CHECK(f.status == GB_Q_UNSAT && f.stage == GB_STAGE_CLAUSE);
    gb_solver_free(s2);
    /* a corrupted file adds nothing and says why on one line */
    char path[256];
    snprintf(path, sizeof path, "%s/clauses.gbc", dir);
    uint8_t *d;
    size_t len;
    CHECK(gb_read_file(path, 1 << 20, &d, &len, &e) == 0);
    d[len / 2] ^= 0x40;
    CHECK(gb_write_atomic(path, dir, d, len, &e) == 0);
    gb_free(d);
    s2 = solver(GB_SOLVER_NO_CACHE, 0);
    CHECK(gb_solver_clauses_load(s2, dir, 0, &added, &e) == -1 && added == 0);
    CHECK(strstr(e.msg, "checksum") != NULL && strchr(e.msg, '\n') == NULL);
    gb_solver_get_stats(s2, &st);
    CHECK(st.clauses_loaded == 0);
    gb_solver_free(s2);
    unlink(path);
    rmdir(dir);
    gb_solver_free(s);
    gb_solver_free(plain);
    gb_trace_free(t1), gb_trace_free(t2), gb_trace_free(t3);
    tb_free(b1), tb_free(b2), tb_free(b3);
}

/* ---- Cache ------------------------------------------------------------ */

/* (b0 ^ b1) == 0x5a not taken, in two traces with other numbering: the
 * second flip is answered from the cache with a model that holds. The
 * interval stage is off: it solves XOR of two bytes by itself now. */
static void cache(void)
{
    gb_solver_t *s = solver(GB_SOLVER_NO_CLAUSES | GB_SOLVER_NO_INTERVALS, 0);
    const uint8_t in[2] = {1, 2};
    for (int pad = 0; pad < 2; pad++) {
        tb_t *b = tb_new(2, 0);
        for (int i = 0; i < pad * 5; i++)
            tb_const(b, 16, (uint64_t)i);
        uint32_t x = tb_bin(b, GBT_OP_XOR, 8, tb_in(b, pad), tb_in(b, 1 - pad));
        tb_pc(b, GBT_PC_BRANCH, 0, 7, tb_bin(b, GBT_OP_EQ, 1, x, tb_const(b, 8, 0x5a)));
        gb_trace_t *t = tb_load(b, 0);
        gb_solver_set_input(s, in, 2);
        gb_flip_t f;
        gb_err_t e;
        CHECK(gb_solver_flip(s, t, 0, &f, &e) == 0);
        CHECK(f.status == GB_Q_SAT && f.stage == (pad ? GB_STAGE_CACHE : GB_STAGE_Z3));
        size_t cl;
        uint8_t *c = tb_combine(in, 2, &f.model, &cl);
        CHECK(gb_trace_eval_pc(t, 0, c, cl) == 0);
        free(c);
        gb_flip_clear(&f);
        gb_trace_free(t);
        tb_free(b);
    }
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    CHECK(st.cache_hit == 1 && st.queries_z3 == 1);
    /* round trip through a file */
    char path[] = "/tmp/gb-answers.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    gb_err_t e;
    CHECK(gb_solver_cache_save(s, path, &e) == 0);
    gb_solver_t *s2 = solver(GB_SOLVER_NO_CLAUSES, 0);
    CHECK(gb_solver_cache_load(s2, path, &e) == 0);
    gb_solver_free(s2);
    FILE *fp = fopen(path, "r+b");
    CHECK(fp && fseek(fp, 20, SEEK_SET) == 0 && fputc(0x77, fp) != EOF && fclose(fp) == 0);
    s2 = solver(GB_SOLVER_NO_CLAUSES, 0);
    CHECK(gb_solver_cache_load(s2, path, &e) == -1 && strstr(e.msg, "answer cache"));
    gb_solver_free(s2);
    unlink(path);
    gb_solver_free(s);
}

/* READ(table, b0) == 0x5a not taken, in three traces: the first two hold
 * the same table under different ids and numbering, so the second flip is
 * a cache hit (READs are keyed by table contents, not ids); the third's
 * table differs in one byte, so it must go to Z3. */
static void cache_tables(void)
{
    gb_solver_t *s = solver(GB_SOLVER_NO_CLAUSES | GB_SOLVER_NO_INTERVALS, 0);
    const uint8_t in[1] = {3};
    unsigned stage[3];
    for (int k = 0; k < 3; k++) {
        uint8_t tab[256];
        for (int i = 0; i < 256; i++)
            tab[i] = (uint8_t)(i * 7 + 1);
        tab[200] = (uint8_t)(k == 2 ? 0x5b : 0x5a);
        tb_t *b = tb_new(1, 0);
        gbt_enc_header_v(b->file, GBT_VERSION_TABLES, 1, 0, gb_hash64);
        uint32_t id = k == 1 ? 9u : 4u;
        tb_need(b, 3 + GBT_TABLE_BODY(sizeof tab));
        b->blen += gbt_enc_table(b->blk + b->blen, id, tab, sizeof tab);
        for (int i = 0; i < k * 3; i++)
            tb_const(b, 16, (uint64_t)i);
        uint32_t off = tb_un(b, GBT_OP_ZEXT, 32, tb_in(b, 0), 0);
        uint32_t rd = tb_un(b, GBT_OP_READ, 8, off, id);
        tb_pc(b, GBT_PC_BRANCH, 0, 7, tb_bin(b, GBT_OP_EQ, 1, rd, tb_const(b, 8, 0x5a)));
        gb_trace_t *t = tb_load(b, 0);
        CHECK(t != NULL);
        gb_solver_set_input(s, in, 1);
        gb_flip_t f;
        gb_err_t e;
        CHECK(t && gb_solver_flip(s, t, 0, &f, &e) == 0);
        CHECK(f.status == GB_Q_SAT);
        stage[k] = f.stage;
        size_t cl;
        uint8_t *c = tb_combine(in, 1, &f.model, &cl);
        CHECK(gb_trace_eval_pc(t, 0, c, cl) == 0); /* the branch now goes the other way */
        free(c);
        gb_flip_clear(&f);
        gb_trace_free(t);
        tb_free(b);
    }
    CHECK(stage[0] == GB_STAGE_Z3 && stage[1] == GB_STAGE_CACHE && stage[2] == GB_STAGE_Z3);
    gb_solver_free(s);
}

/* A query with more than 16 hard conjuncts whose conflict is between the
 * flipped condition (b0 < 20, recorded true) and a direct neighbour
 * (b0 < 10): a chain b0-b1-...-b20 of XORs keeps 20 more conjuncts in the
 * slice. The neighbours are checked first and refute it, so the whole
 * query is never checked: two checks (the neighbours, their core), where
 * checking the query first made three. The clause is the small core. */
static void neighbours_first(void)
{
    gb_solver_t *s = solver(GB_SOLVER_NO_INTERVALS, 0);
    uint8_t in[21] = {5};
    tb_t *b = tb_new(sizeof in, 0);
    uint32_t x[21];
    for (int i = 0; i < 21; i++)
        x[i] = tb_in(b, (uint64_t)i);
    uint32_t ff = tb_const(b, 8, 0xff);
    for (int i = 0; i < 20; i++)
        tb_pc(b, GBT_PC_BRANCH, 1, (uint32_t)(100 + i),
              tb_bin(b, GBT_OP_NE, 1, tb_bin(b, GBT_OP_XOR, 8, x[i], x[i + 1]), ff));
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_ULT, 1, x[0], tb_const(b, 8, 10)));
    tb_pc(b, GBT_PC_BRANCH, 1, 2, tb_bin(b, GBT_OP_ULT, 1, x[0], tb_const(b, 8, 20)));
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    gb_solver_set_input(s, in, sizeof in);
    gb_flip_t f;
    gb_err_t e;
    CHECK(t && gb_solver_flip(s, t, 21, &f, &e) == 0);
    CHECK(f.status == GB_Q_UNSAT && f.stage == GB_STAGE_Z3 && f.slice_size == 21);
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    CHECK_MSG(st.z3_checks == 2, "z3 checks %llu", (unsigned long long)st.z3_checks);
    CHECK(st.clauses_learned == 1);
    gb_flip_clear(&f);
    /* the learned clause is the core {b0 < 10, b0 >= 20}: flipping the
     * same condition in a trace without the chain is cut by it */
    tb_t *b2 = tb_new(1, 0);
    uint32_t y = tb_in(b2, 0);
    tb_pc(b2, GBT_PC_BRANCH, 1, 1, tb_bin(b2, GBT_OP_ULT, 1, y, tb_const(b2, 8, 10)));
    tb_pc(b2, GBT_PC_BRANCH, 1, 2, tb_bin(b2, GBT_OP_ULT, 1, y, tb_const(b2, 8, 20)));
    gb_trace_t *t2 = tb_load(b2, 0);
    CHECK(t2 && gb_solver_flip(s, t2, 1, &f, &e) == 0);
    CHECK(f.status == GB_Q_UNSAT && f.stage == GB_STAGE_CLAUSE);
    gb_flip_clear(&f);
    gb_trace_free(t), gb_trace_free(t2);
    tb_free(b), tb_free(b2);
    gb_solver_free(s);
}

/* ---- Stored values ---------------------------------------------------- */

/* A 32-bit "checksum" of bytes 0-7 (a multiply and a xor, as xxHash does)
 * compared with the little-endian u32 stored at bytes 8-11, then a test of
 * byte 0 that the run did not take. Flipping it changes the checksum: the
 * stored-value stage leaves the compare out of the query and sets bytes
 * 8-11 from the checksum of the child, which then passes it. `shared`
 * makes a later entry read byte 9 as well, and `constant` compares the
 * stored field with a constant (a checksum the tracer could not follow):
 * neither is left out. Either way the flip's model must keep the path. */
static uint32_t sum32(const uint8_t *in)
{
    uint32_t x = (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 |
                 (uint32_t)in[3] << 24;
    uint32_t y = (uint32_t)in[4] | (uint32_t)in[5] << 8 | (uint32_t)in[6] << 16 |
                 (uint32_t)in[7] << 24;
    return (x * 2654435761u) ^ (y + 0x1234567u);
}

static uint32_t le32(tb_t *b, uint64_t off)
{
    uint32_t v = tb_in(b, off);
    for (unsigned k = 1; k < 4; k++)
        v = tb_bin(b, GBT_OP_CONCAT, 8 * (k + 1), tb_in(b, off + k), v);
    return v;
}

static void stored_case(int shared, int constant)
{
    uint8_t in[12] = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
    uint32_t c = sum32(in);
    for (unsigned k = 0; k < 4; k++)
        in[8 + k] = (uint8_t)(c >> (8 * k));
    tb_t *b = tb_new(sizeof in, 0);
    uint32_t x = le32(b, 0), y = le32(b, 4);
    uint32_t f = tb_bin(b, GBT_OP_XOR, 32, tb_bin(b, GBT_OP_MUL, 32, x, tb_const(b, 32, 2654435761u)),
                        tb_bin(b, GBT_OP_ADD, 32, y, tb_const(b, 32, 0x1234567u)));
    if (constant)
        f = tb_const(b, 32, c);
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_EQ, 1, le32(b, 8), f));
    tb_pc(b, GBT_PC_BRANCH, 1, 2, tb_bin(b, GBT_OP_ULT, 1, tb_in(b, 1), tb_const(b, 8, 'x')));
    if (shared) /* byte 9 read again, with byte 1 */
        tb_pc(b, GBT_PC_BRANCH, 1, 3,
              tb_bin(b, GBT_OP_NE, 1, tb_bin(b, GBT_OP_XOR, 8, tb_in(b, 9), tb_in(b, 1)),
                     tb_const(b, 8, 0)));
    tb_pc(b, GBT_PC_BRANCH, 0, 4, tb_bin(b, GBT_OP_EQ, 1, tb_in(b, 0), tb_const(b, 8, 'Z')));
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    size_t j = shared ? 3 : 2;
    for (int on = 0; on <= 1 && t; on++) {
        gb_solver_t *s = solver(on ? 0 : GB_SOLVER_NO_STORED, 0);
        gb_solver_set_input(s, in, sizeof in);
        gb_flip_t fl;
        gb_err_t e;
        CHECK(gb_solver_flip(s, t, j, &fl, &e) == 0);
        gb_solver_stats_t st;
        gb_solver_get_stats(s, &st);
        int left_out = on && !shared && !constant;
        CHECK_MSG(st.stored_dropped == (unsigned)left_out && st.stored_fixed == (unsigned)left_out,
                  "shared %d constant %d stored on %d: left out %llu, set %llu", shared, constant,
                  on, (unsigned long long)st.stored_dropped, (unsigned long long)st.stored_fixed);
        CHECK(fl.status == GB_Q_SAT && !fl.optimistic);
        size_t n;
        uint8_t *ch = tb_combine(in, sizeof in, &fl.model, &n);
        for (size_t i = 0; i < j; i++) /* the prefix holds, the checksum with it */
            CHECK_MSG(gb_trace_eval_pc(t, i, ch, n) == 1, "entry %zu broken", i);
        CHECK(gb_trace_eval_pc(t, j, ch, n) == 0 && ch[0] == 'Z');
        uint32_t stored = (uint32_t)ch[8] | (uint32_t)ch[9] << 8 | (uint32_t)ch[10] << 16 |
                          (uint32_t)ch[11] << 24;
        CHECK(constant ? stored == c : sum32(ch) == stored);
        free(ch);
        gb_flip_clear(&fl);
        gb_solver_free(s);
    }
    gb_trace_free(t);
    tb_free(b);
}

static void stored_values(void)
{
    stored_case(0, 0);
    stored_case(1, 0);
    stored_case(0, 1);
}

/* ---- Queries the interval sets cannot describe ------------------------ */

/* Flips entry j and checks its answer came before Z3; on SAT, that the
 * child takes entry j the other way and keeps entries keep[0..nk). */
static void flip_no_z3(gb_solver_t *s, const gb_trace_t *t, const uint8_t *in, size_t len,
                       size_t j, gb_qstatus_t want, const size_t *keep, size_t nk)
{
    gb_flip_t f;
    gb_err_t e;
    CHECK(gb_solver_flip(s, t, j, &f, &e) == 0);
    CHECK_MSG(f.status == want && f.stage == GB_STAGE_INTERVAL && f.z3_calls == 0,
              "entry %zu: status %d stage %d z3 calls %u", j, f.status, f.stage, f.z3_calls);
    if (f.status == GB_Q_SAT) {
        size_t n;
        uint8_t *ch = tb_combine(in, len, &f.model, &n);
        CHECK_MSG(gb_trace_eval_pc(t, j, ch, n) == 0, "entry %zu not flipped", j);
        for (size_t i = 0; i < nk; i++)
            CHECK_MSG(gb_trace_eval_pc(t, keep[i], ch, n) == 1,
                      "entry %zu broken by flipping %zu", keep[i], j);
        free(ch);
    }
    gb_flip_clear(&f);
}

/* Products of input bytes (no interval shape) over one and two bytes are
 * decided by trying every value: a square mod 256 is never 2, and under
 * b0, b1 < 20 the product 323 = 17 * 19 exists and 401 does not. A switch
 * on `mode = bit ? K1 : K2` (a 32-bit load, too wide to try) is decided
 * from the ITE's constant arms. A product of three bytes (too many to
 * try every value) is solved by a sweep of one byte: the other two are
 * odd, so their product has an inverse mod 256. zlib's `nlen = 257 +
 * (hold & 31)` from a bit buffer over three bytes, rounded down to even,
 * is never 2: its forward hull [256, 288] refutes that alone. */
static void enumeration(void)
{
    uint8_t in[13] = {3, 4, 5, 0, 0, 0, 0, 2, 3, 5, 0x41, 0x42, 0x43};
    tb_t *b = tb_new(sizeof in, 0);
    uint32_t x0 = tb_in(b, 0), x1 = tb_in(b, 1), x2 = tb_in(b, 2);
    uint32_t prod = tb_bin(b, GBT_OP_MUL, 16, tb_un(b, GBT_OP_ZEXT, 16, x0, 0),
                           tb_un(b, GBT_OP_ZEXT, 16, x1, 0));
    uint32_t sq = tb_bin(b, GBT_OP_MUL, 8, x2, x2);
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_ULT, 1, x0, tb_const(b, 8, 20)));
    tb_pc(b, GBT_PC_BRANCH, 1, 2, tb_bin(b, GBT_OP_ULT, 1, x1, tb_const(b, 8, 20)));
    tb_pc(b, GBT_PC_BRANCH, 0, 3, tb_bin(b, GBT_OP_EQ, 1, prod, tb_const(b, 16, 323)));
    tb_pc(b, GBT_PC_BRANCH, 0, 4, tb_bin(b, GBT_OP_EQ, 1, prod, tb_const(b, 16, 401)));
    tb_pc(b, GBT_PC_BRANCH, 0, 5, tb_bin(b, GBT_OP_EQ, 1, sq, tb_const(b, 8, 0x31)));
    tb_pc(b, GBT_PC_BRANCH, 0, 6, tb_bin(b, GBT_OP_EQ, 1, sq, tb_const(b, 8, 2)));
    uint32_t bit = tb_bin(b, GBT_OP_EQ, 1, tb_bin(b, GBT_OP_AND, 32, le32(b, 3), tb_const(b, 32, 0x2000)),
                          tb_const(b, 32, 0));
    uint32_t mode = tb_node(b, GBT_OP_ITE, 32, 3, bit, tb_const(b, 32, 16191), tb_const(b, 32, 16189), 0);
    tb_pc(b, GBT_PC_SWITCH, 0, 7, tb_bin(b, GBT_OP_EQ, 1, mode, tb_const(b, 32, 16180)));
    tb_pc(b, GBT_PC_SWITCH, 1, 8, tb_bin(b, GBT_OP_EQ, 1, mode, tb_const(b, 32, 16191)));
    uint32_t p3 = tb_bin(b, GBT_OP_MUL, 8, tb_bin(b, GBT_OP_MUL, 8, tb_in(b, 7), tb_in(b, 8)), tb_in(b, 9));
    tb_pc(b, GBT_PC_BRANCH, 0, 9, tb_bin(b, GBT_OP_EQ, 1, p3, tb_const(b, 8, 0x77)));
    uint32_t z[3];
    for (int i = 0; i < 3; i++)
        z[i] = tb_un(b, GBT_OP_ZEXT, 64, tb_in(b, (uint64_t)(10 + i)), 0);
    uint32_t hold = tb_bin(b, GBT_OP_ADD, 64, tb_bin(b, GBT_OP_SHL, 64, z[2], tb_const(b, 64, 13)),
                           tb_bin(b, GBT_OP_ADD, 64, tb_bin(b, GBT_OP_SHL, 64, z[1], tb_const(b, 64, 5)),
                                  tb_bin(b, GBT_OP_LSHR, 64, z[0], tb_const(b, 64, 3))));
    uint32_t len = tb_bin(b, GBT_OP_ADD, 32,
                          tb_bin(b, GBT_OP_AND, 32, tb_un(b, GBT_OP_EXTRACT, 32, hold, 0),
                                 tb_const(b, 32, 31)),
                          tb_const(b, 32, 257));
    uint32_t even = tb_bin(b, GBT_OP_AND, 64, tb_un(b, GBT_OP_ZEXT, 64, len, 0),
                           tb_const(b, 64, 0xfffffffe));
    tb_pc(b, GBT_PC_BRANCH, 0, 10, tb_bin(b, GBT_OP_EQ, 1, tb_const(b, 64, 2), even));
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    if (!t) {
        tb_free(b);
        return;
    }
    gb_solver_t *s = solver(0, 0);
    gb_solver_set_input(s, in, sizeof in);
    static const size_t bounds[] = {0, 1, 2};
    flip_no_z3(s, t, in, sizeof in, 2, GB_Q_SAT, bounds, 2);
    flip_no_z3(s, t, in, sizeof in, 3, GB_Q_UNSAT, NULL, 0);
    flip_no_z3(s, t, in, sizeof in, 4, GB_Q_SAT, NULL, 0);
    flip_no_z3(s, t, in, sizeof in, 5, GB_Q_UNSAT, NULL, 0);
    flip_no_z3(s, t, in, sizeof in, 6, GB_Q_UNSAT, NULL, 0);
    flip_no_z3(s, t, in, sizeof in, 7, GB_Q_SAT, NULL, 0);
    flip_no_z3(s, t, in, sizeof in, 8, GB_Q_SAT, NULL, 0);
    flip_no_z3(s, t, in, sizeof in, 9, GB_Q_UNSAT, NULL, 0);
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    CHECK_MSG(st.queries_z3 == 0 && st.ival_enumerated == 4 && st.ival_swept == 1,
              "z3 %llu, enumerated %llu, swept %llu", (unsigned long long)st.queries_z3,
              (unsigned long long)st.ival_enumerated, (unsigned long long)st.ival_swept);
    gb_solver_free(s);
    gb_trace_free(t);
    tb_free(b);
}

/* ---- Products of two inputs: the simple solver only ------------------- */

/* Flips entry j, which must reach Z3 and be SAT; returns how many of the
 * solver's Z3 queries so far were kept from bit-blasting. */
static uint64_t flip_products(gb_solver_t *s, const gb_trace_t *t, const uint8_t *in, size_t len,
                              size_t j)
{
    gb_flip_t f;
    gb_err_t e;
    CHECK(gb_solver_flip(s, t, j, &f, &e) == 0);
    CHECK_MSG(f.status == GB_Q_SAT && f.z3_calls > 0, "entry %zu: status %d, z3 calls %u", j,
              f.status, f.z3_calls);
    if (f.status == GB_Q_SAT) {
        size_t n;
        uint8_t *ch = tb_combine(in, len, &f.model, &n);
        CHECK_MSG(gb_trace_eval_pc(t, j, ch, n) == 0, "entry %zu not flipped", j);
        free(ch);
    }
    gb_flip_clear(&f);
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    return st.z3_varmul;
}

/* A 16-bit product of two values of two input bytes each reaches Z3 (four
 * bytes are too many to try, and a sweep of one byte leaves 0 * y = 0) and
 * is kept from the qfbv tactic (z3_bridge.c, var_mul). The same shape on
 * 8 bits, and a 24-bit value times a constant, are not. Each entry reads
 * bytes of its own, so no query holds another's product. */
static void products(void)
{
    uint8_t in[12] = {0};
    tb_t *b = tb_new(sizeof in, 0);
    uint32_t x = tb_bin(b, GBT_OP_CONCAT, 16, tb_in(b, 1), tb_in(b, 0));
    uint32_t y = tb_bin(b, GBT_OP_CONCAT, 16, tb_in(b, 3), tb_in(b, 2));
    tb_pc(b, GBT_PC_BRANCH, 0, 1,
          tb_bin(b, GBT_OP_EQ, 1, tb_bin(b, GBT_OP_MUL, 16, x, y), tb_const(b, 16, 0xbeef)));
    uint32_t x8 = tb_bin(b, GBT_OP_XOR, 8, tb_in(b, 4), tb_in(b, 5));
    uint32_t y8 = tb_bin(b, GBT_OP_XOR, 8, tb_in(b, 6), tb_in(b, 7));
    tb_pc(b, GBT_PC_BRANCH, 0, 2,
          tb_bin(b, GBT_OP_EQ, 1, tb_bin(b, GBT_OP_MUL, 8, x8, y8), tb_const(b, 8, 0x35)));
    /* x * c ^ x >> 7 on 24 bits: every answer changes all three bytes */
    uint32_t x24 = tb_bin(b, GBT_OP_CONCAT, 24, tb_in(b, 10),
                          tb_bin(b, GBT_OP_CONCAT, 16, tb_in(b, 9), tb_in(b, 8)));
    uint32_t mix = tb_bin(b, GBT_OP_XOR, 24, tb_bin(b, GBT_OP_MUL, 24, x24, tb_const(b, 24, 0x9e3779)),
                          tb_bin(b, GBT_OP_LSHR, 24, x24, tb_const(b, 24, 7)));
    const uint32_t x0 = 0x123456;
    tb_pc(b, GBT_PC_BRANCH, 0, 3,
          tb_bin(b, GBT_OP_EQ, 1, mix, tb_const(b, 24, ((x0 * 0x9e3779u) ^ (x0 >> 7)) & 0xffffff)));
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    if (!t) {
        tb_free(b);
        return;
    }
    gb_solver_t *s = solver(GB_SOLVER_NO_CLAUSES | GB_SOLVER_NO_CACHE, 0);
    gb_solver_set_input(s, in, sizeof in);
    uint64_t n0 = flip_products(s, t, in, sizeof in, 0);
    uint64_t n1 = flip_products(s, t, in, sizeof in, 1);
    uint64_t n2 = flip_products(s, t, in, sizeof in, 2);
    CHECK_MSG(n0 == 1 && n1 == 1 && n2 == 1,
              "queries kept from bit-blasting after each flip: %llu %llu %llu, want 1 1 1",
              (unsigned long long)n0, (unsigned long long)n1, (unsigned long long)n2);
    gb_solver_free(s);
    gb_trace_free(t);
    tb_free(b);
}

/* ---- Forward hulls against Z3 ----------------------------------------- */

/* A random 64-bit expression over bytes 0-2 in the shapes the hulls know
 * (a known operand first or second), depth levels deep. */
static uint64_t rnd_mask(void)
{
    unsigned t = (unsigned)(rnd() % 12);
    switch (rnd() % 3) {
    case 0: return ~0ull << t;           /* keeps every bit from t up */
    case 1: return (1ull << t) - 1;      /* keeps the low t bits */
    default: return rnd() & 0xffffffffull;
    }
}

static uint32_t rexpr(tb_t *b, int depth)
{
    unsigned k = depth <= 0 ? 0 : (unsigned)(rnd() % 12);
    uint32_t x = k ? rexpr(b, depth - 1) : 0;
    switch (k) {
    case 0: return tb_un(b, GBT_OP_ZEXT, 64, tb_in(b, rnd() % 3), 0);
    case 1: return tb_bin(b, GBT_OP_ADD, 64, x, rexpr(b, depth - 1));
    case 2: return tb_bin(b, GBT_OP_SUB, 64, x, tb_const(b, 64, rnd() % 300));
    case 3: return tb_bin(b, GBT_OP_MUL, 64, tb_const(b, 64, 1 + rnd() % 40), x);
    case 4: return tb_bin(b, GBT_OP_AND, 64, tb_const(b, 64, rnd_mask()), x);
    case 5: return tb_bin(b, GBT_OP_OR, 64, x, tb_const(b, 64, rnd() % 512));
    case 6: return tb_bin(b, GBT_OP_LSHR, 64, x, tb_const(b, 64, rnd() % 12));
    case 7: return tb_bin(b, GBT_OP_SHL, 64, x, tb_const(b, 64, rnd() % 20));
    case 8: return tb_bin(b, GBT_OP_UDIV, 64, x, tb_const(b, 64, 1 + rnd() % 50));
    case 9: return tb_bin(b, GBT_OP_UREM, 64, x, tb_const(b, 64, 1 + rnd() % 50));
    case 10:
        return tb_un(b, GBT_OP_ZEXT, 64, tb_un(b, GBT_OP_EXTRACT, 32, x, rnd() % 8), 0);
    default: {
        uint32_t c = tb_bin(b, GBT_OP_ULT, 1, tb_in(b, rnd() % 3), tb_const(b, 8, rnd() % 256));
        return tb_node(b, GBT_OP_ITE, 64, 3, c, x, rexpr(b, depth - 1), 0);
    }
    }
}

/* The trace of one random expression (from `seed`): with `bits`, 64
 * entries `bit i of e == 1` (to read e's value on an input); otherwise
 * `e == k` with direction `taken`. */
static tb_t *hull_trace(uint64_t seed, int bits, uint64_t k, unsigned taken)
{
    uint64_t keep = rng;
    rng = seed | 1;
    tb_t *b = tb_new(3, 0);
    uint32_t x = rexpr(b, 1 + (int)(rnd() % 4));
    if (bits)
        for (unsigned i = 0; i < 64; i++)
            tb_pc(b, GBT_PC_BRANCH, 0, i + 1,
                  tb_bin(b, GBT_OP_EQ, 1, tb_un(b, GBT_OP_EXTRACT, 1, x, i), tb_const(b, 1, 1)));
    else
        tb_pc(b, GBT_PC_BRANCH, taken, 1, tb_bin(b, GBT_OP_EQ, 1, x, tb_const(b, 64, k)));
    rng = keep;
    return b;
}

/* The value of the expression from `seed` on `in`, bit by bit. */
static uint64_t hull_value(uint64_t seed, const uint8_t *in)
{
    tb_t *b = hull_trace(seed, 1, 0, 0);
    gb_trace_t *t = tb_load(b, 0);
    uint64_t v = 0;
    for (unsigned i = 0; t && i < 64; i++) /* eval: "equals taken (0)", i.e. the bit is 0 */
        v |= (uint64_t)!gb_trace_eval_pc(t, i, in, 3) << i;
    gb_trace_free(t);
    tb_free(b);
    return v;
}

/* Flips entry 0 of t (made on `in`) with s: with `holds_elsewhere` the
 * asked outcome holds on another input, so no stage may refute it; a
 * refutation by the interval stage must be plain Z3's UNSAT too (counted
 * in *refuted). `what` names the case in a failure. */
static void check_refutation(gb_solver_t *s, gb_solver_t *plain, const gb_trace_t *t,
                             const uint8_t *in, int holds_elsewhere, const char *what, int rep,
                             unsigned *refuted)
{
    gb_solver_set_input(s, in, 3);
    gb_solver_set_input(plain, in, 3);
    gb_flip_t f;
    gb_err_t e;
    CHECK(gb_solver_flip(s, t, 0, &f, &e) == 0);
    if (holds_elsewhere)
        CHECK_MSG(f.status != GB_Q_UNSAT, "%s, rep %d: refuted at stage %d, but it holds on "
                  "another input", what, rep, f.stage);
    if (f.status == GB_Q_UNSAT && f.stage == GB_STAGE_INTERVAL) {
        gb_qstatus_t vst;
        int zok, eok;
        ++*refuted;
        CHECK(gb_solver_verify(plain, t, 0, 0, NULL, &vst, &zok, &eok, &e) == 0);
        CHECK_MSG(vst == GB_Q_UNSAT, "%s, rep %d: refuted by the interval stage, Z3 says %d",
                  what, rep, vst);
    }
    gb_flip_clear(&f);
}

/* `e == k` over three bytes (too many to try every value, so the forward
 * hull or the sets decide), for random expressions e. With k a value e
 * takes on another input, no stage may refute it; with k near it, every
 * refutation must be Z3's UNSAT too. The hulls must have refuted some. */
static void hull_random(void)
{
    gb_solver_t *s = solver(GB_SOLVER_NO_CLAUSES | GB_SOLVER_NO_CACHE, 0);
    gb_solver_t *plain = solver(GB_SOLVER_PLAIN, 0);
    unsigned refuted = 0, reachable = 0;
    for (int rep = 0; rep < 800; rep++) {
        uint64_t seed = rnd();
        uint8_t in[3] = {(uint8_t)rnd(), (uint8_t)rnd(), (uint8_t)rnd()};
        uint8_t other[3] = {(uint8_t)rnd(), (uint8_t)rnd(), (uint8_t)rnd()};
        if (rep % 8 < 4) /* the extremes, where most hulls have their bounds */
            memset(other, rep % 8 < 2 ? 0 : 0xff, sizeof other);
        uint64_t v = hull_value(seed, other), k = v;
        if (rep % 2)
            k = rep % 4 == 1 ? v + 1 + rnd() % 3 : rnd() % 600;
        tb_t *b = hull_trace(seed, 0, k, 0);
        gb_trace_t *t = tb_load(b, 0);
        unsigned taken = t ? !gb_trace_eval_pc(t, 0, in, 3) : 0;
        gb_trace_free(t);
        tb_free(b);
        b = hull_trace(seed, 0, k, taken);
        t = tb_load(b, 0);
        CHECK(t != NULL);
        if (!t) {
            tb_free(b);
            continue;
        }
        reachable += k == v && !taken; /* asks e == v, which `other` satisfies */
        check_refutation(s, plain, t, in, k == v && !taken, "hull", rep, &refuted);
        gb_trace_free(t);
        tb_free(b);
    }
    printf("hulls: %u refutations, each confirmed by Z3; %u reachable values, none refuted\n",
           refuted, reachable);
    CHECK(refuted >= 20 && reachable >= 100);
    gb_solver_free(s);
    gb_solver_free(plain);
}

/* ---- Compares of two sums -------------------------------------------- */

/* lz4's pointer compares, over three bytes (too many to try every value):
 * p = (zext(b1) + 15 - 21) + (zext(b2 & 15) + K), where the subtraction
 * may wrap and the addition of the base K wraps it back. `p + 8 <u p +
 * zext(b0) + 15` always holds, so its flip is refuted; so is
 * `p + zext(b0) >u K + 600` (at most K + 519) against one constant, and
 * the same compare written with ~(...) as a decoder's overflow check. No
 * Z3 call is made for any of them. */
static void sums(void)
{
    uint8_t in[3] = {7, 30, 4};
    tb_t *b = tb_new(sizeof in, 0);
    const uint64_t K = 94403311293321ull;
    uint32_t z0 = tb_un(b, GBT_OP_ZEXT, 64, tb_in(b, 0), 0);
    uint32_t z1 = tb_un(b, GBT_OP_ZEXT, 64, tb_in(b, 1), 0);
    uint32_t z2 = tb_un(b, GBT_OP_ZEXT, 64, tb_bin(b, GBT_OP_AND, 8, tb_in(b, 2), tb_const(b, 8, 15)), 0);
    uint32_t p = tb_bin(b, GBT_OP_ADD, 64,
                        tb_bin(b, GBT_OP_SUB, 64, tb_bin(b, GBT_OP_ADD, 64, tb_const(b, 64, 15), z1),
                               tb_const(b, 64, 21)),
                        tb_bin(b, GBT_OP_ADD, 64, z2, tb_const(b, 64, K)));
    uint32_t a = tb_bin(b, GBT_OP_ADD, 64, p, tb_const(b, 64, 8));
    uint32_t e = tb_bin(b, GBT_OP_ADD, 64, tb_bin(b, GBT_OP_ADD, 64, p, z0), tb_const(b, 64, 15));
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_ULT, 1, a, e));
    tb_pc(b, GBT_PC_BRANCH, 0, 2, tb_bin(b, GBT_OP_UGT, 1, tb_bin(b, GBT_OP_ADD, 64, p, z0),
                                         tb_const(b, 64, K + 600)));
    uint32_t notp = tb_bin(b, GBT_OP_XOR, 64, tb_const(b, 64, ~0ull), p);
    tb_pc(b, GBT_PC_BRANCH, 0, 3, tb_bin(b, GBT_OP_UGT, 1, z0, notp)); /* b0 > ~p: p + b0 wraps */
    /* the first compare negated by an xor with 1, as clang writes `!(a < e)` */
    tb_pc(b, GBT_PC_BRANCH, 0, 4,
          tb_bin(b, GBT_OP_XOR, 1, tb_bin(b, GBT_OP_ULT, 1, a, e), tb_const(b, 1, 1)));
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    if (!t) {
        tb_free(b);
        return;
    }
    gb_solver_t *sv = solver(GB_SOLVER_NO_CLAUSES | GB_SOLVER_NO_CACHE, 0);
    gb_solver_set_input(sv, in, sizeof in);
    for (size_t j = 0; j < 4; j++)
        flip_no_z3(sv, t, in, sizeof in, j, GB_Q_UNSAT, NULL, 0);
    gb_solver_free(sv);
    gb_trace_free(t);
    tb_free(b);
}

/* A random compare of two sums that share a random expression (the
 * hulls' shapes, sometimes with a large base added after a subtraction
 * that may wrap), each side adding small multiples of input bytes and
 * constants. */
static uint32_t rside(tb_t *b, uint32_t shared)
{
    uint32_t x = shared;
    for (int n = (int)(rnd() % 3); n >= 0; n--) {
        static const uint64_t coef[] = {1, 2, 3, ~0ull, ~1ull};
        uint32_t t = rnd() % 3 ? tb_bin(b, GBT_OP_MUL, 64, tb_const(b, 64, coef[rnd() % 5]),
                                        tb_un(b, GBT_OP_ZEXT, 64, tb_in(b, rnd() % 3), 0))
                               : tb_const(b, 64, rnd() % 2 ? rnd() % 700 : 0 - rnd() % 700);
        x = tb_bin(b, rnd() % 4 ? GBT_OP_ADD : GBT_OP_SUB, 64, x, t);
    }
    return rnd() % 4 ? x : tb_bin(b, GBT_OP_XOR, 64, tb_const(b, 64, ~0ull), x);
}

static tb_t *sums_trace(uint64_t seed, unsigned taken)
{
    static const unsigned ops[] = {GBT_OP_EQ,  GBT_OP_NE,  GBT_OP_ULT, GBT_OP_ULE, GBT_OP_UGT,
                                   GBT_OP_UGE, GBT_OP_SLT, GBT_OP_SLE, GBT_OP_SGT, GBT_OP_SGE};
    uint64_t keep = rng;
    rng = seed | 1;
    tb_t *b = tb_new(3, 0);
    uint32_t sh = rexpr(b, (int)(rnd() % 3));
    if (rnd() % 2)
        sh = tb_bin(b, GBT_OP_ADD, 64, tb_bin(b, GBT_OP_SUB, 64, sh, tb_const(b, 64, rnd() % 64)),
                    tb_const(b, 64, rnd() % 2 ? 1ull << 62 : (1ull << 63) - rnd() % 512));
    uint32_t x = rside(b, sh), y = rside(b, sh);
    if (rnd() % 2) { /* y = x + a small delta: D near 0 and 1, where the rules turn */
        uint64_t dk = rnd() % 5 - 2;
        uint32_t dt = rnd() % 2 ? tb_const(b, 64, dk)
                                : tb_bin(b, GBT_OP_ADD, 64, tb_const(b, 64, dk),
                                         tb_un(b, GBT_OP_ZEXT, 64,
                                               tb_bin(b, GBT_OP_AND, 8, tb_in(b, rnd() % 3),
                                                      tb_const(b, 8, 1)), 0));
        y = tb_bin(b, GBT_OP_ADD, 64, x, dt);
    }
    tb_pc(b, GBT_PC_BRANCH, taken, 1, tb_bin(b, ops[rnd() % 10], 1, x, y));
    rng = keep;
    return b;
}

/* Random compares of sums: one that holds (or fails) on some input is
 * never refuted for that outcome, and every refutation the interval stage
 * makes is Z3's UNSAT too. It must have refuted some. */
static void sums_random(void)
{
    gb_solver_t *s = solver(GB_SOLVER_NO_CLAUSES | GB_SOLVER_NO_CACHE, 0);
    gb_solver_t *plain = solver(GB_SOLVER_PLAIN, 0);
    unsigned refuted = 0, kept = 0;
    for (int rep = 0; rep < 600; rep++) {
        uint64_t seed = rnd();
        uint8_t in[3] = {(uint8_t)rnd(), (uint8_t)rnd(), (uint8_t)rnd()};
        uint8_t other[3] = {(uint8_t)rnd(), (uint8_t)rnd(), (uint8_t)rnd()};
        if (rep % 8 < 4)
            memset(other, rep % 8 < 2 ? 0 : 0xff, sizeof other);
        tb_t *b = sums_trace(seed, 0);
        gb_trace_t *t = tb_load(b, 0);
        /* the compare's value on `other` (the entry "== 0" holds when it is 0) */
        unsigned v = t ? !gb_trace_eval_pc(t, 0, other, 3) : 0;
        unsigned on_in = t ? !gb_trace_eval_pc(t, 0, in, 3) : 0;
        gb_trace_free(t);
        tb_free(b);
        b = sums_trace(seed, on_in); /* the run on `in` took its own outcome */
        t = tb_load(b, 0);
        CHECK(t != NULL);
        if (!t) {
            tb_free(b);
            continue;
        }
        kept += v != on_in; /* the flip asks for `other`'s outcome */
        check_refutation(s, plain, t, in, v != on_in, "sums", rep, &refuted);
        gb_trace_free(t);
        tb_free(b);
    }
    printf("sums: %u refutations, each confirmed by Z3; %u outcomes another input has, none "
           "refuted\n", refuted, kept);
    CHECK(refuted >= 20 && kept >= 50);
    gb_solver_free(s);
    gb_solver_free(plain);
}

/* ---- Relaxed first ----------------------------------------------------- */

/* x < 5, then ten entries of one site, x < 11 .. x < 20, all taken on
 * x = 0, and five of another, (x | 1) == 0, not taken. Flipping one of the
 * ten contradicts x < 5: Z3 refutes the whole query and ¬PC[j] alone (x >=
 * 11 + k) has a model. The others' flip, (x | 1) == 0, has none at all.
 * With intervals, clauses and the cache off, every query reaches Z3 unless
 * the relaxed-first stage keeps it away. */
static tb_t *relax_trace(void)
{
    tb_t *b = tb_new(1, 0);
    uint32_t x = tb_in(b, 0);
    tb_pc(b, GBT_PC_BRANCH, 1, 100, tb_bin(b, GBT_OP_ULT, 1, x, tb_const(b, 8, 5)));
    for (unsigned k = 0; k < 10; k++)
        tb_pc(b, GBT_PC_BRANCH, 1, 200, tb_bin(b, GBT_OP_ULT, 1, x, tb_const(b, 8, 11 + k)));
    uint32_t odd = tb_bin(b, GBT_OP_OR, 8, x, tb_const(b, 8, 1));
    for (unsigned k = 0; k < 5; k++)
        tb_pc(b, GBT_PC_BRANCH, 0, 300, tb_bin(b, GBT_OP_EQ, 1, odd, tb_const(b, 8, 0)));
    tb_end(b, GBT_END_EXIT, 0, 0);
    return b;
}

/* Flips entries 1..15 of relax_trace; per entry: 'a' whole query asked
 * (2 Z3 calls), 's' skipped (1 call); 'S'/'U'/'T' its answer. */
static void relax_run(gb_solver_t *s, const gb_trace_t *t, const uint8_t *in, char *how, char *ans)
{
    for (size_t j = 1; j <= 15; j++) {
        gb_flip_t f;
        gb_err_t e;
        CHECK(gb_solver_flip(s, t, j, &f, &e) == 0);
        how[j - 1] = f.z3_calls == 2 ? 'a' : f.z3_calls == 1 ? 's' : '?';
        ans[j - 1] = f.status == GB_Q_SAT ? 'S' : f.status == GB_Q_UNSAT ? 'U' : 'T';
        if (f.status == GB_Q_SAT) {
            size_t n;
            uint8_t *ch = tb_combine(in, 1, &f.model, &n);
            CHECK_MSG(gb_trace_eval_pc(t, j, ch, n) == 0, "entry %zu not flipped", j);
            free(ch);
        }
        gb_flip_clear(&f);
    }
    how[15] = ans[15] = '\0';
}

static void relaxed_first(void)
{
    uint8_t in[1] = {0};
    tb_t *b = relax_trace();
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL);
    if (!t) {
        tb_free(b);
        return;
    }
    unsigned off = GB_SOLVER_NO_INTERVALS | GB_SOLVER_NO_CLAUSES | GB_SOLVER_NO_CACHE;
    char how[16], ans[16];
    /* Two refutations in a row, then the whole query skips Z3, except
     * every 8th; a skipped flip with no relaxed model is UNSAT, exactly. */
    gb_solver_t *s = solver(off, 1);
    gb_solver_set_input(s, in, sizeof in);
    relax_run(s, t, in, how, ans);
    CHECK_MSG(!strcmp(how, "aasssssssaaasss") && !strcmp(ans, "SSSSSSSSSSUUUUU"),
              "optimistic: z3 calls %s, answers %s", how, ans);
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    CHECK_MSG(st.relax_skip == 10, "relax_skip %llu, want 10", (unsigned long long)st.relax_skip);
    gb_solver_free(s);
    /* Without the last resort (directed mode's exact flips, repairs),
     * every whole query goes to Z3. */
    s = solver(off, 1);
    gb_solver_set_input(s, in, sizeof in);
    gb_solver_set_last_resort(s, 0);
    relax_run(s, t, in, how, ans);
    CHECK_MSG(!strcmp(ans, "UUUUUUUUUUUUUUU"), "no last resort: answers %s", ans);
    gb_solver_get_stats(s, &st);
    CHECK_MSG(st.relax_skip == 0 && st.queries_z3 == 15, "no last resort: %llu skipped, %llu to Z3",
              (unsigned long long)st.relax_skip, (unsigned long long)st.queries_z3);
    gb_solver_free(s);
    gb_trace_free(t);
    tb_free(b);
}

int main(void)
{
    interval_shapes();
    interval_load_pin();
    intervals();
    clauses();
    cache();
    cache_tables();
    neighbours_first();
    stored_values();
    enumeration();
    hull_random();
    sums();
    sums_random();
    products();
    relaxed_first();
    return check_exit("pipeline");
}
