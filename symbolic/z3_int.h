/* SPDX-License-Identifier: Apache-2.0 */
/* Private to the Z3 bridge, z3_bridge.c and z3_fp.c: the only files that
 * include z3.h. */
#ifndef GB_Z3_INT_H
#define GB_Z3_INT_H

#include <signal.h>
#include <stdio.h>
#include <z3.h>

#include "symbolic_int.h"

/* The terms of the trace whose DAG was translated last, kept across its
 * queries (translate_query). */
struct gb_z3_terms {
    uint64_t serial;   /* trace whose terms `cache` holds; 0 = none */
    Z3_ast *cache;     /* DAG index -> term (referenced) or NULL */
    gb_range_t *range; /* DAG index -> its values' bounds, set with a term */
    size_t ncache;
    int no_narrow;     /* gb_z3_set_narrow(z, 0) */
    uint64_t narrowed; /* terms translate_narrow narrowed */
};

/* What the query being checked is made of (translate_query), which picks
 * its solvers and how its terms are built; a query's own, reset by the next. */
struct gb_z3_qstate {
    int fp;        /* it has FP nodes */
    int varmul;    /* ... a product of two input-dependent values */
    unsigned sums; /* ... its longest chain of nested sums (ADD/SUB) */
    int chain;     /* sums >= GB_Z3_SUM_CHAIN: its long sums are named (name_sum) */
    Z3_ast *term;  /* DAG index -> the query's term: terms.cache, or `own` */
    Z3_ast *own;   /* a chain query's terms (referenced), not cached; or NULL */
    Z3_ast *defs;  /* a chain query's definitions name == sum (referenced) */
    uint16_t *flat; /* a chain query's sums: terms each would be flattened (flat_terms) */
    size_t ndefs;
};

/* Input bytes the next checks keep at given values (gb_z3_set_keep). */
struct gb_z3_keep {
    const uint64_t *off; /* ascending */
    const uint8_t *val;
    size_t n;
};

/* When checks stop: the caller's stop request and end of run, the budgets
 * of a query and of a call, and what the guard did about them. */
struct gb_z3_clock {
    const volatile sig_atomic_t *stop; /* gb_z3_set_stop: the caller's stop request, or NULL */
    uint64_t stop_at;   /* gb_z3_set_stop: monotonic ms every check ends at; 0 = never */
    uint64_t query_end; /* gb_z3_set_query_end: no check starts after; 0 = none */
    uint64_t call_end;  /* the same for the gb_z3_check running; 0 = none */
    int cut;            /* the current call's time is spent: no further check */
    int killed;         /* the guard interrupted a check: the context is cancelled */
    uint64_t overruns;  /* checks the guard interrupted at their deadline */
};

/* Z3's memory: the context's renewals, the guard's cap on one check, and
 * the ceiling past which the guard ends the process. */
struct gb_z3_mem {
    uint64_t renewals; /* contexts made anew to give memory back */
    size_t base_bytes; /* Z3's estimate right after the context was made */
    int memout;        /* the guard stopped a check of the current query */
    size_t query_cap;  /* bytes one check may add; 0 = GB_Z3_QUERY_MAX_MB */
    uint64_t memouts;  /* checks the guard stopped (GB_Z3_QUERY_MAX_MB) */
    size_t ceiling;    /* Z3's estimate that ends the process; 0 = none */
    int ceiling_exit;  /* its exit status (gb_z3_set_ceiling) */
    char ceiling_what[128]; /* the start of its one line */
};

/* The bridge's state, a set of owned parts. Defined here, with the
 * accessors below inline, so that z3_fp.c uses it without calling back
 * into z3_bridge.c, which calls z3_fp.c (no file-level cycle,
 * scripts/check-cycles). */
struct gb_z3 {
    Z3_context ctx;
    Z3_sort sort[GBT_MAX_WIDTH + 1]; /* bit-vector sorts by width, referenced */
    Z3_ast one, zero;                /* #b1 and #b0 */
    struct gb_z3_terms terms;
    struct gb_z3_qstate q;
    struct gb_z3_keep keep;
    struct gb_z3_clock clock;
    struct gb_z3_mem mem;
    struct gb_z3_guard *guard; /* the watchdog of checks (z3_bridge.c), or NULL */
    FILE *check_log;           /* gb_z3_set_check_log, or NULL */
};

static inline Z3_context gb_z3_ctx(gb_z3_t *z) { return z->ctx; }

/* The solver a bit-blasting round checks with (the qfbv tactic under
 * try_for, referenced; NULL on failure): for tests of Z3's timers. */
Z3_solver gb_z3_mk_blast_solver(gb_z3_t *z, unsigned timeout_ms);

/* #b1 or #b0. */
static inline Z3_ast gb_z3_bit(gb_z3_t *z, int one) { return one ? z->one : z->zero; }

/* A reference on a fresh term, or NULL. A Z3 error between two steps is
 * caught by the bridge, which checks for one when it takes its own
 * reference on the finished term. */
static inline Z3_ast gb_z3_keep(gb_z3_t *z, Z3_ast a)
{
    if (a)
        Z3_inc_ref(z->ctx, a);
    return a;
}

/* The bit-vector sort of width w, made once and referenced by the bridge. */
static inline Z3_sort gb_z3_bv_sort(gb_z3_t *z, unsigned w)
{
    if (!z->sort[w]) {
        Z3_sort s = Z3_mk_bv_sort(z->ctx, w);
        if (!s)
            return NULL;
        Z3_inc_ref(z->ctx, Z3_sort_to_ast(z->ctx, s));
        z->sort[w] = s;
    }
    return z->sort[w];
}

/* The term of floating-point node x (arguments' terms a0, a1; a1 NULL for
 * one argument), unreferenced, or NULL on failure (z3_fp.c). */
Z3_ast gb_z3_translate_fp(gb_z3_t *z, const gb_dag_t *d, const gb_node_t *x, Z3_ast a0,
                          Z3_ast a1);

#endif
