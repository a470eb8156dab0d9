/* SPDX-License-Identifier: Apache-2.0 */
/* What Z3 keeps between queries, outside Glassbox (issue 13's soak).
 *   cc -O1 bench/solver/z3mem.c -o z3mem -lz3
 *   ./z3mem reuse | renew | symbols
 * reuse:   12 growing queries (a chain of 32-bit products, one equality
 *          every 50 links, a 2 s timeout each) in one context;
 * renew:   the same, with the context deleted and made anew after each;
 * symbols: a million string symbols "b<n>" (Glassbox's old names of input
 *          bytes), then the context made anew.
 * Prints Z3's own estimate (Z3_get_estimated_alloc_size) and the RSS after
 * each step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

static long rss_mb(void)
{
    long pages = 0, res = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &res) != 2)
            res = 0;
        fclose(f);
    }
    return res * 4 / 1024;
}

static void report(const char *what, int k)
{
    printf("%-16s %2d  z3 %7.1f MB  rss %5ld MB\n", what, k,
           Z3_get_estimated_alloc_size() / 1e6, rss_mb());
}

static void query(Z3_context c, int links, int seed)
{
    Z3_sort bv = Z3_mk_bv_sort(c, 32);
    Z3_solver s = Z3_mk_simple_solver(c);
    Z3_solver_inc_ref(c, s);
    Z3_params p = Z3_mk_params(c);
    Z3_params_inc_ref(c, p);
    Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), 2000);
    Z3_solver_set_params(c, s, p);
    Z3_params_dec_ref(c, p);
    Z3_ast acc = Z3_mk_unsigned_int(c, (unsigned)seed, bv);
    Z3_inc_ref(c, acc);
    for (int i = 0; i < links; i++) {
        /* A reference-counted context keeps only the last new term
         * alive: each one is referenced before the next is made. */
        Z3_ast x = Z3_mk_const(c, Z3_mk_int_symbol(c, i), bv);
        Z3_inc_ref(c, x);
        Z3_ast m = Z3_mk_bvmul(c, acc, x);
        Z3_inc_ref(c, m);
        Z3_ast next = Z3_mk_bvadd(c, m, Z3_mk_unsigned_int(c, (unsigned)(i * 7 + seed), bv));
        Z3_inc_ref(c, next);
        Z3_dec_ref(c, m);
        Z3_dec_ref(c, x);
        Z3_dec_ref(c, acc);
        acc = next;
        if (i % 50 == 0)
            Z3_solver_assert(c, s, Z3_mk_eq(c, acc, Z3_mk_unsigned_int(c, 12345u + i, bv)));
    }
    (void)Z3_solver_check(c, s);
    Z3_dec_ref(c, acc);
    Z3_solver_dec_ref(c, s);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int renew = strcmp(mode, "renew") == 0;
    if (!renew && strcmp(mode, "reuse") != 0 && strcmp(mode, "symbols") != 0) {
        fprintf(stderr, "usage: z3mem reuse|renew|symbols\n");
        return 2;
    }
    Z3_config cfg = Z3_mk_config();
    Z3_context c = Z3_mk_context_rc(cfg);
    report("fresh context", 0);
    if (strcmp(mode, "symbols") == 0) {
        char name[32];
        for (int i = 0; i < 1000000; i++) {
            snprintf(name, sizeof name, "b%d", i);
            (void)Z3_mk_string_symbol(c, name);
        }
        report("1M names", 0);
        Z3_del_context(c);
        c = Z3_mk_context_rc(cfg);
        report("new context", 0);
    } else {
        for (int k = 0; k < 12; k++) {
            query(c, 100 + 60 * k, k);
            report("after query", k);
            if (renew) {
                Z3_del_context(c);
                c = Z3_mk_context_rc(cfg);
                report("new context", k);
            }
        }
    }
    Z3_del_context(c);
    Z3_del_config(cfg);
    return 0;
}
