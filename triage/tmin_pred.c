/* SPDX-License-Identifier: Apache-2.0 */
/* tmin's coverage predicate: a candidate is kept when its AFL++-bucketed
 * coverage map and the way its run ended equal the reference run's. */
#include <string.h>

#include "triage.h"

struct gb_tmin_cov {
    gb_fsrv_t *f;
    gb_run_result_t ref_run;
    uint8_t *ref;    /* bucketed map of the reference run */
    size_t map_size; /* as announced by the target */
};

/* AFL++'s hit-count buckets: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+,
 * as a table (a map is bucketed on every run). */
static uint8_t buckets[256];

static void buckets_init(void)
{
    for (unsigned n = 0; n < 256; n++)
        buckets[n] = (uint8_t)(n == 0     ? 0
                               : n <= 3   ? (n == 3 ? 4 : n)
                               : n <= 7   ? 8
                               : n <= 15  ? 16
                               : n <= 31  ? 32
                               : n <= 127 ? 64
                                          : 128);
}

/* The same ending: exited (any status), or killed by the same signal. A
 * timeout never matches: a hang is not the behaviour being kept. */
static int same_end(const gb_run_result_t *a, const gb_run_result_t *b)
{
    if (a->status != b->status || a->status == GB_RUN_TIMEOUT || a->status == GB_RUN_ERROR)
        return 0;
    return a->status != GB_RUN_CRASH || a->signal == b->signal;
}

int gb_tmin_cov_new(gb_fsrv_t *f, const uint8_t *in, size_t len, gb_tmin_cov_t **out, gb_err_t *e)
{
    *out = NULL;
    gb_tmin_cov_t *c = gb_calloc(1, sizeof *c);
    if (!c)
        return gb_err_set(e, "out of memory");
    c->f = f;
    buckets_init();
    if (gb_fsrv_run(f, in, len, &c->ref_run, e) != 0) {
        gb_free(c);
        return -1;
    }
    if (c->ref_run.status == GB_RUN_TIMEOUT) {
        gb_free(c);
        return gb_err_set(e, "the input times out: give a longer time limit (-t)");
    }
    c->map_size = gb_fsrv_map_size(f);
    c->ref = gb_malloc(c->map_size ? c->map_size : 1);
    if (!c->ref) {
        gb_free(c);
        return gb_err_set(e, "out of memory");
    }
    const uint8_t *m = gb_fsrv_map(f);
    for (size_t i = 0; i < c->map_size; i++)
        c->ref[i] = buckets[m[i]];
    *out = c;
    return 0;
}

void gb_tmin_cov_free(gb_tmin_cov_t *c)
{
    if (!c)
        return;
    gb_free(c->ref);
    gb_free(c);
}

const gb_run_result_t *gb_tmin_cov_ref(const gb_tmin_cov_t *c)
{
    return &c->ref_run;
}

int gb_tmin_cov_pred(void *cov, const uint8_t *in, size_t len, gb_err_t *e)
{
    gb_tmin_cov_t *c = cov;
    gb_run_result_t r;
    if (gb_fsrv_run(c->f, in, len, &r, e) != 0)
        return -1;
    if (!same_end(&r, &c->ref_run) || gb_fsrv_map_size(c->f) != c->map_size)
        return 0;
    const uint8_t *m = gb_fsrv_map(c->f);
    for (size_t i = 0; i < c->map_size; i++)
        if (buckets[m[i]] != c->ref[i])
            return 0;
    return 1;
}
