/* SPDX-License-Identifier: Apache-2.0 */
/* Run&Check and ExpandExecution: run an input natively and score it; trace
 * an input and turn each satisfiable flip into a child. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "search_int.h"

/* New blocks of the last run, marked in the global map. */
static uint32_t score_map(gb_search_t *s, uint64_t *sig)
{
    const uint8_t *map = gb_fsrv_map(s->fsrv);
    size_t n = gb_fsrv_map_size(s->fsrv);
    uint8_t bits[GB_COV_MAP / 8] = {0};
    uint32_t fresh = 0;
    for (size_t i = 0; i < n && i < GB_COV_MAP; i++) {
        if (!map[i])
            continue;
        bits[i >> 3] |= (uint8_t)(1u << (i & 7));
        if (!s->virgin[i]) {
            s->virgin[i] = 1;
            fresh++;
        }
    }
    s->st.blocks += fresh;
    *sig = gb_hash64(bits, sizeof bits, 0);
    return fresh;
}

static int run_target(gb_search_t *s, gb_item_t *it, gb_run_result_t *r, gb_err_t *e)
{
    if (gb_fsrv_run(s->fsrv, it->data, it->len, r, e) == 0 && r->status != GB_RUN_ERROR)
        return 0;
    /* One restart: the forkserver may have been killed from outside. */
    gb_fsrv_stop(s->fsrv);
    s->fsrv = NULL;
    char *argv[] = {(char *)s->o.cov_bin, s->cur_input, NULL};
    gb_fsrv_opts_t fo = {.argv = argv, .input_path = s->cur_input, .timeout_ms = s->o.timeout_ms};
    if (gb_fsrv_start(&fo, &s->fsrv, e) != 0 ||
        gb_fsrv_run(s->fsrv, it->data, it->len, r, e) != 0 || r->status == GB_RUN_ERROR)
        return gb_err_set(e, "the coverage build stopped running: %s", e ? e->msg : "");
    return 0;
}

static int save_crash(gb_search_t *s, gb_item_t *it, const gb_run_result_t *r, uint64_t sig,
                      const char *desc, gb_err_t *e)
{
    s->st.crashes_seen++;
    int fresh = gb_hset_add(&s->crash_sigs, sig);
    if (fresh < 0)
        return gb_err_set(e, "out of memory");
    if (fresh) {
        uint32_t id;
        if (gb_campaign_add_crash(s->camp, it->data, it->len, r->signal, desc, &id, e) != 0)
            return -1;
        it->crash_id = id;
        s->st.crashes++;
        if (!s->st.first_crash_ms)
            s->st.first_crash_ms = gb_time_ms() - s->start_ms + 1;
    }
    return 1; /* crashing inputs are expanded too: their trace prefix is valid */
}

int gb_search_run_check(gb_search_t *s, gb_item_t *it, const char *desc, gb_err_t *e)
{
    gb_run_result_t r;
    if (run_target(s, it, &r, e) != 0)
        return -1;
    s->st.execs++;
    uint64_t sig;
    it->score = score_map(s, &sig);
    if (it->score)
        s->last_find_ms = gb_time_ms();
    char d[512];
    snprintf(d, sizeof d, "%s%s", desc, it->score ? ",+cov" : "");
    if (r.status == GB_RUN_CRASH)
        return save_crash(s, it, &r, sig, d, e);
    if (r.status == GB_RUN_TIMEOUT) {
        s->st.hangs_seen++;
        int fresh = gb_hset_add(&s->hang_sigs, sig);
        uint32_t id;
        if (fresh > 0 && gb_campaign_add_hang(s->camp, it->data, it->len, d, &id, e) != 0)
            return -1;
        s->st.hangs += fresh > 0;
        return 0; /* hangs are not traced: the trace build would hang too */
    }
    uint32_t id;
    if (gb_campaign_add_queue(s->camp, it->data, it->len, d, &id, e) != 0)
        return -1;
    it->queue_id = id;
    return 1;
}

/* Runs the trace build on `it`; NULL (and a counted failure) if no usable
 * trace came out. */
static gb_trace_t *trace_item(gb_search_t *s, gb_item_t *it, gb_err_t *e)
{
    unlink(s->trace_file);
    if (gb_write_atomic(s->trace_input, gb_campaign_tmpdir(s->camp), it->data, it->len, e) != 0)
        return NULL;
    char env[4200];
    snprintf(env, sizeof env, "GLASSBOX_TRACE_OUT=%s", s->trace_file);
    char *argv[] = {(char *)s->o.trace_bin, s->trace_input, NULL};
    char *envs[] = {env, NULL};
    gb_exec_opts_t xo = {.argv = argv, .env_extra = envs, .timeout_ms = s->o.trace_timeout_ms};
    gb_run_result_t r;
    if (gb_exec_run(&xo, &r, e) != 0)
        return NULL;
    s->st.traces++;
    gb_trace_t *t = NULL;
    if (gb_trace_load(s->trace_file, GB_TRACE_PREFIX_OK, &t, e) != 0)
        return NULL;
    return t;
}

