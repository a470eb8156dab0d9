/* SPDX-License-Identifier: Apache-2.0 */
/* The bounds that keep a long campaign's memory flat (issue 13): the
 * learned clauses and the answer cache each drop their older half at
 * their cap (GB_CLAUSES_MAX, GB_CACHE_MAX), keep answering from the newer
 * half, and the cache still saves and loads whole; the Z3 context is made
 * anew when it grew by more than GB_Z3_GROWTH_MAX_MB, and then nothing of
 * a query is left in Z3 (the input bytes' names included); a check that
 * takes Z3 over its cap (GB_Z3_QUERY_MAX_MB) is stopped, and a chain of
 * sums the guard could not stop stays small. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "tb.h"
#include "z3_int.h" /* symbolic_int.h and z3.h */

static void clauses_bound(void)
{
    gb_clauses_t *c = gb_clauses_new();
    CHECK(c != NULL);
    const size_t total = GB_CLAUSES_MAX + 10;
    int bad = 0;
    for (uint64_t i = 0; i < total; i++) {
        uint64_t l[2] = {4 * i + 8, 4 * i + 9};
        bad += gb_clauses_add(c, l, 2, 1) != 1;
    }
    CHECK(bad == 0);
    size_t local;
    CHECK(gb_clauses_count(c, &local) == GB_CLAUSES_MAX / 2 + 10);
    CHECK(local == GB_CLAUSES_MAX / 2 + 10);
    CHECK(gb_clauses_evicted(c) == GB_CLAUSES_MAX / 2);
    CHECK(gb_clauses_local_added(c) == total);
    /* the newest and one of the newer half still prune; the oldest not */
    uint64_t newest[3] = {4 * (total - 1) + 8, 4 * (total - 1) + 9, 3};
    uint64_t newer[2] = {4 * (GB_CLAUSES_MAX / 2 + 1) + 9, 4 * (GB_CLAUSES_MAX / 2 + 1) + 8};
    uint64_t oldest[2] = {8, 9};
    CHECK(gb_clauses_match(c, newest, 3) == 1);
    CHECK(gb_clauses_match(c, newer, 2) == 1);
    CHECK(gb_clauses_match(c, oldest, 2) == 0);
    /* a dropped clause can be learned again; a kept one is known */
    CHECK(gb_clauses_add(c, oldest, 2, 1) == 1);
    CHECK(gb_clauses_add(c, newest, 2, 1) == 0);
    gb_clauses_free(c);
}

static void put(gb_cache_t *c, uint64_t i)
{
    uint32_t off[2] = {(uint32_t)i, (uint32_t)i + 1};
    uint8_t val[2] = {(uint8_t)i, (uint8_t)(i >> 8)};
    uint64_t key[2] = {i * 0x9e3779b97f4a7c15ull + 1, i};
    gb_answer_t a = {GB_Q_SAT, 0, 0, 2, off, val};
    CHECK(gb_cache_put(c, key, &a) == 1);
}

static int has(const gb_cache_t *c, uint64_t i)
{
    uint64_t key[2] = {i * 0x9e3779b97f4a7c15ull + 1, i};
    gb_answer_t a;
    if (!gb_cache_get(c, key, &a))
        return 0;
    return a.status == GB_Q_SAT && a.n == 2 && a.offs[0] == (uint32_t)i &&
           a.vals[1] == (uint8_t)(i >> 8);
}

