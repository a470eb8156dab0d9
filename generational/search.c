/* SPDX-License-Identifier: Apache-2.0 */
/* The generational search (SAGE): GenerateInputs and ExpandExecution, with
 * child.bound = j + 1, lowered to the first divergence when a child leaves
 * the path it was predicted to follow (so an optimistic child that broke a
 * checksum can repair it in the next generation). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "search_int.h"

static void set_defaults(gb_search_opts_t *o)
{
    if (!o->name || !*o->name)
        o->name = "glassbox";
    if (!o->timeout_ms)
        o->timeout_ms = 1000;
    if (!o->trace_timeout_ms)
        o->trace_timeout_ms = o->timeout_ms * 10 > 5000 ? o->timeout_ms * 10 : 5000;
    if (!o->status_every_ms)
        o->status_every_ms = 2000;
}

static int check_binary(const char *path, const char *marker, const char *mode, gb_err_t *e)
{
    if (gb_check_executable(path, e) != 0)
        return -1;
    int has = gb_binary_has_marker(path, marker, e);
    if (has < 0)
        return -1;
    if (!has)
        return gb_err_set(e, "%s is not a Glassbox %s build (build it with glassbox-cc --mode=%s)",
                          path, mode, mode);
    return 0;
}

int gb_search_start_fsrv(gb_search_t *s, gb_err_t *e)
{
    char **argv = gb_argv_build(s->o.cov_bin, s->o.target_args, s->o.n_target_args, s->cur_input);
    if (!argv)
        return gb_err_set(e, "out of memory");
    gb_fsrv_opts_t fo = {.argv = argv, .input_path = s->cur_input, .timeout_ms = s->o.timeout_ms,
                         .mem_limit_mb = s->o.mem_limit_mb};
    int rc = gb_fsrv_start(&fo, &s->fsrv, e);
    gb_argv_free(argv);
    return rc;
}

/* The static CFG from the cov build, else the trace build (both carry it;
 * docs/cfg-format.md). Without one, every flip is solved. */
static int load_cfg(gb_search_t *s, gb_err_t *e)
{
    if (s->o.no_cfg)
        return 0;
    if (gb_cfg_load(s->o.cov_bin, &s->cfg, e) != 0 ||
        (!s->cfg && gb_cfg_load(s->o.trace_bin, &s->cfg, e) != 0))
        return -1;
    if (!s->cfg)
        gb_notice(s, GB_NOTE_NOCFG, "the targets carry no static CFG (built by an older "
                                    "glassbox-cc): every flip is solved");
    return 0;
}

int gb_search_cfg_skip(gb_search_t *s, const gb_pc_info_t *pc)
{
    if (!s->cfg)
        return 0;
    int may = gb_cfg_flip_may_reach(s->cfg, pc->kind, pc->site, pc->taken, s->virgin,
                                    s->st.blocks);
    if (gb_cfg_incomplete(s->cfg))
        gb_notice(s, GB_NOTE_CFG_PART, "a run covered blocks the static CFG does not list "
                                       "(code built without it, e.g. a shared library): every "
                                       "flip is solved from now on");
    s->st.flips_skipped_cfg += !may;
    return !may;
}

