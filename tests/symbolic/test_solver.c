/* SPDX-License-Identifier: Apache-2.0 */
/* Flipping: models that gb_trace_eval_pc confirms, slicing (unrelated
 * entries out, transitive ones in), optimistic retries, stats, the lecture's
 * top() search, timeouts, and a property test on random traces. */
#include <stdint.h>

#include "gen.h"

/* Plain mode (slicing + Z3): these tests count Z3 calls. The shortcuts
 * have their own tests (test_pipeline.c). */
static gb_solver_t *solver(unsigned timeout_ms, int optimistic)
{
    gb_solver_t *s = NULL;
    gb_err_t e;
    gb_solver_opts_t o = {timeout_ms, optimistic, GB_SOLVER_PLAIN, 0};
    if (gb_solver_new(&o, &s, &e) != 0) {
        fprintf(stderr, "gb_solver_new: %s\n", e.msg);
        exit(1);
    }
    return s;
}

static gb_flip_t flip(gb_solver_t *s, const gb_trace_t *t, size_t j)
{
    gb_flip_t f;
    gb_err_t e = {{0}};
    int r = gb_solver_flip(s, t, j, &f, &e);
    CHECK_MSG(r == 0, "flip %zu: %s", j, e.msg);
    for (size_t i = 1; i < f.model.n; i++)
        CHECK(f.model.offsets[i - 1] < f.model.offsets[i]); /* ascending, each once */
    return f;
}

/* The flipped input: the parent with the model applied. Entry j must now
 * go the other way, and (for an exact model) every entry before j must still
 * hold: slice entries by the query, the others because they share no byte. */
static void check_model(const gb_trace_t *t, size_t j, const uint8_t *in, size_t len,
                        const gb_flip_t *f)
{
    size_t n;
    uint8_t *child = tb_combine(in, len, &f->model, &n);
    CHECK_MSG(gb_trace_eval_pc(t, j, child, n) == 0, "entry %zu not flipped", j);
    for (size_t i = 0; i < j && !f->optimistic; i++) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, i, &pc);
        if (pc.kind != GBT_PC_CHECK) /* never in a slice: a model may break it */
            CHECK_MSG(gb_trace_eval_pc(t, i, child, n) == 1, "flip %zu broke entry %zu", j, i);
    }
    free(child);
}

static int model_has(const gb_model_t *m, uint64_t off, int value)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->offsets[i] == off)
            return value < 0 || m->values[i] == value;
    return 0;
}

static void basic(void)
{
    const uint8_t *in = (const uint8_t *)"abcd";
    tb_t *b = tb_new(4, 0);
    uint32_t b0 = tb_in(b, 0), b1 = tb_in(b, 1), b2 = tb_in(b, 2), b3 = tb_in(b, 3);
    tb_pc(b, GBT_PC_BRANCH, 0, 1, tb_bin(b, GBT_OP_EQ, 1, b0, tb_const(b, 8, 'b')));
    uint32_t sum = tb_bin(b, GBT_OP_ADD, 8, b1, b2);
    tb_pc(b, GBT_PC_BRANCH, 0, 2, tb_bin(b, GBT_OP_EQ, 1, sum, tb_const(b, 8, 7)));
    tb_pc(b, GBT_PC_BRANCH, 1, 3, tb_bin(b, GBT_OP_ULT, 1, b3, tb_const(b, 8, 'x')));
    gb_trace_t *t = tb_load(b, 0);
    gb_solver_t *s = solver(0, 0);
    for (size_t j = 0; j < 3; j++)
        CHECK(gb_trace_eval_pc(t, j, in, 4) == 1);
    gb_flip_t f = flip(s, t, 0);
    CHECK(f.status == GB_Q_SAT && f.slice_size == 0 && !f.optimistic);
    CHECK(f.model.n == 1 && model_has(&f.model, 0, 'b'));
    check_model(t, 0, in, 4, &f);
    gb_flip_clear(&f);
    f = flip(s, t, 1);
    CHECK(f.status == GB_Q_SAT && f.slice_size == 0);
    CHECK(f.model.n == 2 && f.model.offsets[0] == 1 && f.model.offsets[1] == 2);
    CHECK(f.model.n == 2 && ((f.model.values[0] + f.model.values[1]) & 0xff) == 7);
    check_model(t, 1, in, 4, &f);
    gb_flip_clear(&f);
    f = flip(s, t, 2);
    CHECK(f.status == GB_Q_SAT && f.model.n == 1 && f.model.values[0] >= 'x');
    check_model(t, 2, in, 4, &f);
    gb_flip_clear(&f);
    gb_err_t e;
    CHECK(gb_solver_flip(s, t, 3, &f, &e) == -1 && strstr(e.msg, "out of range"));
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    CHECK(st.queries_total == 3 && st.queries_z3 == 3 && st.queries_sat == 3);
    CHECK(st.z3_checks == 3 && st.z3_sat == 3);
    CHECK(st.queries_unsat == 0 && st.queries_timeout == 0 && st.queries_optimistic == 0);
    gb_solver_free(s);
    gb_trace_free(t);
    tb_free(b);
}

