/* SPDX-License-Identifier: Apache-2.0 */
/* tmin's crash predicate: a candidate is kept when it crashes with the
 * reference crash's (type, state), as triage buckets crashes. */
#include <stdio.h>
#include <string.h>

#include "triage.h"

struct gb_tmin_crash {
    gb_crash_runner_t *r;
    gb_crash_t ref;
};

int gb_tmin_crash_new(gb_crash_runner_t *r, const uint8_t *in, size_t len, gb_tmin_crash_t **out,
                      gb_err_t *e)
{
    *out = NULL;
    gb_tmin_crash_t *c = gb_calloc(1, sizeof *c);
    if (!c)
        return gb_err_set(e, "out of memory");
    c->r = r;
    if (gb_crash_probe(r, in, len, &c->ref, e) != 0) {
        gb_free(c);
        return -1;
    }
    if (!c->ref.crashed || c->ref.run.status == GB_RUN_TIMEOUT) {
        int tmo = c->ref.run.status == GB_RUN_TIMEOUT;
        gb_tmin_crash_free(c);
        return gb_err_set(e, tmo ? "the input times out instead of crashing (a longer -t?)"
                                 : "the input does not crash the target (use --mode coverage "
                                   "to keep its coverage instead)");
    }
    *out = c;
    return 0;
}

int gb_tmin_crash_keep(gb_crash_runner_t *r, const char *type, const char *state,
                       gb_tmin_crash_t **out, gb_err_t *e)
{
    *out = NULL;
    if (!r || !type || !state)
        return gb_err_set(e, "gb_tmin_crash_keep: missing argument");
    gb_tmin_crash_t *c = gb_calloc(1, sizeof *c);
    if (!c)
        return gb_err_set(e, "out of memory");
    c->r = r;
    c->ref.crashed = 1;
    c->ref.run.status = GB_RUN_CRASH;
    snprintf(c->ref.type, sizeof c->ref.type, "%s", type);
    snprintf(c->ref.state, sizeof c->ref.state, "%s", state);
    *out = c;
    return 0;
}

void gb_tmin_crash_free(gb_tmin_crash_t *c)
{
    if (!c)
        return;
    gb_crash_clear(&c->ref);
    gb_free(c);
}

const gb_crash_t *gb_tmin_crash_ref(const gb_tmin_crash_t *c)
{
    return &c->ref;
}

int gb_tmin_crash_pred(void *crash, const uint8_t *in, size_t len, gb_err_t *e)
{
    gb_tmin_crash_t *c = crash;
    gb_crash_t got;
    memset(&got, 0, sizeof got);
    if (gb_crash_probe(c->r, in, len, &got, e) != 0)
        return -1;
    int same = got.crashed && got.run.status != GB_RUN_TIMEOUT && gb_crash_same(&got, &c->ref);
    gb_crash_clear(&got);
    return same;
}