int gb_search_new(const gb_search_opts_t *opts, gb_search_t **out, gb_err_t *e)
{
    *out = NULL;
    gb_search_opts_t o = *opts;
    set_defaults(&o);
    if (check_binary(o.trace_bin, GB_MARKER_TRACE, "trace", e) != 0 ||
        check_binary(o.cov_bin, GB_MARKER_COV, "cov", e) != 0)
        return -1;
    gb_search_t *s = gb_calloc(1, sizeof *s);
    if (!s)
        return gb_err_set(e, "out of memory");
    s->o = o;
    s->start_ms = s->last_find_ms = gb_time_ms();
    gb_solver_opts_t so = {.timeout_ms = o.solver_timeout_ms, .optimistic = o.optimistic,
                           .budget_ms = o.solver_budget_ms};
    s->journal_fd = -1;
    if (load_cfg(s, e) != 0 || /* before the campaign dir: bad input leaves OUT alone */
        gb_campaign_open_flags(o.out, o.name, o.resume ? GB_CAMPAIGN_RESUME : 0, &s->camp, e) != 0 ||
        gb_solver_new(&so, &s->solver, e) != 0) {
        gb_search_free(s);
        return -1;
    }
    const char *dir = gb_campaign_dir(s->camp);
    gb_search_sync_solver(s, 2);
    snprintf(s->cur_input, sizeof s->cur_input, "%s/.cur_input", dir);
    snprintf(s->trace_input, sizeof s->trace_input, "%s/.cur_trace_input", dir);
    snprintf(s->trace_file, sizeof s->trace_file, "%s/.cur_trace.gbt", dir);
    if ((o.libfuzzer_dir && gb_mkdirs(o.libfuzzer_dir, e) != 0) || gb_search_start_fsrv(s, e) != 0 ||
        (o.resume && gb_resume_load(s, e) != 0)) {
        gb_search_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

/* Learned clauses and cached answers (docs/clauses.md): at start (when 2),
 * every worker's clauses in the sync dir and this worker's answers; then
 * every GB_SOLVER_SYNC_MS and at the end (final), this worker's are saved
 * and the peers' read again. A bad file is skipped: sharing is best effort. */
void gb_search_sync_solver(gb_search_t *s, int final)
{
    uint64_t now = gb_time_ms();
    if (final == 0 && now - s->last_solver_sync_ms < GB_SOLVER_SYNC_MS)
        return;
    s->last_solver_sync_ms = now;
    gb_err_t e;
    size_t n;
    char dir[4200], cache[4300];
    snprintf(dir, sizeof dir, "%s/clauses", gb_campaign_dir(s->camp));
    snprintf(cache, sizeof cache, "%s/answers.gbq", dir);
    if (final == 2)
        gb_solver_cache_load(s->solver, cache, &e);
    else {
        gb_solver_clauses_save(s->solver, dir, &e);
        gb_solver_cache_save(s->solver, cache, &e);
    }
    if (final != 1)
        gb_solver_clauses_import(s->solver, s->o.out, s->o.name, &n, &e);
}

int gb_search_add_seed(gb_search_t *s, const uint8_t *data, size_t len, const char *name,
                       gb_err_t *e)
{
    int fresh = gb_hset_add(&s->seen, gb_hash64(data, len, 0));
    if (fresh <= 0)
        return fresh < 0 ? gb_err_set(e, "out of memory") : 0;
    gb_item_t *it = gb_item_new(data, len, s->seq++);
    if (!it)
        return gb_err_set(e, "out of memory");
    char desc[300];
    snprintf(desc, sizeof desc, "orig:%.200s", name);
    for (char *p = desc; *p; p++)
        if (*p == '/' || *p == ',')
            *p = '_';
    int kind = gb_search_run_check(s, it, desc, e);
    if (kind <= 0) {
        gb_item_free(it);
        return kind;
    }
    if (gb_search_keep(s, it, kind, desc, e) != 0) {
        gb_item_free(it);
        return -1;
    }
    return 0;
}

void gb_search_stop(gb_search_t *s) { s->stop = 1; }

void gb_notice(gb_search_t *s, unsigned kind, const char *msg)
{
    if (s->noticed & kind)
        return;
    s->noticed |= kind;
    if (s->o.on_notice)
        s->o.on_notice(msg, s->o.status_ctx);
}

int gb_wait_for_space(gb_search_t *s, int err)
{
    if ((err != ENOSPC && err != EDQUOT) || s->stop ||
        (s->o.max_seconds && gb_time_ms() - s->start_ms >= s->o.max_seconds * 1000))
        return 0; /* out of time while the disk is full: the write's error ends the run */
    char msg[4300];
    snprintf(msg, sizeof msg, "the disk holding %s is full: writing paused, retrying every 2 s "
                              "(nothing is lost; free some space to go on)",
             gb_campaign_dir(s->camp));
    gb_notice(s, GB_NOTE_DISK, msg);
    struct timespec ts = {2, 0};
    nanosleep(&ts, NULL);
    return 1;
}

void gb_search_get_stats(const gb_search_t *s, gb_search_stats_t *st)
{
    *st = s->st;
    st->execs += s->prev.execs; /* earlier sessions, after --resume */
    st->traces += s->prev.traces;
    st->expanded += s->prev.expanded;
    st->pending = s->work.n;
    st->queue = gb_campaign_queue_count(s->camp);
}

void gb_search_free(gb_search_t *s)
{
    if (!s)
        return;
    if (s->camp)
        gb_report_write(s, 1, NULL);
    gb_fsrv_stop(s->fsrv);
    gb_solver_free(s->solver);
    gb_cfg_free(s->cfg);
    gb_campaign_close(s->camp);
    gb_worklist_free(&s->work);
    gb_hset_free(&s->seen);
    gb_hset_free(&s->crash_sigs);
    gb_hset_free(&s->hang_sigs);
    gb_hset_free(&s->lf_names);
    gb_free(s->sites);
    gb_sync_free(s);
    if (s->journal_fd >= 0)
        close(s->journal_fd);
    gb_free(s);
}