/* PC0: b0 < 10; PC1: b1 == b0 + 1; PC2: b5 == 3 (unrelated); PC3: b1 == 5
 * (not taken); PC4: b1 == 'z' (not taken). Input: 04 05 .. */
static void slicing(void)
{
    uint8_t in[6] = {3, 4, 0, 0, 0, 3};
    tb_t *b = tb_new(6, 0);
    uint32_t b0 = tb_in(b, 0), b1 = tb_in(b, 1), b5 = tb_in(b, 5);
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_ULT, 1, b0, tb_const(b, 8, 10)));
    uint32_t inc = tb_bin(b, GBT_OP_ADD, 8, b0, tb_const(b, 8, 1));
    tb_pc(b, GBT_PC_BRANCH, 1, 2, tb_bin(b, GBT_OP_EQ, 1, b1, inc));
    tb_pc(b, GBT_PC_BRANCH, 1, 3, tb_bin(b, GBT_OP_EQ, 1, b5, tb_const(b, 8, 3)));
    tb_pc(b, GBT_PC_BRANCH, 0, 4, tb_bin(b, GBT_OP_EQ, 1, b1, tb_const(b, 8, 5)));
    tb_pc(b, GBT_PC_BRANCH, 0, 5, tb_bin(b, GBT_OP_EQ, 1, b1, tb_const(b, 8, 'z')));
    tb_pc(b, GBT_PC_BRANCH, 1, 6, tb_const(b, 1, 1)); /* constant: nothing to flip */
    gb_trace_t *t = tb_load(b, 0);
    for (size_t j = 0; j < 6; j++)
        CHECK(gb_trace_eval_pc(t, j, in, 6) == 1);
    gb_solver_t *s = solver(0, 0);
    gb_flip_t f = flip(s, t, 3);
    CHECK(f.status == GB_Q_SAT && f.slice_size == 2); /* PC0 via PC1, PC2 excluded */
    CHECK(f.model.n == 2 && model_has(&f.model, 0, 4) && model_has(&f.model, 1, 5));
    CHECK(!model_has(&f.model, 5, -1));
    check_model(t, 3, in, 6, &f);
    gb_flip_clear(&f);
    f = flip(s, t, 4); /* b1 = b0 + 1 <= 10: 'z' is out of reach */
    CHECK(f.status == GB_Q_UNSAT && f.slice_size == 3 && f.model.n == 0);
    gb_flip_clear(&f);
    f = flip(s, t, 2);
    CHECK(f.status == GB_Q_SAT && f.slice_size == 0 && f.model.n == 1 && model_has(&f.model, 5, -1));
    gb_flip_clear(&f);
    f = flip(s, t, 5);
    CHECK(f.status == GB_Q_SKIP);
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    CHECK(st.queries_total == 4 && st.queries_unsat == 1 && st.queries_sat == 2);
    CHECK(st.cut_slice_empty == 1 && st.z3_unsat == 1);
    gb_solver_free(s);
    /* optimistic: no pins in the slice, so straight to ¬PC[4] alone */
    s = solver(0, 1);
    f = flip(s, t, 4);
    CHECK(f.status == GB_Q_SAT && f.optimistic == 1 && f.slice_size == 3);
    CHECK(f.model.n == 1 && model_has(&f.model, 1, 'z'));
    check_model(t, 4, in, 6, &f);
    gb_flip_clear(&f);
    gb_solver_get_stats(s, &st);
    CHECK(st.queries_total == 1 && st.queries_z3 == 2 && st.queries_sat == 1);
    CHECK(st.z3_unsat == 1 && st.z3_sat == 1);
    CHECK(st.queries_optimistic == 1 && st.queries_unsat == 0);
    gb_solver_free(s);
    gb_trace_free(t);
    tb_free(b);
}