static void cache_bound(void)
{
    char dir[] = "/tmp/gb-bounds.XXXXXX", path[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/answers", dir);
    gb_cache_t *c = gb_cache_new();
    gb_err_t e;
    const uint64_t total = GB_CACHE_MAX + 10;
    for (uint64_t i = 0; i < GB_CACHE_MAX; i++)
        put(c, i);
    CHECK(gb_cache_save(c, path, dir, &e) == 0 && !gb_cache_dirty(c));
    for (uint64_t i = GB_CACHE_MAX; i < total; i++)
        put(c, i);
    CHECK(gb_cache_count(c) == GB_CACHE_MAX / 2 + 10);
    CHECK(gb_cache_evicted(c) == GB_CACHE_MAX / 2);
    CHECK(gb_cache_dirty(c));
    CHECK(has(c, total - 1) && has(c, GB_CACHE_MAX / 2 + 3) && !has(c, 0) && !has(c, 17));
    CHECK(gb_cache_save(c, path, dir, &e) == 0 && !gb_cache_dirty(c));
    gb_cache_t *d = gb_cache_new();
    CHECK(gb_cache_load(d, path, &e) == 0);
    CHECK(gb_cache_count(d) == GB_CACHE_MAX / 2 + 10 && has(d, total - 1) && !has(d, 0));
    gb_cache_free(d);
    gb_cache_free(c);
    unlink(path);
    rmdir(dir);
}

/* The Z3 context made anew once it grew: counted, and usable after
 * (its constants and sorts made again, none left from the old one). */
static void z3_renewal(void)
{
    gb_z3_t *z;
    gb_err_t e;
    CHECK(gb_z3_new(&z, &e) == 0);
    CHECK(gb_z3_bv_sort(z, 8) != NULL);
    /* Nothing grew yet: no renewal even with no room for growth. */
    CHECK(gb_z3_renew_if_over(z, 0, &e) == 0 && gb_z3_renewals(z) == 0);
    /* Terms that stay referenced make the context grow (the renewal frees
     * them with the context). */
    Z3_context c = gb_z3_ctx(z);
    Z3_sort s32 = gb_z3_bv_sort(z, 32);
    Z3_ast acc = Z3_mk_const(c, Z3_mk_int_symbol(c, 1), s32);
    for (unsigned i = 0; i < 2000 && acc; i++) {
        acc = Z3_mk_bvadd(c, acc, Z3_mk_unsigned_int64(c, i, s32));
        if (acc)
            Z3_inc_ref(c, acc);
    }
    CHECK(acc != NULL);
    uint64_t grown = gb_z3_mem_bytes();
    CHECK(gb_z3_renew_if_over(z, SIZE_MAX, &e) == 0 && gb_z3_renewals(z) == 0);
    CHECK(gb_z3_renew_if_over(z, 0, &e) == 1 && gb_z3_renewals(z) == 1);
    /* The context's memory went back to Z3 (its estimate dropped). */
    CHECK(gb_z3_mem_bytes() < grown);
    CHECK(gb_z3_mem_bytes() > 0);
    Z3_sort s8 = gb_z3_bv_sort(z, 8);
    CHECK(s8 != NULL && gb_z3_bit(z, 1) != NULL);
    Z3_ast x = Z3_mk_unsigned_int64(gb_z3_ctx(z), 200, s8);
    uint64_t v = 0;
    CHECK(x && Z3_get_numeral_uint64(gb_z3_ctx(z), x, &v) && v == 200);
    gb_z3_free(z);
}

/* A query over many input bytes, and the renewal at its end: Z3's
 * estimate goes back to where a fresh context starts. With a string name per byte ("b123"),
 * which Z3 keeps for the life of the process, 15,000 bytes left ~0.8 MB. */
static void z3_names_freed(void)
{
    enum { NBYTES = 15000 };
    tb_t *b = tb_new(NBYTES, 0);
    for (uint64_t i = 0; i < NBYTES; i++)
        tb_pc(b, GBT_PC_BRANCH, 1, (uint32_t)i + 1,
              tb_bin(b, GBT_OP_EQ, 1, tb_in(b, i), tb_const(b, 8, 'A' + i % 26)));
    tb_end(b, GBT_END_EXIT, 0, 0);
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL && t->npcs == NBYTES);
    gb_z3_t *z;
    gb_err_t e;
    CHECK(gb_z3_new(&z, &e) == 0);
    uint64_t fresh = gb_z3_mem_bytes();
    gb_conj_t *cj = calloc(NBYTES, sizeof *cj);
    uint32_t var = 0;
    uint8_t val = 0;
    gb_z3_out_t o = {0};
    gb_qstatus_t st = GB_Q_TIMEOUT;
    for (size_t i = 0; t && cj && i < t->npcs; i++)
        cj[i] = (gb_conj_t){t->pcs[i].node, t->pcs[i].taken, 0};
    if (t && cj) {
        var = t->dag.nodes[t->dag.nodes[t->pcs[0].node].args[0]].op == GBT_OP_INPUT
                  ? t->dag.nodes[t->pcs[0].node].args[0]
                  : t->dag.nodes[t->pcs[0].node].args[1];
        CHECK(gb_z3_check(z, &(gb_z3_query_t){t, cj, t->npcs}, &(gb_z3_vars_t){&var, 1, &val},
                          &(gb_z3_limits_t){.timeout_ms = 20000}, &o, &e) == 0);
        st = o.status;
        CHECK(st == GB_Q_SAT && val == 'A');
    }
    /* The query grew Z3 by more than GB_Z3_GROWTH_MAX_MB (~30 MiB), so its
     * end made the context anew, within the trace. */
    CHECK(gb_z3_renewals(z) == 1);
    uint64_t after = gb_z3_mem_bytes();
    if (after > fresh + (256u << 10))
        fprintf(stderr, "Z3 held %llu KB after the renewal, %llu KB when fresh\n",
                (unsigned long long)(after >> 10), (unsigned long long)(fresh >> 10));
    CHECK(after <= fresh + (256u << 10));
    gb_z3_free(z);
    free(cj);
    gb_trace_free(t);
    tb_free(b);
}

