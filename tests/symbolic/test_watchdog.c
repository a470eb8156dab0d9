/* SPDX-License-Identifier: Apache-2.0 */
/* A solver that stops when told (issue 34): the guard thread interrupts a
 * Z3 check when the caller's stop flag is set (from another thread or a
 * signal handler) or its end of run passes, and a check that outlives its
 * limit; a query's checks share one budget. Each case fails on 57480e0,
 * where only the memory guard interrupted checks. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "tb.h"
#include "z3_int.h" /* symbolic_int.h and z3.h */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 64-bit big-endian value of input bytes [off, off+8). */
static uint32_t be64(tb_t *b, uint64_t off)
{
    uint32_t x = tb_in(b, off);
    for (unsigned i = 1; i < 8; i++)
        x = tb_bin(b, GBT_OP_CONCAT, 8 * (i + 1), x, tb_in(b, off + i));
    return x;
}

/* An FNV-style hash of input bytes 0-15: h = (h ^ byte) * prime, 64-bit.
 * Products by constants only, so the query goes the bit-blasting way. */
static uint32_t fnv(tb_t *b, uint64_t prime)
{
    uint32_t h = tb_const(b, 64, 0xcbf29ce484222325ull), p = tb_const(b, 64, prime);
    for (uint64_t i = 0; i < 16; i++) {
        uint32_t x = tb_un(b, GBT_OP_ZEXT, 64, tb_in(b, i), 0);
        h = tb_bin(b, GBT_OP_MUL, 64, tb_bin(b, GBT_OP_XOR, 64, h, x), p);
    }
    return h;
}

/* Two hard queries over input bytes 0-15 (vars), each two conjuncts:
 * factoring (x * y = the product of two primes, x and y from bytes 0-7
 * and 8-15, both above 1 and below 2^32: Z3's simple solver for the whole limit, as a
 * product of inputs; 16-28 s for Z3 on an idle machine) and inverting
 * two 64-bit hashes at once (an eighth of the limit for the simple
 * solver, then the qfbv tactic; Z3 may answer it in a second or two). */
typedef struct hard {
    tb_t *b;
    gb_trace_t *t;
    gb_z3_t *z;
    uint32_t vars[16];
    gb_conj_t factor[2], hash[2];
} hard_t;

static void hard_open(hard_t *h)
{
    tb_t *b = h->b = tb_new(16, 0);
    uint32_t x = be64(b, 0), y = be64(b, 8), one = tb_const(b, 64, 1);
    uint32_t lim = tb_const(b, 64, 1ull << 32);
    uint32_t n = tb_const(b, 64, 2147483647ull * 2147483629ull);
    uint32_t big = tb_bin(b, GBT_OP_AND, 1, tb_bin(b, GBT_OP_UGT, 1, x, one),
                          tb_bin(b, GBT_OP_UGT, 1, y, one));
    uint32_t small = tb_bin(b, GBT_OP_AND, 1, tb_bin(b, GBT_OP_ULT, 1, x, lim),
                            tb_bin(b, GBT_OP_ULT, 1, y, lim));
    big = tb_bin(b, GBT_OP_AND, 1, big, small);
    tb_pc(b, GBT_PC_BRANCH, 1, 1, big);
    tb_pc(b, GBT_PC_BRANCH, 0, 2, tb_bin(b, GBT_OP_EQ, 1, tb_bin(b, GBT_OP_MUL, 64, x, y), n));
    tb_pc(b, GBT_PC_BRANCH, 0, 3,
          tb_bin(b, GBT_OP_EQ, 1, fnv(b, 0x100000001b3ull), tb_const(b, 64, 0x0123456789abcdefull)));
    tb_pc(b, GBT_PC_BRANCH, 0, 4,
          tb_bin(b, GBT_OP_EQ, 1, fnv(b, 0x9e3779b97f4a7c15ull), tb_const(b, 64, 0xfedcba9876543210ull)));
    tb_end(b, GBT_END_EXIT, 0, 0);
    gb_trace_t *t = h->t = tb_load(b, 0);
    CHECK(t != NULL && t->npcs == 4);
    gb_err_t e;
    CHECK(gb_z3_new(&h->z, &e) == 0);
    for (unsigned i = 0; t && i < 16; i++)
        for (uint32_t k = 0; k < t->dag.n; k++)
            if (t->dag.nodes[k].op == GBT_OP_INPUT && t->dag.nodes[k].imm == i)
                h->vars[i] = k;
    for (size_t i = 0; t && i < 2; i++) {
        h->factor[i] = (gb_conj_t){t->pcs[i].node, 1, 0};
        h->hash[i] = (gb_conj_t){t->pcs[2 + i].node, 1, 0};
    }
}