/* pin b3 == 0, then b3 == 'X' (not taken): exact UNSAT, optimistic SAT. */
static void pins(void)
{
    tb_t *b = tb_new(4, 0);
    uint32_t b3 = tb_in(b, 3);
    tb_pc(b, GBT_PC_PIN, 1, 1, tb_bin(b, GBT_OP_EQ, 1, b3, tb_const(b, 8, 0)));
    tb_pc(b, GBT_PC_BRANCH, 0, 2, tb_bin(b, GBT_OP_EQ, 1, b3, tb_const(b, 8, 'X')));
    tb_pc(b, GBT_PC_BRANCH, 1, 3, tb_bin(b, GBT_OP_ULT, 1, b3, tb_const(b, 8, 5)));
    tb_pc(b, GBT_PC_BRANCH, 0, 4, tb_bin(b, GBT_OP_EQ, 1, b3, tb_const(b, 8, 'Y')));
    gb_trace_t *t = tb_load(b, 0);
    const uint8_t in[4] = {0, 0, 0, 0};
    gb_solver_t *exact = solver(0, 0), *opt = solver(0, 1);
    gb_flip_t f = flip(exact, t, 0);
    CHECK(f.status == GB_Q_SKIP);
    f = flip(exact, t, 1);
    CHECK(f.status == GB_Q_UNSAT && f.slice_size == 1 && !f.optimistic);
    gb_flip_clear(&f);
    f = flip(opt, t, 0);
    CHECK(f.status == GB_Q_SKIP);
    f = flip(opt, t, 1);
    CHECK(f.status == GB_Q_SAT && f.optimistic == 1 && f.slice_size == 1);
    CHECK(f.model.n == 1 && model_has(&f.model, 3, 'X'));
    check_model(t, 1, in, 4, &f);
    gb_flip_clear(&f);
    gb_solver_stats_t st;
    gb_solver_get_stats(opt, &st);
    /* the pin goes in as an assumption: UNSAT, its literal is the core, drop
     * it and check again: two solver calls */
    CHECK(st.queries_total == 1 && st.z3_checks == 2 && st.queries_optimistic == 1);
    CHECK(st.queries_z3 == 1 && st.z3_sat == 1);
    /* entry 3: b3 < 5 rules 'Y' out whatever the pin says, so the unsat core
     * holds no pin: one call, then ¬PC[3] alone is SAT: a second call */
    f = flip(opt, t, 3);
    CHECK(f.status == GB_Q_SAT && f.optimistic == 1 && f.slice_size == 3);
    CHECK(model_has(&f.model, 3, 'Y'));
    gb_flip_clear(&f);
    gb_solver_get_stats(opt, &st);
    CHECK(st.queries_total == 2 && st.z3_checks == 4 && st.queries_sat == 2);
    CHECK(st.queries_z3 == 3);
    CHECK(st.queries_optimistic == 2 && st.queries_unsat == 0);
    f = flip(exact, t, 3);
    CHECK(f.status == GB_Q_UNSAT);
    gb_flip_clear(&f);
    gb_solver_get_stats(exact, &st);
    CHECK(st.queries_total == 2 && st.z3_checks == 2 && st.queries_unsat == 2);
    gb_solver_free(exact);
    gb_solver_free(opt);
    gb_trace_free(t);
    tb_free(b);
}

