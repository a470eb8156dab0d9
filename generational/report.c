/* SPDX-License-Identifier: Apache-2.0 */
/* What the search tells the outside: fuzzer_stats (AFL++ keys plus
 * Glassbox's own) and plot_data rows, written through corpus/; status views
 * render fuzzer_stats. On --resume the counters continue from it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "gb_version.h"
#include "search_int.h"


/* The counters a resumed session continues from. */
#define KEY_RUN_TIME "run_time"
#define KEY_EXECS "execs_done"
#define KEY_TRACES "traces_done"
#define KEY_EXPANDED "inputs_expanded"

typedef struct kvs {
    gb_stat_t v[128];
    size_t n;
} kvs_t;

static void kv(kvs_t *k, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void kv(kvs_t *k, const char *key, const char *fmt, ...)
{
    if (k->n >= sizeof k->v / sizeof k->v[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    k->v[k->n].key = key;
    k->v[k->n].text = NULL;
    vsnprintf(k->v[k->n].value, sizeof k->v[k->n].value, fmt, ap);
    va_end(ap);
    k->n++;
}

static double per_sec(uint64_t n, uint64_t ms) { return ms ? (double)n * 1000.0 / (double)ms : 0; }

/* execs per second over the last minute or so, as AFL++'s
 * execs_ps_last_min: a sample is taken at most once a minute. */
static double last_minute_eps(gb_search_t *s, uint64_t now, uint64_t execs)
{
    gb_minute_t *m = &s->report.minute;
    if (!m->at_ms) {
        m->at_ms = now;
        m->execs = execs;
    } else if (now - m->at_ms >= 60000) {
        m->eps = per_sec(execs - m->execs, now - m->at_ms);
        m->at_ms = now;
        m->execs = execs;
    }
    return m->eps;
}

static unsigned long long secs(uint64_t ms) { return (unsigned long long)(ms / 1000); }

/* AFL++ 4.04c's keys, in its order, with what they mean for a
 * generational search (docs/campaign.md, "fuzzer_stats"). */
static void fill_afl(gb_search_t *s, kvs_t *k, const gb_search_stats_t *st)
{
    uint64_t now = gb_time_ms(), run = now - s->pulse.start_ms;
    uint64_t session_execs = st->execs - s->report.prev.execs;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    kv(k, "start_time", "%llu", secs(s->pulse.start_ms));
    kv(k, "last_update", "%llu", secs(now));
    kv(k, KEY_RUN_TIME, "%llu", (unsigned long long)(run / 1000 + s->report.prev_run_s));
    kv(k, "fuzzer_pid", "%ld", (long)getpid());
    kv(k, "cycles_done", "%llu", (unsigned long long)st->cycles);
    kv(k, "cycles_wo_finds", "%llu", (unsigned long long)st->cycles_wo_finds);
    kv(k, KEY_EXECS, "%llu", (unsigned long long)st->execs);
    kv(k, "execs_per_sec", "%.2f", per_sec(session_execs, run));
    kv(k, "execs_ps_last_min", "%.2f", last_minute_eps(s, now, st->execs));
    kv(k, "corpus_count", "%u", st->queue);
    kv(k, "corpus_favored", "0"); /* no favoured inputs: the worklist is ordered by score */
    kv(k, "corpus_found", "%llu",
       (unsigned long long)(st->queue > st->imported ? st->queue - st->imported : 0));
    kv(k, "corpus_imported", "%llu", (unsigned long long)st->imported);
    kv(k, "max_depth", "%u", st->max_depth);
    kv(k, "cur_item", "%lld", (long long)(st->cur_item >= 0 ? st->cur_item : 0));
    kv(k, "pending_favs", "0");
    kv(k, "pending_total", "%zu", st->pending);
    kv(k, "bitmap_cvg", "%.2f%%", 100.0 * st->blocks / GB_MAP_SIZE);
    kv(k, "saved_crashes", "%u", st->crashes);
    kv(k, "saved_hangs", "%u", st->hangs);
    kv(k, "last_find", "%llu", secs(s->run.last_find_ms));
    kv(k, "last_crash", "%llu", secs(st->last_crash_ms));
    kv(k, "last_hang", "%llu", secs(st->last_hang_ms));
    kv(k, "execs_since_crash", "%llu", (unsigned long long)(st->execs - st->execs_at_crash));
    kv(k, "exec_timeout", "%u", s->o.timeout_ms);
    kv(k, "slowest_exec_ms", "%u", st->slowest_exec_ms);
    kv(k, "peak_rss_mb", "%ld", ru.ru_maxrss / 1024);
    kv(k, "cpu_affinity", "-1"); /* not bound to a core */
    kv(k, "edges_found", "%u", st->blocks); /* blocks: the cov build counts blocks */
    kv(k, "total_edges", "%u", GB_MAP_SIZE);
    kv(k, "var_byte_count", "0");
    kv(k, "havoc_expansion", "0");
    kv(k, "auto_dict_entries", "0");
    kv(k, "testcache_size", "0");
    kv(k, "testcache_count", "0");
    kv(k, "testcache_evict", "0");
}

/* Glassbox's own: the search's counters (crash_buckets only with a
 * triage report to count). */
static void fill_search(gb_search_t *s, kvs_t *k, const gb_search_stats_t *st)
{
    kv(k, KEY_TRACES, "%llu", (unsigned long long)st->traces);
    kv(k, KEY_EXPANDED, "%llu", (unsigned long long)st->expanded);
    kv(k, "crashes_seen", "%llu", (unsigned long long)st->crashes_seen);
    if (s->o.crash_buckets) {
        /* -1 while no report exists, or when one is read mid-rewrite by
         * the live triage: the last count stands (it never went down) */
        long b = s->o.crash_buckets(s->o.crash_buckets_ctx);
        if (b > s->report.crash_buckets)
            s->report.crash_buckets = b;
        kv(k, "crash_buckets", "%ld", s->report.crash_buckets);
    }
    kv(k, "first_crash_ms", "%llu", (unsigned long long)st->first_crash_ms);
    kv(k, "blocks_covered", "%u", st->blocks);
    kv(k, "own_finds", "%llu", (unsigned long long)st->own_finds);
    kv(k, "own_blocks", "%llu", (unsigned long long)st->own_blocks);
    kv(k, "last_own_find", "%llu", secs(st->own_last_find_ms));
    kv(k, "children_generated", "%llu", (unsigned long long)st->children);
    kv(k, "children_inserted", "%llu", (unsigned long long)st->inserted);
    kv(k, "children_token", "%llu", (unsigned long long)st->tokens);
    kv(k, "children_duplicate", "%llu", (unsigned long long)st->duplicates);
    kv(k, "children_divergent", "%llu", (unsigned long long)st->divergent);
    kv(k, "children_repaired", "%llu", (unsigned long long)st->repaired);
    kv(k, "flips_backoff", "%llu", (unsigned long long)st->flips_backoff);
    kv(k, "flips_new_const", "%llu", (unsigned long long)st->flips_new_const);
    kv(k, "flips_timed_out", "%llu", (unsigned long long)st->flips_timed_out);
    kv(k, "flips_deferred", "%llu", (unsigned long long)st->flips_deferred);
    kv(k, "traces_progress", "%llu", (unsigned long long)st->progress);
    kv(k, "branch_directions", "%llu", (unsigned long long)st->branch_dirs);
    kv(k, "retry_rounds", "%llu", (unsigned long long)st->retry_rounds);
    kv(k, "retry_rounds_flat", "%llu", (unsigned long long)st->retry_flat);
    kv(k, "expansions_suspended", "%llu", (unsigned long long)st->suspended);
    kv(k, "expansions_sliced", "%llu", (unsigned long long)st->sliced);
    kv(k, "expansions_yielded", "%llu", (unsigned long long)st->yielded);
    kv(k, "expansion_ms_median", "%u", st->expansion_ms_median);
    kv(k, "retry_pending", "%zu", st->retry_pending);
    kv(k, "worklist_dropped", "%llu", (unsigned long long)st->worklist_dropped);
    kv(k, "pauses", "%llu", (unsigned long long)st->pauses);
    kv(k, "paused_s", "%llu", (unsigned long long)(st->paused_ms / 1000));
}

/* What the worklist and the solver hold in memory. */
static void fill_memory(kvs_t *k, const gb_search_stats_t *st, const gb_solver_stats_t *q)
{
    kv(k, "mem_worklist_kb", "%llu", (unsigned long long)(st->worklist_bytes >> 10));
    kv(k, "mem_answers_kb", "%llu", (unsigned long long)(q->answers_bytes >> 10));
    kv(k, "mem_clauses_kb", "%llu", (unsigned long long)(q->clauses_bytes >> 10));
    kv(k, "mem_z3_kb", "%llu", (unsigned long long)(q->z3_bytes >> 10));
    kv(k, "z3_renewals", "%llu", (unsigned long long)q->z3_renewals);
    kv(k, "queries_z3_memout", "%llu", (unsigned long long)q->z3_memouts);
}

/* The solver's queries and learned clauses (and the flips the CFG spared it). */
static void fill_queries(kvs_t *k, const gb_search_stats_t *st, const gb_solver_stats_t *q)
{
    kv(k, "queries_total", "%llu", (unsigned long long)q->queries_total);
    kv(k, "queries_cut_slice_empty", "%llu", (unsigned long long)q->cut_slice_empty);
    kv(k, "queries_cut_clause", "%llu", (unsigned long long)q->cut_clause);
    kv(k, "queries_cut_interval_unsat", "%llu", (unsigned long long)q->cut_interval_unsat);
    kv(k, "queries_sat_interval", "%llu", (unsigned long long)q->sat_interval);
    kv(k, "queries_interval_enumerated", "%llu", (unsigned long long)q->ival_enumerated);
    kv(k, "queries_interval_swept", "%llu", (unsigned long long)q->ival_swept);
    kv(k, "queries_cache_hit", "%llu", (unsigned long long)q->cache_hit);
    kv(k, "queries_z3", "%llu", (unsigned long long)q->queries_z3);
    kv(k, "queries_z3_sat", "%llu", (unsigned long long)q->z3_sat);
    kv(k, "queries_z3_unsat", "%llu", (unsigned long long)q->z3_unsat);
    kv(k, "queries_z3_timeout", "%llu", (unsigned long long)q->z3_timeout);
    kv(k, "queries_z3_blasted", "%llu", (unsigned long long)q->z3_blasted);
    kv(k, "queries_z3_products", "%llu", (unsigned long long)q->z3_varmul);
    kv(k, "queries_budget_skip", "%llu", (unsigned long long)q->budget_skip);
    kv(k, "queries_relax_skip", "%llu", (unsigned long long)q->relax_skip);
    kv(k, "stored_left_out", "%llu", (unsigned long long)q->stored_dropped);
    kv(k, "stored_set", "%llu", (unsigned long long)q->stored_fixed);
    kv(k, "flips_skipped_cfg", "%llu", (unsigned long long)st->flips_skipped_cfg);
    kv(k, "clauses_learned", "%llu", (unsigned long long)q->clauses_learned);
    kv(k, "clauses_loaded", "%llu", (unsigned long long)q->clauses_loaded);
    kv(k, "queries_sat", "%llu", (unsigned long long)q->queries_sat);
    kv(k, "queries_unsat", "%llu", (unsigned long long)q->queries_unsat);
    kv(k, "queries_timeout", "%llu", (unsigned long long)q->queries_timeout);
    kv(k, "queries_optimistic", "%llu", (unsigned long long)q->queries_optimistic);
    kv(k, "solver_time_ms", "%llu", (unsigned long long)q->solver_time_ms);
}

/* The banner, versions and command line, last as in AFL++. */
static void fill_banner(gb_search_t *s, kvs_t *k)
{
    kv(k, "afl_banner", "%s", s->o.name);
    kv(k, "afl_version", "glassbox-" GB_VERSION); /* AFL++ tools expect a bare version */
    kv(k, "glassbox_version", "%s", GB_VERSION_FULL);
    kv(k, "target_mode", "glassbox generational");
    /* Whole, however long (AFL++ writes its full command line); a newline
     * in an argument would end the line, so it becomes a space. */
    kv(k, "command_line", "%s", "");
    if (s->report.command_line && k->n && !strcmp(k->v[k->n - 1].key, "command_line"))
        k->v[k->n - 1].text = s->report.command_line;
}

/* fuzzer_stats: AFL++'s keys first; then Glassbox's own; then the banner,
 * versions and command line. The order is the file's. */
static void fill_stats(gb_search_t *s, kvs_t *k)
{
    gb_search_stats_t st;
    gb_solver_stats_t q;
    gb_search_get_stats(s, &st);
    gb_solver_get_stats(s->solver, &q);
    fill_afl(s, k, &st);
    fill_search(s, k, &st);
    fill_memory(k, &st, &q);
    /* what the loop does, and what the peers gave and took */
    kv(k, "search_state", "%s", st.state ? st.state : "expanding");
    kv(k, "sync_imported", "%llu", (unsigned long long)st.imported);
    kv(k, "claimed_elsewhere", "%llu", (unsigned long long)st.claimed_elsewhere);
    fill_queries(k, &st, &q);
    fill_banner(s, k);
}

int gb_report_start(gb_report_state_t *r, const char *command_line)
{
    if (!command_line)
        return 0;
    if (!(r->command_line = gb_strdup(command_line)))
        return -1;
    for (char *p = r->command_line; (p = strpbrk(p, "\n\r"));)
        *p = ' ';
    return 0;
}

void gb_report_free(gb_report_state_t *r)
{
    gb_free(r->command_line);
    r->command_line = NULL;
}

void gb_report_mark(const gb_search_t *s, const gb_item_t *it, gb_exp_mark_t *m)
{
    m->mono_ms = gb_mono_ms();
    m->wall_ms = gb_time_ms();
    m->st = s->st;
    gb_solver_get_stats(s->solver, &m->q);
    m->part = it->pending ? 's' : it->retries ? 'r' : 'f';
    m->retries = it->retries;
}

static const char EXP_HEADER[] =
    "time_s\tms\tinput\torigin\tpart\tlen\tdepth\tscore\tflips\tsat\tunsat\ttimeout\t"
    "cfg_skip\tbackoff\tchildren\town_finds\town_blocks\timported\tblocks\tsolver_ms\t"
    "z3_ms\n";

/* Where an input came from, as its queue/ name says: a seed, a peer's, or
 * one this worker made. */
static const char *origin_of(const gb_item_t *it)
{
    if (it->depth > 1)
        return "child";
    if (it->file && strstr(it->file, ",sync:"))
        return "import";
    return it->file && strstr(it->file, ",orig:") ? "seed" : "other";
}

#define D(f) ((unsigned long long)(s->st.f - m->st.f))
#define DQ(f) ((unsigned long long)(q.f - m->q.f))

void gb_report_expansion(gb_search_t *s, const gb_item_t *it, const gb_exp_mark_t *m)
{
    /* its own time: not the pauses of a lent turn (--pause-file) within it */
    uint64_t ms = gb_mono_ms() - m->mono_ms, paused = s->st.paused_ms - m->st.paused_ms;
    ms = ms > paused ? ms - paused : 0;
    gb_report_state_t *r = &s->report;
    r->exp_ms[r->nexp_ms++ % GB_EXP_TIMES] = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
    if (!s->camp)
        return;
    gb_solver_stats_t q;
    gb_solver_get_stats(s->solver, &q);
    char input[32], part[16], row[512];
    if (it->queue_id >= 0)
        snprintf(input, sizeof input, "%lld", (long long)it->queue_id);
    else if (it->crash_id >= 0)
        snprintf(input, sizeof input, "crash:%lld", (long long)it->crash_id);
    else
        snprintf(input, sizeof input, "-");
    snprintf(part, sizeof part, m->part == 'r' ? "retry%u" : m->part == 's' ? "resumed" : "first",
             (unsigned)m->retries);
    int n = snprintf(row, sizeof row,
                     "%.1f\t%llu\t%s\t%s\t%s\t%zu\t%u\t%u\t%llu\t%llu\t%llu\t%llu\t%llu\t"
                     "%llu\t%llu\t%llu\t%llu\t%llu\t%u\t%llu\t%llu\n",
                     (double)(m->wall_ms - s->pulse.start_ms) / 1000.0, (unsigned long long)ms,
                     input, origin_of(it), part, it->len, it->depth, it->score,
                     DQ(queries_total), DQ(queries_sat), DQ(queries_unsat), DQ(queries_timeout),
                     D(flips_skipped_cfg), D(flips_backoff), D(children), D(own_finds),
                     D(own_blocks), D(imported), (unsigned)s->cov.blocks, DQ(solver_time_ms),
                     DQ(z3_time_ms));
    gb_err_t e = {{0}};
    if (n > 0 && (size_t)n < sizeof row &&
        gb_campaign_append_row(s->camp, "expansions.tsv", EXP_HEADER, row, (size_t)n, &e) != 0)
        gb_notice(s, GB_NOTE_PROFILE, e.msg);
}
#undef D
#undef DQ

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The median of the timed expansions in the ring (the lower one of an
 * even count); 0 when none. */
static uint32_t expansion_median(const gb_report_state_t *r)
{
    size_t n = r->nexp_ms < GB_EXP_TIMES ? (size_t)r->nexp_ms : GB_EXP_TIMES;
    uint32_t v[GB_EXP_TIMES];
    if (!n)
        return 0;
    memcpy(v, r->exp_ms, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_u32);
    return v[(n - 1) / 2];
}

void gb_search_get_stats(const gb_search_t *s, gb_search_stats_t *st)
{
    *st = s->st;
    st->blocks = s->cov.blocks;
    st->execs += s->report.prev.execs; /* earlier sessions, after --resume */
    st->traces += s->report.prev.traces;
    st->expanded += s->report.prev.expanded;
    st->pending = s->work.n;
    st->queue = gb_campaign_queue_count(s->camp);
    st->branch_dirs = s->exp.dirs.n;
    st->retry_pending = s->loop.nretry;
    st->expansion_ms_median = expansion_median(&s->report);
    st->worklist_bytes = gb_worklist_bytes(&s->work);
    for (size_t i = 0; i < s->loop.nretry; i++)
        st->worklist_bytes += gb_item_bytes(s->loop.retry[i]);
}

int gb_report_write(gb_search_t *s, gb_err_t *e)
{
    kvs_t k = {0};
    fill_stats(s, &k);
    if (gb_campaign_write_stats(s->camp, k.v, k.n, e) != 0)
        return -1;
    gb_search_stats_t st;
    gb_search_get_stats(s, &st);
    uint64_t run = gb_time_ms() - s->pulse.start_ms;
    gb_plot_row_t row = {
        .relative_time = run / 1000,
        .cycles_done = st.cycles,
        .cur_item = (uint64_t)(st.cur_item >= 0 ? st.cur_item : 0),
        .max_depth = st.max_depth,
        .corpus_count = st.queue,
        .pending_total = st.pending,
        .map_size = 100.0 * st.blocks / GB_MAP_SIZE,
        .saved_crashes = st.crashes,
        .saved_hangs = st.hangs,
        .execs_per_sec = per_sec(st.execs - s->report.prev.execs, run),
        .total_execs = st.execs,
        .edges_found = st.blocks,
    };
    return gb_campaign_plot(s->camp, &row, e);
}

void gb_report_restore(gb_search_t *s)
{
    static const char *const keys[] = {KEY_EXECS, KEY_TRACES, KEY_EXPANDED, KEY_RUN_TIME};
    uint64_t v[4] = {0};
    gb_err_t bad = {{0}};
    gb_campaign_read_stats_checked(s->camp, keys, v, 4, &bad);
    if (bad.msg[0]) /* a damaged file: its bad fields start from 0, said once */
        gb_run_warn(s, bad.msg);
    s->report.prev.execs = v[0];
    s->report.prev.traces = v[1];
    s->report.prev.expanded = v[2];
    s->report.prev_run_s = v[3];
}
