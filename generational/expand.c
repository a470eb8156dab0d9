/* SPDX-License-Identifier: Apache-2.0 */
/* Run&Check and ExpandExecution: run an input natively and score it; trace
 * an input and turn each satisfiable flip into a child. */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#include "search_int.h"

/* AFL's hit-count buckets: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+. */
static uint8_t bucket(uint8_t n)
{
    if (n <= 3)
        return (uint8_t)(1u << (n - 1));
    if (n <= 7)
        return 8;
    if (n <= 15)
        return 16;
    if (n <= 31)
        return 32;
    return n <= 127 ? 64 : 128;
}

/* Scores the last run: new blocks (the score) and new hit-count buckets
 * (the tie-breaker), both marked in the global map. *sig identifies the
 * set of blocks, for crash dedup. */
static uint32_t score_map(gb_search_t *s, uint32_t *novelty, uint64_t *sig)
{
    const uint8_t *map = gb_fsrv_map(s->fsrv);
    size_t n = gb_fsrv_map_size(s->fsrv);
    uint8_t bits[GB_COV_MAP / 8] = {0};
    uint32_t fresh = 0, nov = 0;
    for (size_t i = 0; i < n && i < GB_COV_MAP; i++) {
        if (!map[i])
            continue;
        bits[i >> 3] |= (uint8_t)(1u << (i & 7));
        uint8_t b = bucket(map[i]);
        if (!s->virgin[i])
            fresh++;
        if (!(s->virgin[i] & b)) {
            s->virgin[i] |= b;
            nov++;
        }
    }
    s->st.blocks += fresh;
    s->novel_total += nov;
    *novelty = nov;
    *sig = gb_hash64(bits, sizeof bits, 0);
    return fresh;
}

static int run_target(gb_search_t *s, gb_item_t *it, gb_run_result_t *r, gb_err_t *e)
{
    for (;;) {
        if (gb_fsrv_run(s->fsrv, it->data, it->len, r, e) == 0 && r->status != GB_RUN_ERROR)
            return 0;
        if (!gb_wait_for_space(s, errno)) /* writing the input file can hit a full disk */
            break;
    }
    /* One restart: the forkserver may have been killed from outside. */
    gb_fsrv_stop(s->fsrv);
    s->fsrv = NULL;
    if (gb_search_start_fsrv(s, e) != 0 ||
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
        while (gb_campaign_add_crash(s->camp, it->data, it->len, r->signal, desc, &id, e) != 0)
            if (!gb_wait_for_space(s, errno))
                return -1;
        it->crash_id = id;
        s->st.crashes++;
        if (!s->st.first_crash_ms)
            s->st.first_crash_ms = gb_time_ms() - s->start_ms + 1;
    }
    return 1;
}

int gb_search_run_check(gb_search_t *s, gb_item_t *it, const char *desc, gb_err_t *e)
{
    gb_run_result_t r;
    if (run_target(s, it, &r, e) != 0)
        return -1;
    s->st.execs++;
    uint64_t sig;
    it->score = score_map(s, &it->novelty, &sig);
    if (it->score)
        s->last_find_ms = gb_time_ms();
    char d[512];
    snprintf(d, sizeof d, "%s%s", desc, it->score ? ",+cov" : "");
    if (r.status == GB_RUN_CRASH)
        return save_crash(s, it, &r, sig, d, e) < 0 ? -1 : 2;
    if (r.status == GB_RUN_TIMEOUT) {
        s->st.hangs_seen++;
        int fresh = gb_hset_add(&s->hang_sigs, sig);
        uint32_t id;
        while (fresh > 0 && gb_campaign_add_hang(s->camp, it->data, it->len, d, &id, e) != 0)
            if (!gb_wait_for_space(s, errno))
                return -1;
        gb_notice(s, GB_NOTE_HANG, "an input ran past the time limit; it is in hangs/ and "
                                   "is not expanded (raise -t if the target is only slow)");
        s->st.hangs += fresh > 0;
        return 0; /* hangs are not traced: the trace build would hang too */
    }
    return 1;
}

