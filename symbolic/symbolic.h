/* SPDX-License-Identifier: Apache-2.0 */
/* symbolic/: loads .gbt traces into a hash-consed expression DAG, slices
 * the query for flipping one path-constraint entry, and solves it with Z3.
 * Knows nothing of processes. Every function returns 0 / -1 with gb_err_t,
 * except where noted; nothing here exits or prints (gb_trace_print_smt2
 * writes only to the FILE it is given). */
#ifndef GB_SYMBOLIC_H
#define GB_SYMBOLIC_H

#include <stdint.h>
#include <stdio.h>

#include "gb_base.h"

/* ---- Traces ---------------------------------------------------------- */

typedef struct gb_trace gb_trace_t;

/* Load flags. By default a truncated file (a block or header cut short) is an
 * error. With GB_TRACE_PREFIX_OK the whole blocks before the cut are kept
 * (the fuzzer uses this for runs that were killed). A file with whole blocks
 * but no END record is always accepted and reported as incomplete. */
enum { GB_TRACE_PREFIX_OK = 1u };

int gb_trace_load(const char *path, unsigned flags, gb_trace_t **out, gb_err_t *e);
int gb_trace_load_mem(const uint8_t *data, size_t len, unsigned flags, gb_trace_t **out,
                      gb_err_t *e);
void gb_trace_free(gb_trace_t *t);

typedef struct gb_trace_info {
    uint64_t input_len;  /* from the header */
    uint64_t input_hash; /* XXH3-64 of the input, from the header */
    int complete;        /* 1 if an END record was read */
    int truncated;       /* 1 if GB_TRACE_PREFIX_OK dropped a cut-off tail */
    int end_kind;        /* enum gbt_end_kind, or -1 when incomplete */
    int end_code;        /* exit status or signal number */
    uint64_t dropped;    /* constraints the tracer pruned (END record) */
    size_t nodes;        /* expression nodes after hash-consing */
    size_t pcs;          /* path-constraint entries, pins included */
    size_t blocks;       /* distinct visited blocks */
} gb_trace_info_t;

void gb_trace_get_info(const gb_trace_t *t, gb_trace_info_t *info);

typedef struct gb_pc_info {
    unsigned kind;  /* enum gbt_pc_kind */
    unsigned taken; /* 0 or 1 */
    uint32_t site;
} gb_pc_info_t;

/* Entry i (0 <= i < info.pcs) of the path constraint, in execution order. */
void gb_trace_get_pc(const gb_trace_t *t, size_t i, gb_pc_info_t *pc);

/* Visited block ids, in first-visit order; *n receives the count. */
const uint32_t *gb_trace_blocks(const gb_trace_t *t, size_t *n);

/* Prints the path constraint as an SMT-LIB2 script: one (declare-const bN
 * (_ BitVec 8)) per input byte used, one commented (assert ...) per entry
 * stating what held on this run (";; pc 3 branch site 0x... taken"), pins
 * marked as pins, then (check-sat). Returns 0 or -1 on a write error. */
int gb_trace_print_smt2(const gb_trace_t *t, FILE *out, gb_err_t *e);

/* ---- Solving --------------------------------------------------------- */

typedef struct gb_solver gb_solver_t;

typedef struct gb_solver_opts {
    unsigned timeout_ms; /* per Z3 call; 0 = default 2000 */
    int optimistic;      /* 1 = pins are soft: drop those in the unsat core; then ¬PC[j] alone */
} gb_solver_opts_t;

typedef enum gb_qstatus {
    GB_Q_SAT = 0,
    GB_Q_UNSAT = 1,
    GB_Q_TIMEOUT = 2, /* Z3 said unknown (timeout or resource limit) */
    GB_Q_SKIP = 3,    /* entry j is a pin, or nothing to flip */
} gb_qstatus_t;

/* A model: the input bytes it assigns (offsets ascending, each once).
 * Bytes the query does not mention are absent: Combine keeps the parent's. */
typedef struct gb_model {
    size_t n;
    uint64_t *offsets;
    uint8_t *values;
} gb_model_t;

typedef struct gb_flip {
    gb_qstatus_t status;
    int optimistic;     /* 1 when the model solves a relaxed query */
    size_t slice_size;  /* prefix constraints kept by slicing (pins included) */
    gb_model_t model;   /* valid when status == GB_Q_SAT; owned by gb_flip_t */
} gb_flip_t;

/* Counters since gb_solver_new, for fuzzer_stats. */
typedef struct gb_solver_stats {
    uint64_t queries_total;   /* gb_solver_flip calls on a flippable entry */
    uint64_t queries_z3;      /* calls into Z3 (a relaxed retry counts again) */
    uint64_t queries_sat;     /* queries answered SAT (exact or optimistic) */
    uint64_t queries_unsat;   /* queries with no model at all */
    uint64_t queries_timeout; /* queries Z3 could not decide in time */
    uint64_t queries_optimistic; /* SAT only after relaxing the query */
    uint64_t solver_time_ms;  /* wall time inside Z3 */
} gb_solver_stats_t;

int gb_solver_new(const gb_solver_opts_t *opts, gb_solver_t **out, gb_err_t *e);
void gb_solver_free(gb_solver_t *s);

/* Solves slice(PC[0..j-1]) ∧ ¬PC[j] for trace `t` (see ARCHITECTURE.md):
 * the prefix entries, pins included, that share input bytes with PC[j]
 * transitively. Fills *out (call gb_flip_clear on it afterwards). Calls for
 * one trace may come in any order, but ascending j is the fast path.
 * Returns -1 only on an internal error (out of memory, a Z3 error). */
int gb_solver_flip(gb_solver_t *s, const gb_trace_t *t, size_t j, gb_flip_t *out, gb_err_t *e);
void gb_flip_clear(gb_flip_t *f);

void gb_solver_get_stats(const gb_solver_t *s, gb_solver_stats_t *st);

/* Evaluates PC entry j of `t` on a concrete input: returns 1 if the entry's
 * condition equals its recorded direction, 0 if not (bytes past `len` read as
 * 0). Used by tests to check models and by the search to predict paths. */
int gb_trace_eval_pc(const gb_trace_t *t, size_t j, const uint8_t *input, size_t len);

#endif