/* The lecture's example: top(in[4]) counts matches of "bad!" and aborts at
 * 3 or more. Its trace has one branch per byte (cnt itself is concrete). */
static tb_t *trace_top(const uint8_t in[4])
{
    tb_t *b = tb_new(4, gb_hash64(in, 4, 0));
    for (unsigned i = 0; i < 4; i++) {
        uint32_t x = tb_in(b, i);
        uint32_t c = tb_bin(b, GBT_OP_EQ, 1, x, tb_const(b, 8, (uint8_t)"bad!"[i]));
        tb_pc(b, GBT_PC_BRANCH, in[i] == (uint8_t)"bad!"[i], 0x100 + i, c);
    }
    tb_end(b, GBT_END_EXIT, 0, 0);
    return b;
}

/* SAGE's search with child.bound = j + 1: from "good", exactly 16 distinct
 * runs, no duplicate, and one of them is "bad!". */
static void lecture_top(void)
{
    uint8_t work[64][4];
    size_t bound[64], nw = 0, runs = 0;
    int found_bad = 0, dup = 0;
    memcpy(work[nw], "good", 4);
    bound[nw++] = 0;
    gb_solver_t *s = solver(0, 0);
    uint8_t seen[64][4];
    size_t nseen = 0;
    while (nw > 0 && runs < 60) {
        nw--;
        uint8_t in[4];
        memcpy(in, work[nw], 4);
        size_t bd = bound[nw];
        runs++;
        for (size_t k = 0; k < nseen; k++)
            dup |= memcmp(seen[k], in, 4) == 0;
        memcpy(seen[nseen++], in, 4);
        found_bad |= memcmp(in, "bad!", 4) == 0;
        tb_t *b = trace_top(in);
        gb_trace_t *t = tb_load(b, 0);
        for (size_t j = bd; t && j < 4; j++) {
            gb_flip_t f = flip(s, t, j);
            CHECK(f.status == GB_Q_SAT);
            if (f.status == GB_Q_SAT && nw < 64) {
                size_t n;
                uint8_t *child = tb_combine(in, 4, &f.model, &n);
                memcpy(work[nw], child, 4);
                bound[nw++] = j + 1;
                free(child);
            }
            gb_flip_clear(&f);
        }
        gb_trace_free(t);
        tb_free(b);
    }
    CHECK_MSG(runs == 16, "%zu runs", runs);
    CHECK(!dup && found_bad);
    gb_solver_free(s);
}

/* 3000 entries in 300 components of 2 bytes: ascending j is incremental;
 * any other order must give the same answers. */
static void many_entries(void)
{
    tb_t *b = tb_new(600, 0);
    uint8_t in[600];
    for (int i = 0; i < 600; i++)
        in[i] = (uint8_t)(i * 7);
    for (unsigned k = 0; k < 3000; k++) {
        unsigned c = k % 300;
        uint32_t x = tb_bin(b, GBT_OP_ADD, 8, tb_in(b, 2 * c), tb_in(b, 2 * c + 1));
        uint8_t lim = (uint8_t)(20 + k / 300 * 20);
        uint8_t v = (uint8_t)(in[2 * c] + in[2 * c + 1]);
        tb_pc(b, GBT_PC_BRANCH, v < lim, k, tb_bin(b, GBT_OP_ULT, 1, x, tb_const(b, 8, lim)));
    }
    gb_trace_t *t = tb_load(b, 0);
    gb_solver_t *s = solver(0, 0), *s2 = solver(0, 0);
    static uint8_t status[3000], slice[3000];
    uint64_t t0 = gb_mono_ms();
    for (size_t j = 0; j < 3000; j++) {
        gb_flip_t f = flip(s, t, j);
        status[j] = (uint8_t)f.status;
        slice[j] = (uint8_t)f.slice_size;
        CHECK(f.slice_size == j / 300);
        if (f.status == GB_Q_SAT)
            check_model(t, j, in, sizeof in, &f);
        gb_flip_clear(&f);
    }
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    printf("3000 ascending flips: %llu ms, %llu ms of it in Z3\n",
           (unsigned long long)(gb_mono_ms() - t0), (unsigned long long)st.solver_time_ms);
    for (size_t k = 0; k < 400; k++) {
        size_t j = (k * 7919) % 3000;
        gb_flip_t f = flip(s2, t, j);
        CHECK_MSG(f.status == status[j] && f.slice_size == slice[j], "entry %zu differs", j);
        gb_flip_clear(&f);
    }
    gb_solver_free(s);
    gb_solver_free(s2);
    gb_trace_free(t);
    tb_free(b);
}