int gb_search_rerun(gb_search_t *s, gb_item_t *it, int is_crash, gb_err_t *e)
{
    gb_run_result_t r;
    if (run_target(s, it, &r, e) != 0)
        return -1;
    s->st.execs++;
    uint64_t sig;
    it->score = score_map(s, &it->novelty, &sig);
    if (r.status == GB_RUN_CRASH || is_crash) {
        if (gb_hset_add(&s->crash_sigs, sig) > 0 && is_crash)
            s->st.crashes++;
        return 2;
    }
    return r.status == GB_RUN_TIMEOUT ? 0 : 1;
}

int gb_search_keep(gb_search_t *s, gb_item_t *it, int kind, const char *desc, gb_err_t *e)
{
    if (kind == 1) {
        char d[512];
        uint32_t id;
        snprintf(d, sizeof d, "%s%s", desc, it->score ? ",+cov" : "");
        while (gb_campaign_add_queue(s->camp, it->data, it->len, d, &id, e) != 0)
            if (!gb_wait_for_space(s, errno))
                return -1;
        while (gb_lf_export(s, it, e) != 0)
            if (!gb_wait_for_space(s, errno))
                return -1;
        it->queue_id = id;
    }
    if (gb_worklist_push(&s->work, it) != 0)
        return gb_err_set(e, "out of memory");
    return 0;
}

/* Runs the trace build on `it`; NULL (and a counted failure) if no usable
 * trace came out. */
static gb_trace_t *trace_item(gb_search_t *s, gb_item_t *it, gb_err_t *e)
{
    unlink(s->trace_file);
    if (gb_write_atomic(s->trace_input, gb_campaign_tmpdir(s->camp), it->data, it->len, e) != 0)
        return NULL;
    char env[4200], input_env[4200];
    snprintf(env, sizeof env, "GLASSBOX_TRACE_OUT=%s", s->trace_file);
    snprintf(input_env, sizeof input_env, "GLASSBOX_INPUT=%s", s->trace_input);
    char **argv = gb_argv_build(s->o.trace_bin, s->o.target_args, s->o.n_target_args,
                                s->trace_input);
    char *envs[] = {env, input_env, NULL};
    /* The trace build keeps shadow state: it gets four times the memory. */
    gb_exec_opts_t xo = {.argv = argv, .env_extra = envs, .timeout_ms = s->o.trace_timeout_ms,
                         .mem_limit_mb = s->o.mem_limit_mb * 4, .stdin_path = s->trace_input};
    gb_run_result_t r;
    int rc = argv ? gb_exec_run(&xo, &r, e) : gb_err_set(e, "out of memory");
    gb_argv_free(argv);
    if (rc != 0)
        return NULL;
    s->st.traces++;
    gb_trace_t *t = NULL;
    if (r.status == GB_RUN_OK && access(s->trace_file, F_OK) != 0) {
        s->trace_missing++; /* it exited without ever opening its input */
        return NULL;
    }
    if (gb_trace_load(s->trace_file, GB_TRACE_PREFIX_OK, &t, e) != 0)
        return NULL;
    s->trace_seen++;
    return t;
}

/* The first entry where the trace left the path the item was predicted to
 * follow, or SIZE_MAX if it kept to it. */
static size_t divergence(const gb_item_t *it, const gb_trace_t *t, size_t pcs)
{
    for (size_t d = 0; d < it->n_predicted; d++) {
        if (d >= pcs)
            return d;
        gb_pc_info_t pc;
        gb_trace_get_pc(t, d, &pc);
        const gb_step_t *p = &it->predicted[d];
        if (pc.site != p->site || pc.taken != p->taken || pc.kind != p->kind)
            return d;
    }
    return SIZE_MAX;
}