/* 64-bit big-endian x from input bytes [off, off+8). */
static uint32_t be64(tb_t *b, uint64_t off)
{
    uint32_t x = tb_in(b, off);
    for (unsigned i = 1; i < 8; i++)
        x = tb_bin(b, GBT_OP_CONCAT, 8 * (i + 1), x, tb_in(b, off + i));
    return x;
}

/* vars[i] = the INPUT node of byte i, for i < n (t may be NULL). */
static void input_nodes(const gb_trace_t *t, uint32_t *vars, unsigned n)
{
    for (unsigned i = 0; t && i < n; i++)
        for (uint32_t k = 0; k < t->dag.n; k++)
            if (t->dag.nodes[k].op == GBT_OP_INPUT && t->dag.nodes[k].imm == i)
                vars[i] = k;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A factoring query that takes Z3 seconds and many MiB: x * y = the
 * product of two primes, x and y 64-bit from input bytes 0-7 and 8-15,
 * below 2^32 and above 1 (PCs 0-4, in cj); PC 5 reads byte 0 alone. */
typedef struct factoring {
    tb_t *b;
    gb_trace_t *t;
    gb_z3_t *z;
    uint32_t vars[16];
    gb_conj_t cj[5];
} factoring_t;

static void factoring_open(factoring_t *f)
{
    tb_t *b = f->b = tb_new(16, 0);
    uint32_t x = be64(b, 0), y = be64(b, 8);
    uint32_t lim = tb_const(b, 64, 1ull << 32), one = tb_const(b, 64, 1);
    /* (2^31 - 1) * 2147483629: two primes, so x and y must be them */
    uint32_t n = tb_const(b, 64, 2147483647ull * 2147483629ull);
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_ULT, 1, x, lim));
    tb_pc(b, GBT_PC_BRANCH, 1, 2, tb_bin(b, GBT_OP_ULT, 1, y, lim));
    tb_pc(b, GBT_PC_BRANCH, 1, 3, tb_bin(b, GBT_OP_UGT, 1, x, one));
    tb_pc(b, GBT_PC_BRANCH, 1, 4, tb_bin(b, GBT_OP_UGT, 1, y, one));
    tb_pc(b, GBT_PC_BRANCH, 1, 5, tb_bin(b, GBT_OP_EQ, 1, tb_bin(b, GBT_OP_MUL, 64, x, y), n));
    tb_pc(b, GBT_PC_BRANCH, 1, 6, tb_bin(b, GBT_OP_EQ, 1, tb_in(b, 0), tb_const(b, 8, 0)));
    tb_end(b, GBT_END_EXIT, 0, 0);
    gb_trace_t *t = f->t = tb_load(b, 0);
    CHECK(t != NULL && t->npcs == 6);
    gb_err_t e;
    CHECK(gb_z3_new(&f->z, &e) == 0);
    input_nodes(t, f->vars, 16);
    for (size_t i = 0; t && i < 5; i++)
        f->cj[i] = (gb_conj_t){t->pcs[i].node, t->pcs[i].taken, 0};
}

/* Checks the factoring query with a time limit; its answer. */
static gb_qstatus_t factoring_check(factoring_t *f, unsigned ms)
{
    gb_z3_out_t o = {0};
    gb_qstatus_t st = GB_Q_SKIP;
    uint8_t vals[16];
    gb_err_t e;
    CHECK(f->t &&
          gb_z3_check(f->z, &(gb_z3_query_t){f->t, f->cj, 5}, &(gb_z3_vars_t){f->vars, 16, vals},
                      &(gb_z3_limits_t){.timeout_ms = ms}, &o, &e) == 0);
    st = o.status;
    return st;
}

static void factoring_close(factoring_t *f)
{
    gb_z3_free(f->z);
    gb_trace_free(f->t);
    tb_free(f->b);
}

/* The memory guard: a check that allocates more than its cap is stopped
 * (here with a 1 MiB cap, the factoring query), answers as a timeout long
 * before its time limit, and the context made anew after it answers the
 * next query. */
