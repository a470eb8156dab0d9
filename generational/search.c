/* SPDX-License-Identifier: Apache-2.0 */
/* The generational search (SAGE): GenerateInputs and ExpandExecution, with
 * child.bound = j + 1, lowered to the first divergence when a child leaves
 * the path it was predicted to follow (so an optimistic child that broke a
 * checksum can repair it in the next generation). */
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
        o->timeout_ms = GB_RUN_TIMEOUT_MS;
    if (!o->trace_timeout_ms)
        o->trace_timeout_ms = GB_TRACE_TIMEOUT_MS(o->timeout_ms);
    if (!o->status_every_ms)
        o->status_every_ms = GB_STATUS_EVERY_MS;
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
    s->front = gb_frontier_new(s->cfg); /* NULL: inputs that score alike keep arrival order */
    return 0;
}

/* Opens what the search works on: the campaign dir (after the CFG, so bad
 * input leaves OUT alone), its journal, the peers, the solver. */
static int open_parts(gb_search_t *s, gb_err_t *e)
{
    const gb_search_opts_t *o = &s->o;
    gb_solver_opts_t so = {.timeout_ms = o->solver_timeout_ms, .optimistic = o->optimistic,
                           .budget_ms = o->solver_budget_ms};
    if (load_cfg(s, e) != 0 ||
        gb_campaign_open_flags(o->out, o->name, o->resume ? GB_CAMPAIGN_RESUME : 0, &s->camp,
                               e) != 0 ||
        gb_journal_open(s->camp, &s->journal, e) != 0 || gb_solver_new(&so, &s->solver, e) != 0)
        return -1;
    if (o->z3_mem_max_mb)
        gb_solver_set_ceiling(s->solver, o->z3_mem_max_mb, GB_SEARCH_EXIT_MEMORY,
                              "glassbox fuzz: Z3 went over --z3-mem-max");
    const char *dir = gb_campaign_dir(s->camp);
    gb_peers_opts_t po = {.sync_dir = o->out, .name = o->name, .state_dir = dir,
                          .tmp_dir = gb_campaign_tmpdir(s->camp),
                          .libfuzzer_dir = o->libfuzzer_dir, .warn = gb_run_warn, .warn_ctx = s};
    if (gb_peers_new(&po, &s->peers, e) != 0)
        return -1;
    return gb_expand_start(s, e); /* names the trace's files in the campaign dir */
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
    s->pulse.start_ms = s->run.last_find_ms = gb_time_ms();
    s->st.cur_item = -1;
    s->st.state = "expanding";
    if (gb_report_start(&s->report, o.command_line) != 0) {
        gb_free(s);
        return gb_err_set(e, "out of memory");
    }
    if (open_parts(s, e) != 0 || gb_reach_init(s, e) != 0) {
        gb_search_free(s);
        return -1;
    }
    gb_pulse_share(s, GB_SHARE_LOAD);
    if (gb_run_start(s, e) != 0 || (o.resume && gb_resume_load(s, e) != 0)) {
        gb_search_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

int gb_search_add_seed(gb_search_t *s, const uint8_t *data, size_t len, const char *name,
                       gb_err_t *e)
{
    char desc[300];
    snprintf(desc, sizeof desc, "orig:%.200s", name);
    for (char *p = desc; *p; p++)
        if (*p == '/' || *p == ',')
            *p = '_';
    return gb_run_input(s, data, len, desc, 0, e);
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The last pulse: clauses saved, fuzzer_stats and plot_data written, the
 * status view called a last time. */
static int finish(gb_search_t *s, gb_err_t *e)
{
    gb_pulse_share(s, GB_SHARE_FINAL);
    if (gb_report_write(s, e) != 0)
        return -1;
    if (s->o.on_status)
        s->o.on_status(gb_campaign_dir(s->camp), 1, s->o.status_ctx);
    return 0;
}

/* After an expansion: a suspended input goes back on the worklist, one
 * whose flips were backed off waits for the next retry round; anything
 * else is done with. */
static void after_expand(gb_search_t *s, gb_item_t *it)
{
    if (it->suspended) { /* after the inputs with new blocks */
        it->suspended = 0;
        it->score = 0;
        if (gb_worklist_push(&s->work, it) != 0)
            gb_item_free(it); /* out of memory: the rest of its flips are lost */
        return;
    }
    gb_loop_t *l = &s->loop;
    if (it->nskipped == 0 || it->retries >= GB_RETRY_ROUNDS || l->nretry >= GB_RETRY_MAX ||
        gb_grow(&l->retry, &l->retry_cap, l->nretry + 1, sizeof *l->retry, 64) != 0) {
        gb_item_free(it);
        return;
    }
    gb_item_park(it);
    l->retry[l->nretry++] = it;
}

/* The worklist ran dry (or coverage is flat): the inputs with backed-off
 * flips go back on it. Their retry flips those flips whatever the back-off
 * says (expand.c); the back-off itself stays, so the inputs expanded for
 * the first time after the round do not flip every backed-off site again
 * (issue 36). 0 if there were none. */
static int retry_round(gb_search_t *s)
{
    gb_loop_t *l = &s->loop;
    if (l->nretry == 0)
        return 0;
    for (size_t i = 0; i < l->nretry; i++) {
        gb_item_t *it = l->retry[i];
        it->retries++;
        if (gb_worklist_push(&s->work, it) != 0)
            gb_item_free(it); /* out of memory: that input is not retried */
    }
    l->nretry = 0;
    s->st.retry_rounds++;
    return 1;
}

/* Coverage flat for long enough that the backed-off and timed-out flips
 * go first (GB_STALL_RETRY_MS); not in directed mode, whose retries are
 * part of its proof. */
static int stalled(gb_search_t *s)
{
    gb_loop_t *l = &s->loop;
    uint64_t found = s->run.last_find_ms;
    if (l->nretry == 0 || s->reach.on)
        return 0;
    if (found > l->stall_ms)
        l->stall_run = 0;
    uint64_t since = found > l->stall_ms ? found : l->stall_ms;
    if (s->pulse.resumed_ms > since) /* a pause is no stall */
        since = s->pulse.resumed_ms;
    unsigned d = l->stall_run < GB_STALL_DOUBLINGS ? l->stall_run : GB_STALL_DOUBLINGS;
    return gb_time_ms() - since >= ((uint64_t)GB_STALL_RETRY_MS << d);
}

/* The best waiting input, its frontier recounted: coverage grew since it
 * ran, so an input whose uncovered neighbours others have covered since
 * goes back to its new place. Each push back lowers a count, so this ends. */
static gb_item_t *pop_best(gb_search_t *s)
{
    gb_item_t *it;
    while ((it = gb_worklist_pop(&s->work)) && it->nfront) {
        uint32_t now = gb_frontier_recount(s->front, it->front, it->nfront, s->cov.virgin);
        if (now == it->nfront)
            break;
        it->nfront = now;
        const gb_item_t *next = gb_worklist_peek(&s->work);
        if (!next || !gb_worklist_before(next, it))
            break;
        if (gb_worklist_push(&s->work, it) != 0)
            break; /* out of memory: expand it now */
    }
    return it;
}

/* The solver stops with the search: a stop request (Ctrl-C, SIGTERM) or
 * the end of -V interrupts the Z3 check in progress instead of waiting
 * out its limit (up to 20 s with --solver-timeout 20000; issue 34). */
static void solver_stops_with(gb_search_t *s)
{
    uint64_t end = 0;
    if (s->o.max_seconds) {
        uint64_t spent = gb_time_ms() - s->pulse.start_ms, lim = s->o.max_seconds * 1000;
        end = gb_mono_ms() + (lim > spent ? lim - spent : 0);
    }
    gb_solver_set_stop(s->solver, &s->stop, end);
}

int gb_search_run(gb_search_t *s, gb_err_t *e)
{
    solver_stops_with(s);
    if (s->cov.blocks == 0 && s->work.n > 0)
        return gb_err_set(e, "%s covered no block on any seed: it exits before reaching "
                             "LLVMFuzzerTestOneInput (look at its main or LLVMFuzzerInitialize), "
                             "or it is not a glassbox-cc --mode=cov build", s->o.cov_bin);
    int rc = gb_pulse_sync(s, e);
    while (rc == 0 && !gb_search_out_of_time(s) && !s->pulse.sync_failed) {
        size_t dropped = gb_worklist_trim(&s->work, GB_WORKLIST_MAX);
        s->st.worklist_dropped += dropped;
        if (dropped && s->reach.on) /* their flips will not be asked: not a proof */
            gb_reach_hole(&s->reach, "the worklist was full (%u inputs): %zu were dropped",
                          GB_WORKLIST_MAX, dropped);
        if (s->reach.on && gb_reach_alive(&s->reach) && s->reach.paths > 0 &&
            gb_reach_exact_waiting(s) == 0) {
            s->reach.finished = 1; /* the exact tree is explored: the proof is done */
            break;
        }
        if (stalled(s) && retry_round(s)) {
            s->loop.stall_ms = gb_time_ms();
            s->loop.stall_run++;
            s->st.retry_flat++;
            s->st.state = "retrying backed-off and timed-out flips";
        }
        gb_item_t *it = pop_best(s);
        if (!it && !s->loop.dry) {
            /* A cycle: every input so far is expanded (AFL++'s cycles_done
             * counts passes over its queue). */
            s->st.cycles++;
            s->st.cycles_wo_finds =
                s->run.last_find_ms > s->loop.cycle_end_ms ? 0 : s->st.cycles_wo_finds + 1;
            s->loop.cycle_end_ms = gb_time_ms();
            s->st.cur_item = -1;
        }
        s->loop.dry = !it;
        if (!it && retry_round(s)) {
            s->st.state = "retrying backed-off and timed-out flips";
            continue;
        }
        if (!it && !gb_peers_active(s->peers)) {
            s->reach.finished = 1; /* every input expanded */
            break;                 /* alone and done */
        }
        if (!it) { /* peers may still find something: wait for them */
            s->st.state = "waiting for peers";
            sleep_ms(200);
            gb_pulse(s);
            continue;
        }
        if (gb_item_unpark(s, it) != 0) { /* its queue/ file is gone or changed */
            gb_item_free(it);
            s->st.worklist_dropped++;
            if (s->reach.on)
                gb_reach_hole(&s->reach, "a waiting input's queue/ file was gone or changed");
            continue;
        }
        if (!it->retries)
            s->st.state = "expanding";
        gb_exp_mark_t mark;
        gb_report_mark(s, it, &mark);
        rc = gb_expand(s, it, e);
        gb_report_expansion(s, it, &mark);
        after_expand(s, it);
        gb_pulse(s);
    }
    s->st.state = "done";
    if (rc == 0 && s->pulse.sync_failed)
        rc = gb_pulse_sync(s, e); /* again, for the message */
    int fin = finish(s, rc == 0 ? e : NULL);
    return rc == 0 ? fin : rc;
}

void gb_search_stop(gb_search_t *s) { s->stop = 1; }

void gb_search_free(gb_search_t *s)
{
    if (!s)
        return;
    if (s->camp && s->solver) {
        gb_pulse_share(s, GB_SHARE_FINAL);
        gb_report_write(s, NULL);
    }
    gb_run_free(&s->run);
    gb_solver_free(s->solver);
    gb_frontier_free(s->front);
    gb_reach_free(&s->reach);
    gb_cfg_free(s->cfg);
    gb_peers_free(s->peers);
    gb_journal_close(s->journal);
    gb_campaign_close(s->camp);
    gb_worklist_free(&s->work);
    for (size_t i = 0; i < s->loop.nretry; i++)
        gb_item_free(s->loop.retry[i]);
    gb_free(s->loop.retry);
    gb_expand_free(&s->exp);
    gb_sites_release(&s->sites);
    gb_report_free(&s->report);
    gb_free(s);
}