static gb_item_t *make_child(gb_search_t *s, const gb_item_t *parent, const gb_trace_t *t,
                             size_t j, const gb_model_t *m)
{
    size_t len;
    uint8_t *data = gb_model_apply(parent->data, parent->len, m, GB_MAX_INPUT, &len);
    gb_item_t *c = data ? gb_item_new(data, len, s->seq++) : NULL;
    gb_free(data);
    if (!c)
        return NULL;
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

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int out_of_time(gb_search_t *s)
{
    return s->stop ||
           (s->o.max_seconds && gb_time_ms() - s->start_ms >= s->o.max_seconds * 1000);
}

static void tick(gb_search_t *s)
{
    uint64_t now = gb_time_ms();
    if (now - s->last_sync_ms >= GB_SYNC_EVERY_MS) {
        gb_err_t se;
        if (gb_sync_run(s, &se) != 0)
            s->sync_failed = 1; /* reported by gb_search_run */
    }
    if (now - s->last_status_ms < s->o.status_every_ms)
        return;
    s->last_status_ms = now;
    if (gb_report_write(s, 0, NULL) == 0 && s->o.on_status) /* a failed write is retried */
        s->o.on_status(gb_campaign_dir(s->camp), 0, s->o.status_ctx);
}

static void child_desc(char *buf, size_t n, const gb_item_t *parent, size_t j, const char *tag)
{
    if (parent->queue_id >= 0)
        snprintf(buf, n, "src:%06lld,op:gen,pos:%zu%s", (long long)parent->queue_id, j, tag);
    else if (parent->crash_id >= 0)
        snprintf(buf, n, "src:crash%06lld,op:gen,pos:%zu%s", (long long)parent->crash_id, j, tag);
    else
        snprintf(buf, n, "src:%06lld,op:gen,pos:%zu%s", (long long)parent->src_id, j, tag);
}

/* Solves flip j of `t` (traced from `it`) into a new child, run and
 * scored. Returns the child (or NULL: no model, duplicate, hang) and its
 * run kind in *kind; -1 in *kind on a fatal error. */
static gb_item_t *solve_child(gb_search_t *s, gb_item_t *it, const gb_trace_t *t, size_t j,
                              const char *tag, int *kind, gb_err_t *e)
{
    gb_flip_t f;
    memset(&f, 0, sizeof f);
    *kind = 0;
    gb_solver_set_input(s->solver, it->data, it->len); /* the interval stage's defaults */
    int fr = gb_solver_flip(s->solver, t, j, &f, e);
    gb_solver_set_input(s->solver, NULL, 0);
    if (fr != 0 || f.status != GB_Q_SAT) {
        gb_flip_clear(&f);
        return NULL; /* a solver error loses this query, not the campaign */
    }
    gb_item_t *c = make_child(s, it, t, j, &f.model);
    int optimistic = f.optimistic;
    gb_flip_clear(&f);
    int fresh = c ? gb_hset_add(&s->seen, gb_hash64(c->data, c->len, 0)) : -1;
    if (fresh <= 0) {
        if (fresh < 0)
            *kind = gb_err_set(e, "out of memory");
        else
            s->st.duplicates++;
        gb_item_free(c);
        return NULL;
    }
    c->optimistic = optimistic;
    c->src_id = it->queue_id >= 0 ? it->queue_id : it->src_id;
    s->st.children++;
    char desc[160];
    child_desc(desc, sizeof desc, it, j, optimistic ? tag : "");
    *kind = gb_search_run_check(s, c, desc, e);
    if (*kind <= 0) {
        gb_item_free(c);
        return NULL;
    }
    return c;
}

static int keep_child(gb_search_t *s, gb_item_t *c, int kind, size_t j, gb_err_t *e);

/* An optimistic child usually breaks a check that the solver was allowed
 * to ignore (a checksum over pinned bytes). Trace it at once and flip the
 * first entry where it left the path its flip asked for; the repaired
 * grandchild aims at the same path, so a second broken checksum further on
 * is repaired in the next round, up to GB_MAX_REPAIRS rounds. A child that
 * found something new on its own is kept as well. */
static int repair(gb_search_t *s, gb_item_t *c, int kind, size_t j, int depth, gb_err_t *e)
{
    gb_err_t te;
    gb_trace_t *t = depth < GB_MAX_REPAIRS ? trace_item(s, c, &te) : NULL;
    if (!t)
        return keep_child(s, c, kind, j, e);
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    size_t d = divergence(c, t, info.pcs);
    if (d == SIZE_MAX || d >= info.pcs) {
        gb_trace_free(t);
        return keep_child(s, c, kind, j, e);
    }
    int rkind;
    gb_item_t *r = solve_child(s, c, t, d, ",opt", &rkind, e);
    gb_trace_free(t);
    if (rkind < 0) {
        gb_item_free(c);
        return -1;
    }
    if (!r)
        return keep_child(s, c, kind, j, e);
    s->st.repaired++;
    gb_free(r->predicted); /* r aims where c aimed */
    r->predicted = c->predicted;
    r->n_predicted = c->n_predicted;
    r->bound = c->bound;
    c->predicted = NULL;
    c->n_predicted = 0;
    r->optimistic = 1;
    if ((c->score || c->novelty) && keep_child(s, c, kind, j, e) != 0) {
        gb_item_free(r);
        return -1;
    }
    if (!c->score && !c->novelty)
        gb_item_free(c);
    return repair(s, r, rkind, j, depth + 1, e);
}

static int keep_child(gb_search_t *s, gb_item_t *c, int kind, size_t j, gb_err_t *e)
{
    char desc[160];
    snprintf(desc, sizeof desc, "src:%06lld,op:gen,pos:%zu%s", (long long)c->src_id, j,
             c->optimistic ? ",opt" : "");
    if (gb_search_keep(s, c, kind, desc, e) != 0) {
        gb_item_free(c);
        return -1;
    }
    return 0;
}

/* The payoff record of flipping `site` to direction `dir` (NULL on OOM). */
static gb_site_stat_t *site_stat(gb_search_t *s, uint32_t site, unsigned dir)
{
    if (2 * (s->n_sites + 1) > s->cap_sites) {
        size_t nc = s->cap_sites ? 2 * s->cap_sites : 1024;
        gb_site_stat_t *ns = gb_calloc(nc, sizeof *ns);
        if (!ns)
            return NULL;
        for (size_t i = 0; i < s->cap_sites; i++) {
            if (!s->sites[i].key)
                continue;
            size_t k = (size_t)(s->sites[i].key * 0x9e3779b97f4a7c15ull) & (nc - 1);
            while (ns[k].key)
                k = (k + 1) & (nc - 1);
            ns[k] = s->sites[i];
        }
        gb_free(s->sites);
        s->sites = ns;
        s->cap_sites = nc;
    }
    uint64_t key = ((uint64_t)site << 1 | dir) + 1;
    size_t k = (size_t)(key * 0x9e3779b97f4a7c15ull) & (s->cap_sites - 1);
    while (s->sites[k].key && s->sites[k].key != key)
        k = (k + 1) & (s->cap_sites - 1);
    if (!s->sites[k].key) {
        s->sites[k].key = key;
        s->n_sites++;
    }
    return &s->sites[k];
}

/* Back-off: a direction whose last GB_SITE_FREE_TRIES children found
 * nothing new is only tried again at power-of-two counts of unpaid tries. */
static int worth_flipping(const gb_site_stat_t *ss)
{
    uint32_t u = ss->unpaid;
    return u < GB_SITE_FREE_TRIES || (u & (u - 1)) == 0;
}

static int flip_one(gb_search_t *s, gb_item_t *it, const gb_trace_t *t, size_t j, gb_err_t *e)
{
    gb_pc_info_t pc;
    gb_trace_get_pc(t, j, &pc);
    if (gb_search_cfg_skip(s, &pc))
        return 0;
    gb_site_stat_t *ss = site_stat(s, pc.site, !pc.taken);
    if (ss && !worth_flipping(ss)) {
        ss->unpaid++;
        s->st.flips_backoff++;
        return 0;
    }
    uint64_t blocks = s->st.blocks, novel = s->novel_total, crashes = s->st.crashes;
    int kind, rc;
    gb_item_t *c = solve_child(s, it, t, j, ",opt", &kind, e);
    if (!c)
        return kind < 0 ? -1 : 0;
    if (c->optimistic)
        rc = repair(s, c, kind, j, 0, e);
    else
        rc = keep_child(s, c, kind, j, e);
    if (ss) {
        ss->tries++;
        int paid = s->st.blocks != blocks || s->novel_total != novel || s->st.crashes != crashes;
        ss->unpaid = paid ? 0 : ss->unpaid + 1;
        ss->paid += (uint32_t)paid;
    }
    return rc;
}

typedef struct flip_pos {
    size_t j;
    uint32_t paid;
} flip_pos_t;

static int by_payoff(const void *a, const void *b)
{
    const flip_pos_t *x = a, *y = b;
    if (x->paid != y->paid)
        return x->paid > y->paid ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

/* The entries to flip, from `bound` on (pins left out): directions whose
 * children found something new before come first, most payoffs first, so
 * a time limit or an exhausted solver budget cuts the least promising
 * flips; the rest keep path order. NULL on OOM. */
static flip_pos_t *flip_order(gb_search_t *s, const gb_trace_t *t, size_t bound, size_t pcs,
                              size_t *n)
{
    flip_pos_t *v = gb_calloc(pcs > bound ? pcs - bound : 1, sizeof *v);
    *n = 0;
    for (size_t j = bound; v && j < pcs; j++) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, j, &pc);
        if (pc.kind == 1 /* GBT_PC_PIN */)
            continue;
        gb_site_stat_t *ss = site_stat(s, pc.site, !pc.taken);
        v[(*n)++] = (flip_pos_t){j, ss ? ss->paid : 0};
    }
    if (v)
        qsort(v, *n, sizeof *v, by_payoff);
    return v;
}

