/* SPDX-License-Identifier: Apache-2.0 */
/* Run&Check: run one input natively on the cov build under the forkserver,
 * score it by new coverage, save a crash or a hang, and hand what is worth
 * keeping to storage (queue/, the peers) and to the worklist. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "search_int.h"

/* Starts the forkserver on s->run.cur_input (again, after it was lost). */
static int fsrv_start(gb_search_t *s, gb_err_t *e)
{
    gb_run_state_t *r = &s->run;
    char **argv = gb_argv_build(s->o.cov_bin, s->o.target_args, s->o.n_target_args, r->cur_input);
    if (!argv)
        return gb_err_set(e, "out of memory");
    gb_fsrv_opts_t fo = {.argv = argv,
                         .input_path = r->cur_input,
                         .timeout_ms = s->o.timeout_ms,
                         .mem_limit_mb = s->o.mem_limit_mb};
    int rc = gb_fsrv_start(&fo, &r->fsrv, e);
    gb_argv_free(argv);
    return rc;
}

int gb_run_start(gb_search_t *s, gb_err_t *e)
{
    if (!(s->run.cur_input = gb_search_file(s, ".cur_input")))
        return gb_err_set(e, "out of memory");
    return fsrv_start(s, e);
}

void gb_run_free(gb_run_state_t *r)
{
    gb_fsrv_stop(r->fsrv);
    r->fsrv = NULL;
    gb_free(r->cur_input);
    r->cur_input = NULL;
    gb_hset_free(&r->seen);
    gb_hset_free(&r->seen_extra);
    gb_hset_free(&r->hang_sigs);
}

int gb_run_fresh(gb_run_state_t *r, const uint8_t *data, size_t len, int extra)
{
    uint64_t h = gb_hash64(data, len, 0);
    if (extra) /* new to both sets */
        return gb_hset_has(&r->seen, h) ? 0 : gb_hset_add(&r->seen_extra, h);
    return gb_hset_add(&r->seen, h);
}

/* e says why the forkserver could not be started again. */
static int fsrv_lost(gb_err_t *e)
{
    if (e) {
        char why[sizeof e->msg];
        snprintf(why, sizeof why, "%s", e->msg); /* e->msg is rewritten below */
        gb_err_set(e, "the coverage build stopped running: %s", why);
    }
    return -1;
}

/* 0: ran (*r says how); 1: the input kills the forkserver, skip it; -1: fatal. */
static int run_target(gb_search_t *s, const gb_item_t *it, gb_run_result_t *r, gb_err_t *e)
{
    for (;;) {
        if (gb_fsrv_run(s->run.fsrv, it->data, it->len, r, e) == 0 && r->status != GB_RUN_ERROR)
            return 0;
        if (!gb_wait_for_space(s, errno)) /* writing the input file can hit a full disk */
            break;
    }
    /* One restart: the forkserver may have been killed from outside. */
    gb_fsrv_stop(s->run.fsrv);
    s->run.fsrv = NULL;
    if (fsrv_start(s, e) != 0)
        return fsrv_lost(e);
    if (gb_fsrv_run(s->run.fsrv, it->data, it->len, r, e) == 0 && r->status != GB_RUN_ERROR)
        return 0;
    /* Killed again by the same input: the target does it (a kill(0, ...)
     * reaches its forkserver's process group). Contained: the input is
     * dropped, said once, and the next run gets a fresh forkserver. */
    char msg[sizeof e->msg + 200];
    snprintf(msg, sizeof msg,
             "an input made the coverage build kill its own forkserver twice (%s); such inputs "
             "are dropped and the forkserver restarted",
             e ? e->msg : "");
    gb_notice(s, GB_NOTE_FSRV_KILLED, msg);
    gb_fsrv_stop(s->run.fsrv);
    s->run.fsrv = NULL;
    return fsrv_start(s, e) == 0 ? 1 : fsrv_lost(e);
}

/* The run's frontier blocks into it->front (none when out of memory: the
 * input then only loses its place among equals). */