static void hard_close(hard_t *h)
{
    gb_z3_free(h->z);
    gb_trace_free(h->t);
    tb_free(h->b);
}

/* Checks one of the queries with a time limit; its answer, the seconds in *took. */
static gb_qstatus_t hard_check(hard_t *h, const gb_conj_t *cj, unsigned ms, double *took)
{
    gb_z3_out_t o = {0};
    gb_qstatus_t st = GB_Q_SKIP;
    uint8_t vals[16];
    gb_err_t e;
    double t0 = now_s();
    CHECK(h->t &&
          gb_z3_check(h->z, &(gb_z3_query_t){h->t, cj, 2}, &(gb_z3_vars_t){h->vars, 16, vals},
                      &(gb_z3_limits_t){.timeout_ms = ms}, &o, &e) == 0);
    st = o.status;
    *took = now_s() - t0;
    return st;
}

static volatile sig_atomic_t stop_flag;

static void *set_later(void *arg)
{
    usleep((useconds_t)(uintptr_t)arg * 1000u);
    stop_flag = 1;
    return NULL;
}

/* A stop request from another thread ends a check with a 60 s limit
 * within a second of it, as a timeout; with the flag down again the
 * context (made anew) answers an easy query. */
static void stop_from_thread(void)
{
    hard_t h;
    hard_open(&h);
    stop_flag = 0;
    gb_z3_set_stop(h.z, &stop_flag, 0);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, set_later, (void *)(uintptr_t)300) == 0);
    double took;
    CHECK(hard_check(&h, h.factor, 60000, &took) == GB_Q_TIMEOUT);
    pthread_join(th, NULL);
    CHECK_MSG(took < 1.3, "stopped at 0.3 s, the check ended at %.2f s", took);
    /* asked while stopped: no check starts */
    CHECK(hard_check(&h, h.hash, 60000, &took) == GB_Q_TIMEOUT);
    CHECK_MSG(took < 0.2, "a check started after the stop: %.2f s", took);
    stop_flag = 0;
    gb_conj_t easy = {h.t ? h.t->pcs[0].node : 0, 1, 0};
    gb_z3_out_t o = {0};
    gb_qstatus_t st = GB_Q_SKIP;
    uint8_t vals[16];
    gb_err_t e;
    CHECK(h.t &&
          gb_z3_check(h.z, &(gb_z3_query_t){h.t, &easy, 1}, &(gb_z3_vars_t){h.vars, 16, vals},
                      &(gb_z3_limits_t){.timeout_ms = 5000}, &o, &e) == 0);
    st = o.status;
    CHECK(st == GB_Q_SAT);
    hard_close(&h);
}

static void on_alarm(int sig)
{
    (void)sig;
    stop_flag = 1; /* all a handler may do */
}

/* The same from a signal handler (SIGALRM at 0.3 s, as SIGINT would come
 * to the CLI's handler). */
static void stop_from_signal(void)
{
    hard_t h;
    hard_open(&h);
    stop_flag = 0;
    gb_z3_set_stop(h.z, &stop_flag, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 0}, {0, 300000}};
    setitimer(ITIMER_REAL, &it, NULL);
    double took;
    CHECK(hard_check(&h, h.factor, 60000, &took) == GB_Q_TIMEOUT);
    CHECK_MSG(took < 1.3, "signalled at 0.3 s, the check ended at %.2f s", took);
    signal(SIGALRM, SIG_DFL);
    hard_close(&h);
}

