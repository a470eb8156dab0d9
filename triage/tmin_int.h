/* SPDX-License-Identifier: Apache-2.0 */
/* Private to tmin*.c: the state of one minimisation, shared by the classic
 * passes (tmin.c) and the solver step (tmin_solve.c). */
#ifndef GB_TMIN_INT_H
#define GB_TMIN_INT_H

#include "triage.h"

typedef struct gb_tmin_ctx {
    const gb_tmin_opts_t *o;
    gb_tmin_stats_t *st;
    uint8_t *buf; /* the current (smallest kept) input */
    size_t len;
    uint8_t *scratch; /* candidates are built here */
    size_t cap;       /* of buf and scratch */
    gb_hset_t tried;  /* hashes of every candidate asked about */
    int out_of_runs;  /* max_runs reached or stopped: every pass stops */
} gb_tmin_ctx_t;

/* Asks the predicate about a candidate not tried before: 1 kept, 0 not
 * (or a repeat, or out of runs), -1 fatal. */
int gb_tmin_try(gb_tmin_ctx_t *c, const uint8_t *cand, size_t len, gb_err_t *e);
/* Makes the candidate (at most c->cap bytes) the current input. */
void gb_tmin_take(gb_tmin_ctx_t *c, const uint8_t *cand, size_t len);

/* The solver-assisted step (tmin_solve.c): -1 only on a fatal error; a
 * step that gains nothing leaves the input as it was. */
int gb_tmin_solve(gb_tmin_ctx_t *c, gb_err_t *e);

/* The solver step's scratch files in work_dir (a directory of the
 * caller's own): written staged, never through a symlink, and removed. */
int gb_tmin_scratch_write(const char *path, const uint8_t *in, size_t len, gb_err_t *e);
void gb_tmin_scratch_remove(const char *path);

#endif