static void measure_frontier(gb_search_t *s, gb_item_t *it)
{
    it->nfront = 0;
    if (!s->front)
        return;
    uint32_t buf[GB_FRONTIER_MAX];
    uint32_t n =
        gb_frontier_measure(s->front, gb_fsrv_map(s->run.fsrv), gb_fsrv_map_size(s->run.fsrv),
                            s->cov.virgin, buf, GB_FRONTIER_MAX);
    uint32_t *f = n ? gb_realloc(it->front, n * sizeof *f) : NULL;
    if (!f) { /* none, or out of memory; memcpy to NULL is undefined, even of 0 bytes */
        gb_free(it->front);
        it->front = NULL;
        return;
    }
    it->front = f;
    memcpy(it->front, buf, n * sizeof *buf);
    it->nfront = n;
}

/* Runs and scores `it`; the run's result in *r. */
static int run_scored(gb_search_t *s, gb_item_t *it, gb_run_result_t *r, gb_err_t *e)
{
    int rc = run_target(s, it, r, e);
    if (rc != 0)
        return rc;
    s->st.execs++;
    uint64_t ms = r->time_us / 1000;
    if (r->status != GB_RUN_TIMEOUT && ms > s->st.slowest_exec_ms)
        s->st.slowest_exec_ms = (uint32_t)(ms > UINT32_MAX ? UINT32_MAX : ms);
    gb_score_t sc;
    gb_cov_score(&s->cov, gb_fsrv_map(s->run.fsrv), gb_fsrv_map_size(s->run.fsrv), &sc);
    gb_reach_on_run(s, it, gb_fsrv_map(s->run.fsrv), gb_fsrv_map_size(s->run.fsrv),
                    r->status == GB_RUN_CRASH);
    it->score = sc.fresh;
    it->novelty = sc.novelty;
    measure_frontier(s, it);
    return 0;
}

/* Saves a crash that covers a (block, bucket) pair no saved crash did, as
 * AFL++ does: one per distinct block set flooded crashes/ on a bug most
 * inputs hit (docs/campaign.md). */
static gb_run_kind_t save_crash(gb_search_t *s, gb_item_t *it, const gb_run_result_t *r,
                                const char *desc, gb_err_t *e)
{
    s->st.crashes_seen++;
    int fresh = gb_cov_crash_new(s->run.crash_seen, gb_fsrv_map(s->run.fsrv),
                                 gb_fsrv_map_size(s->run.fsrv));
    if (fresh) {
        uint32_t id;
        while (gb_campaign_add_crash(s->camp, it->data, it->len, r->signal, desc, &id, e) != 0)
            if (!gb_wait_for_space(s, errno))
                return GB_KIND_FATAL;
        it->crash_id = id;
        s->st.crashes++;
        s->st.last_crash_ms = gb_time_ms();
        s->st.execs_at_crash = s->st.execs;
        if (!s->st.first_crash_ms)
            s->st.first_crash_ms = gb_time_ms() - s->pulse.start_ms + 1;
        if (s->o.stop_on_crash) /* after this step: the crash's stats get written */
            s->stop = 1;
    }
    return GB_KIND_CRASHED;
}

static gb_run_kind_t save_hang(gb_search_t *s, gb_item_t *it, const char *desc, gb_err_t *e)
{
    s->st.hangs_seen++;
    int fresh = gb_hset_add(&s->run.hang_sigs,
                            gb_cov_sig(gb_fsrv_map(s->run.fsrv), gb_fsrv_map_size(s->run.fsrv)));
    uint32_t id;
    while (fresh > 0 && gb_campaign_add_hang(s->camp, it->data, it->len, desc, &id, e) != 0)
        if (!gb_wait_for_space(s, errno))
            return GB_KIND_FATAL;
    gb_notice(s, GB_NOTE_HANG, "an input ran past the time limit; it is in hangs/ and "
                               "is not expanded (raise -t if the target is only slow)");
    s->st.hangs += fresh > 0;
    if (fresh > 0)
        s->st.last_hang_ms = gb_time_ms();
    return GB_KIND_HUNG; /* hangs are not traced: the trace build would hang too */
}

gb_run_kind_t gb_run_check(gb_search_t *s, gb_item_t *it, const char *desc, gb_err_t *e)
{
    gb_run_result_t r;
    int rc = run_scored(s, it, &r, e);
    if (rc != 0)
        return rc > 0 ? GB_KIND_SKIPPED : GB_KIND_FATAL;
    if (it->score)
        s->run.last_find_ms = gb_time_ms();
    if (it->score && it->depth > 1) { /* a child: the worker's own find */
        s->st.own_finds++;
        s->st.own_blocks += it->score;
        s->st.own_last_find_ms = s->run.last_find_ms;
    }
    char d[512];
    snprintf(d, sizeof d, "%s%s", desc, it->score ? ",+cov" : "");
    if (r.status == GB_RUN_CRASH)
        return save_crash(s, it, &r, d, e);
    if (r.status == GB_RUN_TIMEOUT)
        return save_hang(s, it, d, e);
    return GB_KIND_RAN;
}