/* The caller's end of run (-V) 0.3 s from now ends a 60 s check. */
static void stop_at_end_of_run(void)
{
    hard_t h;
    hard_open(&h);
    gb_z3_set_stop(h.z, NULL, gb_mono_ms() + 300);
    double took;
    CHECK(hard_check(&h, h.factor, 60000, &took) == GB_Q_TIMEOUT);
    CHECK_MSG(took < 1.3, "the run ended at 0.3 s, the check at %.2f s", took);
    hard_close(&h);
}

/* No check of either query runs past 1.5 times its limit (+ 0.1 s for
 * the translation and a loaded machine): the simple solver's and the
 * bit-blasting tactic's. */
static void limit_holds(void)
{
    static const unsigned limits[] = {250, 1000, 2000};
    hard_t h;
    hard_open(&h);
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
        double took, lim = limits[i] / 1000.0;
        CHECK(hard_check(&h, h.factor, limits[i], &took) == GB_Q_TIMEOUT);
        CHECK_MSG(took < 1.5 * lim + 0.1, "factoring: %.2f s under a %.2f s limit", took, lim);
        hard_check(&h, h.hash, limits[i], &took); /* Z3 may answer it, given seconds */
        CHECK_MSG(took < 1.5 * lim + 0.1, "hashes: %.2f s under a %.2f s limit", took, lim);
    }
    hard_close(&h);
}

/* A query's budget (gb_z3_set_query_end) holds across calls: 1 s of
 * budget, two calls asking 2 s each take about 1 s together, the second
 * none. The first is the factoring query, which never finishes in a
 * second; the hashes' may (limit_holds says so), and once did in CI. */
static void budget_holds(void)
{
    hard_t h;
    hard_open(&h);
    gb_z3_set_query_end(h.z, gb_mono_ms() + 1000);
    double a, b;
    CHECK(hard_check(&h, h.factor, 2000, &a) == GB_Q_TIMEOUT);
    CHECK(hard_check(&h, h.hash, 2000, &b) == GB_Q_TIMEOUT);
    CHECK_MSG(a + b < 1.6, "a 1 s budget, two calls took %.2f + %.2f s", a, b);
    gb_z3_set_query_end(h.z, 0);
    hard_close(&h);
}

/* Whole flips through the solver: the factoring flip with a 1 s limit
 * (whole query, then the last resort) ends within its budget of
 * GB_FLIP_BUDGET_LIMITS limits, and a stop request ends a flip with a
 * 60 s limit at once. */
static void flip_budget(void)
{
    hard_t h;
    hard_open(&h);
    gb_solver_opts_t so = {.timeout_ms = 1000, .optimistic = 1};
    gb_solver_t *s;
    gb_err_t e;
    CHECK(gb_solver_new(&so, &s, &e) == 0);
    gb_flip_t f;
    double t0 = now_s();
    CHECK(h.t && gb_solver_flip(s, h.t, 3, &f, &e) == 0);
    double took = now_s() - t0;
    gb_flip_clear(&f);
    CHECK_MSG(took < 1.5 * GB_FLIP_BUDGET_LIMITS + GB_FLIP_BUDGET_SLACK_MS / 1000.0, "a flip with a 1 s limit took %.2f s", took);
    gb_solver_free(s);
    so.timeout_ms = 60000;
    CHECK(gb_solver_new(&so, &s, &e) == 0);
    stop_flag = 0;
    gb_solver_set_stop(s, &stop_flag, 0);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, set_later, (void *)(uintptr_t)300) == 0);
    t0 = now_s();
    CHECK(h.t && gb_solver_flip(s, h.t, 1, &f, &e) == 0);
    took = now_s() - t0;
    pthread_join(th, NULL);
    CHECK(f.status == GB_Q_TIMEOUT);
    gb_flip_clear(&f);
    CHECK_MSG(took < 1.3, "stopped at 0.3 s, the flip ended at %.2f s", took);
    gb_solver_free(s);
    hard_close(&h);
}

int main(void)
{
    stop_from_thread();
    stop_from_signal();
    stop_at_end_of_run();
    limit_holds();
    budget_holds();
    flip_budget();
    if (check_failures)
        fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures != 0;
}