/* A chain b0-b1, b1-b2, ..., b9-b10 pulls every link into the slice of b10. */
static void transitive_chain(void)
{
    tb_t *b = tb_new(12, 0);
    uint8_t in[12] = {0};
    for (unsigned i = 0; i < 10; i++)
        tb_pc(b, GBT_PC_BRANCH, 1, i, tb_bin(b, GBT_OP_EQ, 1, tb_in(b, i), tb_in(b, i + 1)));
    tb_pc(b, GBT_PC_BRANCH, 1, 10, tb_bin(b, GBT_OP_EQ, 1, tb_in(b, 11), tb_const(b, 8, 0)));
    tb_pc(b, GBT_PC_BRANCH, 0, 11, tb_bin(b, GBT_OP_EQ, 1, tb_in(b, 10), tb_const(b, 8, 9)));
    gb_trace_t *t = tb_load(b, 0);
    gb_solver_t *s = solver(0, 0);
    gb_flip_t f = flip(s, t, 11);
    CHECK(f.status == GB_Q_SAT && f.slice_size == 10 && f.model.n == 11);
    for (uint64_t i = 0; i <= 10; i++)
        CHECK(model_has(&f.model, i, 9));
    check_model(t, 11, in, 12, &f);
    gb_flip_clear(&f);
    gb_solver_free(s);
    gb_trace_free(t);
    tb_free(b);
}

/* CHECK entries (bounds checks) stay out of other queries' slices and link
 * no bytes, but flip like branches with their own slice. */
static void checks(void)
{
    const uint8_t in[2] = {20, 7};
    tb_t *b = tb_new(2, 0);
    uint32_t b0 = tb_in(b, 0), b1 = tb_in(b, 1);
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_EQ, 1, b1, tb_const(b, 8, 7)));
    uint32_t idx = tb_bin(b, GBT_OP_ADD, 8, b0, b1);
    uint32_t wide = tb_un(b, GBT_OP_SEXT, 64, idx, 0);
    tb_pc(b, GBT_PC_CHECK, 1, 2, tb_bin(b, GBT_OP_ULT, 1, wide, tb_const(b, 64, 100)));
    tb_pc(b, GBT_PC_BRANCH, 0, 3, tb_bin(b, GBT_OP_EQ, 1, b0, tb_const(b, 8, 3)));
    tb_pc(b, GBT_PC_CHECK, 1, 4, tb_bin(b, GBT_OP_ULT, 1, wide, tb_const(b, 64, 30)));
    gb_trace_t *t = tb_load(b, 0);
    for (size_t j = 0; j < 4; j++)
        CHECK(gb_trace_eval_pc(t, j, in, 2) == 1);
    gb_pc_info_t pc;
    gb_trace_get_pc(t, 1, &pc);
    CHECK(pc.kind == GBT_PC_CHECK);
    gb_solver_t *s = solver(0, 0);
    gb_flip_t f = flip(s, t, 2); /* the CHECK neither joins nor links b0 to b1 */
    CHECK(f.status == GB_Q_SAT && f.slice_size == 0 && f.model.n == 1);
    check_model(t, 2, in, 2, &f);
    gb_flip_clear(&f);
    f = flip(s, t, 1); /* out of bounds: b1 == 7 comes along, b0 + 7 >= 100 or < 0 */
    CHECK(f.status == GB_Q_SAT && f.slice_size == 1 && f.model.n == 2);
    CHECK(model_has(&f.model, 1, 7));
    check_model(t, 1, in, 2, &f);
    gb_flip_clear(&f);
    f = flip(s, t, 3); /* slice: PC0 and PC2, not the CHECK at 1 */
    CHECK(f.status == GB_Q_SAT && f.slice_size == 2);
    check_model(t, 3, in, 2, &f);
    gb_flip_clear(&f);
    gb_solver_free(s);
    gb_trace_free(t);
    tb_free(b);
}