static void z3_memout(void)
{
    factoring_t f;
    factoring_open(&f);
    gb_z3_set_query_cap(f.z, 1u << 20);
    double t0 = now_s();
    CHECK(factoring_check(&f, 60000) == GB_Q_TIMEOUT);
    double took = now_s() - t0;
    CHECK(gb_z3_memouts(f.z) == 1);
    CHECK(gb_z3_renewals(f.z) == 1);
    if (took > 30)
        fprintf(stderr, "the stopped check took %.1f s\n", took);
    CHECK(took < 30);
    /* the new context answers: byte 0 of x can be 0 */
    gb_z3_set_query_cap(f.z, 0);
    gb_conj_t easy = {f.t ? f.t->pcs[5].node : 0, 1, 0};
    gb_z3_out_t o = {0};
    gb_qstatus_t st = GB_Q_SKIP;
    uint8_t vals[1];
    gb_err_t e;
    CHECK(f.t && gb_z3_check(f.z, &(gb_z3_query_t){f.t, &easy, 1}, &(gb_z3_vars_t){f.vars, 1, vals},
                             &(gb_z3_limits_t){.timeout_ms = 20000}, &o, &e) == 0);
    st = o.status;
    CHECK(st == GB_Q_SAT && vals[0] == 0);
    CHECK(gb_z3_memouts(f.z) == 1);
    factoring_close(&f);
}

/* Runs the factoring query in a child with a ceiling `above` bytes over
 * what Z3 holds (0: none); returns the child's wait status, its stderr in
 * `err`. */
static int ceiling_child(size_t above, char *err, size_t n)
{
    int pfd[2];
    if (pipe(pfd) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pfd[1], 2);
        close(pfd[0]);
        factoring_t f;
        factoring_open(&f);
        if (above)
            gb_z3_set_ceiling(f.z, (size_t)gb_z3_mem_bytes() + above, 42, "test: over the ceiling");
        factoring_check(&f, 3000);
        factoring_close(&f);
        _exit(0);
    }
    close(pfd[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < n && (r = read(pfd[0], err + got, n - 1 - got)) > 0)
        got += (size_t)r;
    err[got] = '\0';
    close(pfd[0]);
    int status = -1;
    waitpid(pid, &status, 0);
    return status;
}

/* The ceiling (gb_z3_set_ceiling): once Z3 holds more than it during a
 * check, the guard's thread ends the process with the given status and one
 * line naming it, while the check runs (the check never returns); without
 * a ceiling the same query runs to its end. Here the ceiling sits 4 MiB
 * above what Z3 holds before the factoring query, and the query's own cap
 * (the interrupt) stays at its default. */
static void z3_ceiling(void)
{
    char err[512];
    int st = ceiling_child(4u << 20, err, sizeof err);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 42, "ceiling: wait status %#x", st);
    CHECK_MSG(strncmp(err, "test: over the ceiling (", 24) == 0 && strstr(err, "status 42\n") &&
                  strchr(err, '\n') == err + strlen(err) - 1,
              "ceiling: not one line naming it: %s", err);
    st = ceiling_child(0, err, sizeof err);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0 && !err[0], "no ceiling: status %#x, %s", st,
              err);
}

static void timers_hung(int sig)
{
    (void)sig;
    static const char msg[] = "z3_timers: 1 ms checks of the bit-blasting solver hung\n";
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(1);
    _exit(1);
}

/* Z3 4.8.12 deadlocks a check that runs one of its timers inside another
 * when the outer fires first: the bit-blasting solver's try_for with the
 * solver's own timeout as well hung within a few hundred 1 ms checks
 * (a soak's worker, for 35 minutes). The bridge's solver runs one timer:
 * 2,000 such checks of the factoring query end (SIGALRM after 120 s
 * fails the test instead of hanging it). */
static void z3_timers(void)
{
    gb_z3_t *z;
    gb_err_t e;
    CHECK(gb_z3_new(&z, &e) == 0);
    Z3_context c = gb_z3_ctx(z);
    Z3_sort bv = Z3_mk_bv_sort(c, 64);
    Z3_ast x = Z3_mk_const(c, Z3_mk_string_symbol(c, "x"), bv);
    Z3_inc_ref(c, x);
    Z3_ast y = Z3_mk_const(c, Z3_mk_string_symbol(c, "y"), bv);
    Z3_inc_ref(c, y);
    Z3_ast n = Z3_mk_unsigned_int64(c, 2147483647ull * 2147483629ull, bv);
    Z3_inc_ref(c, n);
    Z3_ast xy = Z3_mk_bvmul(c, x, y);
    Z3_inc_ref(c, xy);
    Z3_ast eq = Z3_mk_eq(c, xy, n);
    Z3_inc_ref(c, eq);
    signal(SIGALRM, timers_hung);
    alarm(120);
    int made = 0;
    for (int i = 0; i < 2000; i++) {
        Z3_solver s = gb_z3_mk_blast_solver(z, 1);
        if (!s)
            break;
        made++;
        Z3_solver_assert(c, s, eq);
        Z3_solver_check(c, s);
        Z3_solver_dec_ref(c, s);
    }
    alarm(0);
    CHECK(made == 2000);
    Z3_dec_ref(c, eq);
    Z3_dec_ref(c, xy);
    Z3_dec_ref(c, n);
    Z3_dec_ref(c, y);
    Z3_dec_ref(c, x);
    gb_z3_free(z);
}