/* ExpandExecution: trace, then flip every entry from the bound on. The
 * bound drops to the first divergence from the predicted path. */
static int expand(gb_search_t *s, gb_item_t *it, gb_err_t *e)
{
    int mine = gb_claim(s, it, e);
    if (mine <= 0) {
        s->st.claimed_elsewhere += mine == 0;
        return mine;
    }
    gb_err_t te;
    gb_trace_t *t = trace_item(s, it, &te);
    s->st.expanded++;
    if (!t && s->trace_missing && !s->trace_seen)
        return gb_err_set(e, "%s exits without reaching its input (no trace was written): it "
                             "exits before LLVMFuzzerTestOneInput (look at its main or "
                             "LLVMFuzzerInitialize) or, for a program with its own main, before "
                             "it opens the input file (are @@ and the arguments right?), or it "
                             "is not a glassbox-cc --mode=trace build",
                          s->o.trace_bin);
    if (!t && s->trace_missing)
        gb_notice(s, GB_NOTE_NOBLOCK, "the trace build exited without reaching its input on "
                                      "some inputs; those are not expanded");
    if (!t)
        return gb_journal_expanded(s, it, e); /* no usable trace: nothing to redo */
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    if (info.blocks == 0)
        gb_notice(s, GB_NOTE_TRACE, "the trace build recorded no block for an input: it exits "
                                    "before the harness, or is not a --mode=trace build of the "
                                    "same harness as the cov build");
    size_t bound = it->bound, d = divergence(it, t, info.pcs);
    if (d != SIZE_MAX) {
        s->st.divergent++;
        bound = d < bound ? d : bound;
    }
    size_t n, k;
    flip_pos_t *order = flip_order(s, t, bound, info.pcs, &n);
    int rc = order ? 0 : gb_err_set(e, "out of memory");
    for (k = 0; k < n && rc == 0 && !out_of_time(s); k++) {
        rc = flip_one(s, it, t, order[k].j, e);
        tick(s);
    }
    gb_free(order);
    gb_trace_free(t);
    if (rc == 0 && k >= n) /* finished: a resume must not redo it */
        rc = gb_journal_expanded(s, it, e);
    return rc;
}