/* Input offsets past the input length are still variables. */
static void past_input_len(void)
{
    tb_t *b = tb_new(2, 0);
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_EQ, 1, tb_in(b, 1000), tb_const(b, 8, 0)));
    gb_trace_t *t = tb_load(b, 0);
    CHECK(gb_trace_eval_pc(t, 0, (const uint8_t *)"ab", 2) == 1);
    gb_solver_t *s = solver(0, 0);
    gb_flip_t f = flip(s, t, 0);
    CHECK(f.status == GB_Q_SAT && f.model.n == 1 && f.model.offsets[0] == 1000 &&
          f.model.values[0] != 0);
    gb_flip_clear(&f);
    gb_solver_free(s);
    gb_trace_free(t);
    tb_free(b);
}

/* Factoring a 64-bit semiprime (both factors < 2^32) within 30 ms: no.
 * The factors must look random: 2^32 - 5 and 2^32 - 17 (mostly one bits,
 * Z3's first guesses) were found in ~50 ms, so the case passed or failed
 * with the machine's load. These two were not found in 120 s (Z3 4.8.12),
 * 4,000 times the limit, so the limit is what answers. The wall-clock
 * limit stays: it is the one production sets. semiprime() records the
 * bounds on x = bytes 0-7 and y = bytes 8-15 (entries 0-3) and x * y == n
 * (entry 4) with direction `taken`. */
static void semiprime(tb_t *b, unsigned taken)
{
    uint32_t x = tb_in(b, 0), y = tb_in(b, 8);
    for (unsigned k = 1; k < 8; k++) {
        x = tb_bin(b, GBT_OP_CONCAT, 8 * (k + 1), tb_in(b, k), x);
        y = tb_bin(b, GBT_OP_CONCAT, 8 * (k + 1), tb_in(b, 8 + k), y);
    }
    uint32_t lim = tb_const(b, 64, 1ull << 32), one = tb_const(b, 64, 1);
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_ULT, 1, x, lim));
    tb_pc(b, GBT_PC_BRANCH, 1, 2, tb_bin(b, GBT_OP_ULT, 1, y, lim));
    tb_pc(b, GBT_PC_BRANCH, 1, 3, tb_bin(b, GBT_OP_UGT, 1, x, one));
    tb_pc(b, GBT_PC_BRANCH, 1, 4, tb_bin(b, GBT_OP_UGT, 1, y, one));
    uint64_t n = 3614901151ull * 2170124993ull; /* two primes in [2^31, 2^32) */
    uint32_t prod = tb_bin(b, GBT_OP_MUL, 64, x, y);
    tb_pc(b, GBT_PC_BRANCH, taken, 5, tb_bin(b, GBT_OP_EQ, 1, prod, tb_const(b, 64, n)));
}

