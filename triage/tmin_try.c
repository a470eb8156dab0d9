/* SPDX-License-Identifier: Apache-2.0 */
/* The candidate bookkeeping that tmin's passes and its solver step share:
 * one place asks the predicate, counts runs and skips repeats. */
#include <string.h>

#include "gb_files.h"
#include "tmin_int.h"

/* Asks the predicate about `cand` unless the same bytes were tried before
 * (then 0: a candidate is only ever tried when it differs from the current
 * input, and the current input's hash is in the set from the start).
 * 1 kept, 0 not, -1 fatal. */
int gb_tmin_try(gb_tmin_ctx_t *c, const uint8_t *cand, size_t len, gb_err_t *e)
{
    if (c->o->stop && *c->o->stop) {
        c->out_of_runs = 1;
        c->st->interrupted = 1;
        return 0;
    }
    if (c->o->max_runs && c->st->runs >= c->o->max_runs) {
        c->out_of_runs = 1;
        return 0;
    }
    int fresh = gb_hset_add(&c->tried, gb_hash64(cand, len, len));
    if (fresh < 0)
        return gb_err_set(e, "out of memory");
    if (!fresh) {
        c->st->repeats++;
        return 0;
    }
    c->st->runs++;
    int r = c->o->pred(c->o->ctx, cand, len, e);
    return r < 0 ? -1 : r > 0;
}

/* Makes `cand` (len bytes) the current input. */
void gb_tmin_take(gb_tmin_ctx_t *c, const uint8_t *cand, size_t len)
{
    memmove(c->buf, cand, len);
    c->len = len;
}

/* Here, not in tmin_solve.c: gb_files.h's struct gb_stage and
 * symbolic.h's enum gb_stage cannot be in one file. */
int gb_tmin_scratch_write(const char *path, const uint8_t *in, size_t len, gb_err_t *e)
{
    return gb_write_path(path, in, len, e);
}

void gb_tmin_scratch_remove(const char *path)
{
    gb_remove_path(path);
}