int gb_search_run(gb_search_t *s, gb_err_t *e)
{
    if (s->st.blocks == 0 && s->work.n > 0)
        return gb_err_set(e, "%s covered no block on any seed: it exits before reaching "
                             "LLVMFuzzerTestOneInput (look at its main or LLVMFuzzerInitialize), "
                             "or it is not a glassbox-cc --mode=cov build", s->o.cov_bin);
    int rc = gb_sync_run(s, e);
    while (rc == 0 && !out_of_time(s) && !s->sync_failed) {
        gb_item_t *it = gb_worklist_pop(&s->work);
        if (!it && s->npeers == 0 && !s->o.libfuzzer_dir)
            break; /* alone and done */
        if (!it) { /* peers may still find something: wait for them */
            sleep_ms(200);
            tick(s);
            continue;
        }
        rc = expand(s, it, e);
        gb_item_free(it);
        tick(s);
    }
    if (rc == 0 && s->sync_failed)
        rc = gb_sync_run(s, e); /* again, for the message */
    if (gb_report_write(s, 1, rc == 0 ? e : NULL) != 0 && rc == 0)
        rc = -1;
    else if (s->o.on_status)
        s->o.on_status(gb_campaign_dir(s->camp), 1, s->o.status_ctx);
    return rc;
}