gb_run_kind_t gb_run_again(gb_search_t *s, gb_item_t *it, int is_crash, gb_err_t *e)
{
    gb_run_result_t r;
    int rc = run_scored(s, it, &r, e);
    if (rc != 0)
        return rc > 0 ? GB_KIND_SKIPPED : GB_KIND_FATAL;
    if (r.status == GB_RUN_CRASH || is_crash) {
        gb_cov_crash_new(s->run.crash_seen, gb_fsrv_map(s->run.fsrv),
                         gb_fsrv_map_size(s->run.fsrv));
        s->st.crashes += is_crash; /* a saved file counts, whatever it covers */
        return GB_KIND_CRASHED;
    }
    return r.status == GB_RUN_TIMEOUT ? GB_KIND_HUNG : GB_KIND_RAN;
}

/* Stores a normally running input in queue/ and the libFuzzer corpus. */
static int store(gb_search_t *s, gb_item_t *it, const char *desc, gb_err_t *e)
{
    char d[512];
    uint32_t id;
    snprintf(d, sizeof d, "%s%s", desc, it->score ? ",+cov" : "");
    while (gb_campaign_add_queue(s->camp, it->data, it->len, d, &id, e) != 0)
        if (!gb_wait_for_space(s, errno))
            return -1;
    while (gb_peers_kept(s->peers, it->data, it->len, e) != 0)
        if (!gb_wait_for_space(s, errno))
            return -1;
    it->queue_id = id;
    gb_free(it->file);
    it->file = gb_strdup(gb_campaign_last_queue_name(s->camp)); /* NULL: it keeps its bytes */
    if (it->depth > s->st.max_depth)
        s->st.max_depth = it->depth;
    return 0;
}

int gb_item_unpark(gb_search_t *s, gb_item_t *it)
{
    if (it->data)
        return 0;
    uint8_t *data;
    size_t len;
    if (gb_campaign_read_queue(s->camp, it->file, &data, &len, NULL) != 0)
        return 1;
    if (len != it->len || gb_hash64(data, len, 0) != it->hash) {
        gb_free(data);
        return 1;
    }
    it->data = data;
    return 0;
}

int gb_run_keep(gb_search_t *s, gb_item_t *it, gb_run_kind_t kind, const char *desc, gb_err_t *e)
{
    if ((kind == GB_KIND_RAN && store(s, it, desc, e) != 0) ||
        (gb_worklist_push(&s->work, it) != 0 && gb_err_set(e, "out of memory"))) {
        gb_item_free(it);
        return -1;
    }
    s->reach.kept++;
    return 0;
}

int gb_run_input(gb_search_t *s, const uint8_t *data, size_t len, const char *desc, int imported,
                 gb_err_t *e)
{
    int fresh = gb_run_fresh(&s->run, data, len, 0);
    if (fresh <= 0)
        return fresh < 0 ? gb_err_set(e, "out of memory") : 0;
    gb_item_t *it = gb_item_new(data, len, s->seq++);
    if (!it)
        return gb_err_set(e, "out of memory");
    s->st.imported += imported != 0;
    gb_run_kind_t kind = gb_run_check(s, it, desc, e);
    if (kind <= GB_KIND_HUNG) {
        gb_item_free(it);
        return kind == GB_KIND_FATAL ? -1 : 0;
    }
    return gb_run_keep(s, it, kind, desc, e);
}

gb_take_t gb_run_import(void *search, const uint8_t *data, size_t len, const char *desc,
                        gb_err_t *e)
{
    gb_search_t *s = search;
    if (s->stop)
        return GB_TAKE_LATER; /* offered again by the next sync */
    return gb_run_input(s, data, len, desc, 1, e) == 0 ? GB_TAKE_OK : GB_TAKE_FATAL;
}

void gb_run_warn(void *search, const char *msg)
{
    gb_search_t *s = search;
    if (s->o.on_notice)
        s->o.on_notice(msg, s->o.status_ctx);
}