/* The process's peak resident memory (VmHWM), in KiB. */
static long hwm_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A parser skipping a chunk in 1 KiB pieces: r' = r - min(r, 1024), 90
 * times, from a 32-bit length. Z3's rewriter flattens nested sums by
 * default, which made the 90 steps 90 sums of up to 90 terms that the
 * simple solver blasted for seconds past its limit and its interrupt, to
 * 1-2 GiB. Such a query (GB_Z3_SUM_CHAIN) names each sum that would
 * flatten to GB_Z3_NAME_TERMS (16) terms or more (z3_bridge.c, name_sum),
 * so it ends near its 500 ms limit under 300 MiB, and the
 * process-wide rewriter.flat stays as it was. Memory and the time taken
 * are checked: the guard cannot stop this. */
static void z3_sum_chain(void)
{
    tb_t *b = tb_new(4, 0);
    uint32_t r = tb_in(b, 0);
    for (unsigned i = 1; i < 4; i++)
        r = tb_bin(b, GBT_OP_CONCAT, 8 * (i + 1), r, tb_in(b, i));
    uint32_t r0 = r, k = tb_const(b, 32, 1024);
    for (unsigned i = 0; i < 90; i++)
        r = tb_bin(b, GBT_OP_SUB, 32, r,
                   tb_node(b, GBT_OP_ITE, 32, 3, tb_bin(b, GBT_OP_ULE, 1, k, r), k, r, 0));
    tb_pc(b, GBT_PC_BRANCH, 1, 1, tb_bin(b, GBT_OP_ULT, 1, tb_const(b, 32, 0x16000), r0));
    tb_pc(b, GBT_PC_BRANCH, 0, 2, tb_bin(b, GBT_OP_EQ, 1, r, tb_const(b, 32, 7)));
    tb_end(b, GBT_END_EXIT, 0, 0);
    gb_trace_t *t = tb_load(b, 0);
    CHECK(t != NULL && t->npcs == 2);
    gb_z3_t *z;
    gb_err_t e;
    CHECK(gb_z3_new(&z, &e) == 0);
    uint32_t vars[4];
    input_nodes(t, vars, 4);
    gb_conj_t cj[2] = {{t ? t->pcs[0].node : 0, 1, 0}, {t ? t->pcs[1].node : 0, 1, 0}};
    gb_z3_out_t o = {0};
    uint8_t vals[4];
    long before = hwm_kb();
    double t0 = mono_s();
    CHECK(t && gb_z3_check(z, &(gb_z3_query_t){t, cj, 2}, &(gb_z3_vars_t){vars, 4, vals},
                           &(gb_z3_limits_t){.timeout_ms = 500}, &o, &e) == 0);
    double took = mono_s() - t0;
    long after = hwm_kb();
    fprintf(stderr, "sum chain: %s in %.0f ms, %u checks, peak %ld -> %ld KiB\n",
            o.status == GB_Q_SAT       ? "sat"
            : o.status == GB_Q_TIMEOUT ? "timeout"
                                       : "other",
            took * 1000, o.checks, before, after);
    CHECK(o.status == GB_Q_SAT || o.status == GB_Q_TIMEOUT);
    CHECK(before > 0 && after <= before + (300L << 10));
    /* flattened, the simple solver alone took 6.8 s past its 500 ms */
    CHECK(took < 3.0);
    const char *flat = NULL;
    CHECK(Z3_global_param_get("rewriter.flat", &flat) && flat && strcmp(flat, "true") == 0);
    gb_z3_free(z);
    gb_trace_free(t);
    tb_free(b);
}

int main(void)
{
    clauses_bound();
    cache_bound();
    z3_renewal();
    z3_names_freed();
    z3_memout();
    z3_ceiling();
    z3_timers();
    z3_sum_chain();
    if (check_failures)
        fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures != 0;
}