/* Lowers the bound to the first entry where the trace left the path the
 * item was predicted to follow. */
static size_t effective_bound(gb_search_t *s, const gb_item_t *it, const gb_trace_t *t,
                              size_t pcs)
{
    for (size_t d = 0; d < it->n_predicted; d++) {
        gb_pc_info_t pc;
        if (d >= pcs)
            break;
        gb_trace_get_pc(t, d, &pc);
        const gb_step_t *p = &it->predicted[d];
        if (pc.site != p->site || pc.taken != p->taken || pc.kind != p->kind) {
            s->st.divergent++;
            return d < it->bound ? d : it->bound;
        }
    }
    return it->bound;
}

static gb_item_t *make_child(gb_search_t *s, const gb_item_t *parent, const gb_trace_t *t,
                             size_t j, const gb_model_t *m)
{
    gb_item_t *c = gb_item_new(parent->data, parent->len, s->seq++);
    if (!c)
        return NULL;
    for (size_t i = 0; i < m->n; i++)
        if (m->offsets[i] < c->len)
            c->data[m->offsets[i]] = m->values[i];
    c->bound = j + 1;
    c->predicted = gb_calloc(j + 1, sizeof *c->predicted);
    if (!c->predicted) {
        gb_item_free(c);
        return NULL;
    }
    c->n_predicted = j + 1;
    for (size_t k = 0; k <= j; k++) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, k, &pc);
        c->predicted[k] = (gb_step_t){pc.site, (uint8_t)pc.kind,
                                      (uint8_t)(k == j ? !pc.taken : pc.taken)};
    }
    return c;
}

static int out_of_time(gb_search_t *s)
{
    return s->stop ||
           (s->o.max_seconds && gb_time_ms() - s->start_ms >= s->o.max_seconds * 1000);
}

static void tick(gb_search_t *s)
{
    uint64_t now = gb_time_ms();
    if (now - s->last_status_ms < s->o.status_every_ms)
        return;
    s->last_status_ms = now;
    gb_report_status(s, 0);
    gb_report_write(s, 0, NULL); /* a failed stats write is retried next tick */
}

/* Solves flip j and runs the child. Returns -1 on a fatal error. */
static int flip_one(gb_search_t *s, gb_item_t *it, const gb_trace_t *t, size_t j, gb_err_t *e)
{
    gb_flip_t f;
    memset(&f, 0, sizeof f);
    if (gb_solver_flip(s->solver, t, j, &f, e) != 0)
        return 0; /* a solver error loses this query, not the campaign */
    int rc = 0;
    if (f.status == GB_Q_SAT) {
        gb_item_t *c = make_child(s, it, t, j, &f.model);
        int fresh = c ? gb_hset_add(&s->seen, gb_hash64(c->data, c->len, 0)) : -1;
        if (fresh < 0) {
            rc = gb_err_set(e, "out of memory");
        } else if (fresh == 0) {
            s->st.duplicates++;
        } else {
            char desc[160];
            if (it->queue_id >= 0)
                snprintf(desc, sizeof desc, "src:%06lld,op:gen,pos:%zu%s",
                         (long long)it->queue_id, j, f.optimistic ? ",opt" : "");
            else
                snprintf(desc, sizeof desc, "crash-src:%06lld,op:gen,pos:%zu%s",
                         (long long)it->crash_id, j, f.optimistic ? ",opt" : "");
            s->st.children++;
            int keep = gb_search_run_check(s, c, desc, e);
            if (keep > 0 && gb_worklist_push(&s->work, c) == 0)
                c = NULL;
            else if (keep < 0)
                rc = -1;
        }
        gb_item_free(c);
    }
    gb_flip_clear(&f);
    return rc;
}

/* ExpandExecution: trace, then flip every entry from the bound on. */
static int expand(gb_search_t *s, gb_item_t *it, gb_err_t *e)
{
    gb_err_t te;
    gb_trace_t *t = trace_item(s, it, &te);
    s->st.expanded++;
    if (!t)
        return 0; /* counted in traces; the input stays in the corpus */
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    size_t bound = effective_bound(s, it, t, info.pcs);
    int rc = 0;
    for (size_t j = bound; j < info.pcs && rc == 0 && !out_of_time(s); j++) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, j, &pc);
        if (pc.kind != 1 /* GBT_PC_PIN */)
            rc = flip_one(s, it, t, j, e);
        tick(s);
    }
    gb_trace_free(t);
    return rc;
}

int gb_search_run(gb_search_t *s, gb_err_t *e)
{
    int rc = 0;
    gb_report_status(s, 0);
    while (rc == 0 && !out_of_time(s)) {
        gb_item_t *it = gb_worklist_pop(&s->work);
        if (!it)
            break;
        rc = expand(s, it, e);
        gb_item_free(it);
        tick(s);
    }
    gb_report_status(s, 1);
    if (gb_report_write(s, 1, rc == 0 ? e : NULL) != 0 && rc == 0)
        rc = -1;
    return rc;
}