static void timeout(void)
{
    tb_t *b = tb_new(16, 0);
    semiprime(b, 0);
    gb_trace_t *t = tb_load(b, 0);
    gb_solver_t *s = solver(30, 0);
    uint64_t t0 = gb_mono_ms();
    gb_flip_t f = flip(s, t, 4);
    CHECK(f.status == GB_Q_TIMEOUT && f.model.n == 0);
    CHECK(gb_mono_ms() - t0 < 5000);
    gb_flip_clear(&f);
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    /* Not optimistic: the retry, ¬PC[4] alone, has easy models (x = n,
     * y = 1) that the simple solver missed in 30 ms but bit-blasting finds
     * when the machine lets it, so it would make the count depend on load.
     * The simple solver's eighth of the limit and the tactic's rest both
     * run out. */
    CHECK(st.queries_timeout == 1 && st.queries_z3 == 1 && st.queries_sat == 0);
    CHECK(st.z3_timeout == 1);
    gb_solver_free(s);
    gb_trace_free(t);
    tb_free(b);
}

/* The same factoring, taken, before a flip of byte 0 alone: the slice
 * holds the product and its bounds, so Z3 cannot decide the query in
 * 30 ms (it is UNSAT: neither factor ends in 'A'); QSYM's last resort,
 * ¬PC[5] alone, then gives an optimistic model (before, the flip ended in
 * the timeout). */
static void timeout_then_optimistic(void)
{
    tb_t *b = tb_new(16, 0);
    semiprime(b, 1); /* neither factor ends in 'A' */
    tb_pc(b, GBT_PC_BRANCH, 0, 6, tb_bin(b, GBT_OP_EQ, 1, tb_in(b, 0), tb_const(b, 8, 'A')));
    gb_trace_t *t = tb_load(b, 0);
    for (int optimistic = 0; optimistic <= 1; optimistic++) {
        gb_solver_t *s = solver(30, optimistic);
        gb_flip_t f = flip(s, t, 5);
        if (optimistic) {
            CHECK(f.status == GB_Q_SAT && f.optimistic == 1 && f.slice_size == 5);
            CHECK(f.model.n == 1 && f.model.offsets[0] == 0 && f.model.values[0] == 'A');
        } else {
            CHECK(f.status == GB_Q_TIMEOUT && f.model.n == 0);
        }
        gb_solver_stats_t st;
        gb_solver_get_stats(s, &st);
        CHECK(st.z3_timeout == 1 && st.queries_z3 == 1u + (unsigned)optimistic);
        CHECK(st.queries_optimistic == (unsigned)optimistic);
        gb_flip_clear(&f);
        gb_solver_free(s);
    }
    gb_trace_free(t);
    tb_free(b);
}

/* Random valid traces with the real directions for a random input: every
 * exact model flips entry j and keeps every entry before it. */
static void random_traces(void)
{
    gb_solver_t *s = solver(2000, 1);
    size_t sat = 0, checked = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        uint8_t in[8];
        for (int k = 0; k < 8; k++)
            in[k] = (uint8_t)(seed * 37 + (uint64_t)k * 101);
        tb_t *b = gen_trace_for(seed, 80, 14, in);
        gb_trace_t *t = tb_load(b, 0);
        gb_trace_info_t info;
        gb_trace_get_info(t, &info);
        for (size_t j = 0; j < info.pcs; j++) {
            gb_pc_info_t pc;
            gb_trace_get_pc(t, j, &pc);
            CHECK(gb_trace_eval_pc(t, j, in, 8) == 1); /* in follows the whole path */
            if (pc.kind == GBT_PC_PIN)
                continue;
            gb_flip_t f = flip(s, t, j);
            if (f.status == GB_Q_SAT) {
                sat++;
                check_model(t, j, in, 8, &f);
                checked += !f.optimistic;
            }
            gb_flip_clear(&f);
        }
        gb_trace_free(t);
        tb_free(b);
    }
    printf("random traces: %zu SAT flips, %zu exact ones checked in full\n", sat, checked);
    CHECK(checked > 100);
    gb_solver_free(s);
}

int main(void)
{
    basic();
    slicing();
    pins();
    lecture_top();
    many_entries();
    transitive_chain();
    checks();
    past_input_len();
    timeout();
    timeout_then_optimistic();
    random_traces();
    return check_exit("symbolic_solver");
}
