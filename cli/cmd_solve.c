/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox solve: expands recorded traces offline (every flip, as the
 * search would) and prints what each solver stage answered and how long it
 * took; --mode=both runs plain and full side by side, --check verifies
 * every full-mode answer against plain Z3 and concrete evaluation. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmds.h"
#include "gb_files.h"

#include "symbolic.h"

typedef struct solve_cfg {
    unsigned timeout_ms, budget_ms;
    int optimistic, check, verbose;
    unsigned slow_ms; /* --slow: print each flip that took at least this long (0: none) */
    const char *clauses_in, *clauses_out;
    FILE *check_times; /* --check-times: each Z3 check's time and limit (full solver) */
} solve_cfg_t;

typedef struct tally {
    uint64_t flips, sat, unsat, timeout, opt, no_z3, us;
    uint64_t bad_unsat, bad_model, unknown, differ; /* --check */
} tally_t;

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* TRACE.input next to TRACE, if present: the bytes the trace was recorded on. */
static uint8_t *load_input(const char *trace, size_t *len)
{
    char path[4096];
    uint8_t *d = NULL;
    gb_err_t e;
    snprintf(path, sizeof path, "%s.input", trace);
    struct stat sb;
    *len = 0;
    if (stat(path, &sb) != 0 || gb_read_file(path, (size_t)1 << 28, &d, len, &e) != 0)
        return NULL;
    return d;
}

/* Checks one full-mode answer against plain Z3: an UNSAT must be UNSAT, a
 * model must satisfy its query (the relaxed one when optimistic). */
static int check_flip(gb_solver_t *v, const gb_trace_t *t, size_t j, const gb_flip_t *f,
                      int have_input, const solve_cfg_t *c, tally_t *ta, gb_err_t *e)
{
    gb_qstatus_t st;
    int z3_ok, eval_ok;
    if (f->status == GB_Q_SAT && !have_input)
        return 0; /* a model is bytes over the recorded input: nothing to check it on */
    if (f->status == GB_Q_SAT) {
        if (gb_solver_verify(v, t, j, f->optimistic, &f->model, &st, &z3_ok, &eval_ok, e) != 0)
            return -1;
        if (!z3_ok || (!eval_ok && !f->optimistic)) {
            ta->bad_model++;
            fprintf(stderr, "check: entry %zu: model fails its query (stage %d, z3 %d, eval %d)\n",
                    j, f->stage, z3_ok, eval_ok);
        }
        return 0;
    }
    if (f->status != GB_Q_UNSAT)
        return 0;
    for (int relaxed = 0; relaxed <= (c->optimistic != 0); relaxed++) {
        if (gb_solver_verify(v, t, j, relaxed, NULL, &st, &z3_ok, &eval_ok, e) != 0)
            return -1;
        if (st == GB_Q_SAT) {
            ta->bad_unsat++;
            fprintf(stderr, "check: entry %zu: UNSAT (stage %d) but Z3 finds a model%s\n", j,
                    f->stage, relaxed ? " for PC[j] alone" : "");
        }
        ta->unknown += st == GB_Q_TIMEOUT;
    }
    return 0;
}

static const char *const status_name[] = {"sat", "unsat", "timeout", "skip"};
static const char *const kind_name[] = {"branch", "pin", "switch", "check"}; /* enum gbt_pc_kind */

/* --slow: one line per flip that took at least c->slow_ms, with what makes
 * a query hard (how many conjuncts the slice kept, how many input bytes the
 * flipped condition reads), so a bench can say why flips reach Z3 and why
 * they time out. */
static void print_slow(const char *path, const gb_trace_t *t, size_t j, const gb_flip_t *f,
                       uint64_t us)
{
    gb_pc_info_t pc;
    gb_trace_get_pc(t, j, &pc);
    uint64_t *offs = NULL;
    size_t nb = 0;
    if (gb_trace_pc_inputs(t, j, &offs, &nb) != 0)
        nb = 0;
    gb_free(offs);
    printf("slow: %s entry %zu %s site 0x%08x slice %zu bytes %zu z3 %u %s%s %.1f ms\n", path, j,
           (unsigned)pc.kind < GB_N(kind_name) ? kind_name[pc.kind] : "?", pc.site,
           f->slice_size, nb, f->z3_calls,
           (unsigned)f->status < GB_N(status_name) ? status_name[f->status] : "?",
           f->optimistic ? " optimistic" : "", (double)us / 1000.0);
}

static void count(tally_t *ta, const gb_flip_t *f, uint64_t us)
{
    ta->flips++;
    ta->us += us;
    ta->sat += f->status == GB_Q_SAT;
    ta->unsat += f->status == GB_Q_UNSAT;
    ta->timeout += f->status == GB_Q_TIMEOUT;
    ta->opt += f->status == GB_Q_SAT && f->optimistic;
    ta->no_z3 += f->z3_calls == 0;
}

/* Expands one trace on every solver given (plain first when two). */
static int expand(gb_solver_t **sv, int ns, gb_solver_t *v, const char *path, const solve_cfg_t *c,
                  tally_t *ta, gb_err_t *e)
{
    gb_trace_t *t;
    if (gb_trace_load(path, GB_TRACE_PREFIX_OK, &t, e) != 0)
        return -1;
    size_t len;
    uint8_t *in = load_input(path, &len);
    if (v && !in)
        fprintf(stderr, "glassbox solve: warning: no %s.input (the input it was recorded on): "
                        "--check checks its UNSAT answers only\n", path);
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    int r = 0;
    for (int k = 0; k < ns; k++)
        gb_solver_set_input(sv[k], in, len);
    if (v)
        gb_solver_set_input(v, in, len);
    for (size_t j = 0; j < info.pcs && r == 0; j++) {
        gb_flip_t f[2];
        for (int k = 0; k < ns && r == 0; k++) {
            uint64_t t0 = now_us();
            r = gb_solver_flip(sv[k], t, j, &f[k], e);
            uint64_t us = now_us() - t0;
            if (r == 0 && f[k].status != GB_Q_SKIP)
                count(&ta[k], &f[k], us);
            if (r == 0 && c->slow_ms && us >= (uint64_t)c->slow_ms * 1000u && k == ns - 1)
                print_slow(path, t, j, &f[k], us);
        }
        if (r == 0 && ns == 2 && f[0].status != f[1].status && f[0].status != GB_Q_TIMEOUT &&
            f[1].status != GB_Q_TIMEOUT) {
            ta[1].differ++;
            if (c->verbose)
                fprintf(stderr, "%s: entry %zu: plain %d, full %d (stage %d)\n", path, j,
                        f[0].status, f[1].status, f[1].stage);
        }
        if (r == 0 && v)
            r = check_flip(v, t, j, &f[ns - 1], in != NULL, c, &ta[ns - 1], e);
        for (int k = 0; k < ns; k++)
            gb_flip_clear(&f[k]);
    }
    gb_free(in);
    gb_trace_free(t);
    return r;
}

static int is_gbt(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 4 && strcmp(d->d_name + n - 4, ".gbt") == 0;
}

/* A file, or a directory's *.gbt files in name order. */
static int expand_path(gb_solver_t **sv, int ns, gb_solver_t *v, const char *path,
                       const solve_cfg_t *c, tally_t *ta, gb_err_t *e)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return expand(sv, ns, v, path, c, ta, e);
    struct dirent **list;
    int n = scandir(path, &list, is_gbt, alphasort), r = 0;
    if (n < 0)
        return gb_err_sys(e, "cannot read %s", path);
    for (int i = 0; i < n; i++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", path, list[i]->d_name);
        if (r == 0)
            r = expand(sv, ns, v, p, c, ta, e);
        free(list[i]);
    }
    free(list);
    return r;
}

static void report(const char *mode, const gb_solver_t *s, const tally_t *ta, int check)
{
    gb_solver_stats_t st;
    gb_solver_get_stats(s, &st);
    printf("%s: flips %llu: sat %llu (optimistic %llu) unsat %llu timeout %llu\n", mode,
           (unsigned long long)ta->flips, (unsigned long long)ta->sat, (unsigned long long)ta->opt,
           (unsigned long long)ta->unsat, (unsigned long long)ta->timeout);
    printf("%s: queries %llu: slice-empty %llu clause %llu interval-unsat %llu interval-sat %llu "
           "(enumerated %llu swept %llu) cache %llu z3 %llu (sat %llu unsat %llu timeout %llu "
           "bit-blasted %llu) budget %llu relaxed-first %llu\n",
           mode, (unsigned long long)st.queries_total, (unsigned long long)st.cut_slice_empty,
           (unsigned long long)st.cut_clause, (unsigned long long)st.cut_interval_unsat,
           (unsigned long long)st.sat_interval, (unsigned long long)st.ival_enumerated,
           (unsigned long long)st.ival_swept,
           (unsigned long long)st.cache_hit,
           (unsigned long long)st.queries_z3, (unsigned long long)st.z3_sat,
           (unsigned long long)st.z3_unsat, (unsigned long long)st.z3_timeout,
           (unsigned long long)st.z3_blasted, (unsigned long long)st.budget_skip,
           (unsigned long long)st.relax_skip);
    printf("%s: stored values left out %llu, set on the child %llu; terms narrowed %llu; "
           "z3 queries with products of inputs (no bit-blasting) %llu; "
           "z3 contexts renewed %llu, checks stopped for memory %llu, at their deadline %llu\n",
           mode, (unsigned long long)st.stored_dropped, (unsigned long long)st.stored_fixed,
           (unsigned long long)st.nodes_narrowed, (unsigned long long)st.z3_varmul,
           (unsigned long long)st.z3_renewals, (unsigned long long)st.z3_memouts,
           (unsigned long long)st.z3_overruns);
    printf("%s: flips without z3 %.1f%% | time %.1f ms (z3 %llu ms) | clauses learned %llu "
           "loaded %llu\n",
           mode, ta->flips ? 100.0 * (double)ta->no_z3 / (double)ta->flips : 0.0,
           (double)ta->us / 1000.0, (unsigned long long)st.z3_time_ms,
           (unsigned long long)st.clauses_learned, (unsigned long long)st.clauses_loaded);
    if (check)
        printf("%s: check: bad unsat %llu, bad models %llu, undecided %llu, differ from plain "
               "%llu\n",
               mode, (unsigned long long)ta->bad_unsat, (unsigned long long)ta->bad_model,
               (unsigned long long)ta->unknown, (unsigned long long)ta->differ);
}

static int make_solver(unsigned disable, const solve_cfg_t *c, gb_solver_t **s, gb_err_t *e)
{
    gb_solver_opts_t o = {c->timeout_ms, c->optimistic, disable, c->budget_ms};
    return gb_solver_new(&o, s, e);
}

static int run(const char *mode, const char *const *pos, size_t npos, const solve_cfg_t *c,
               gb_err_t *e)
{
    int both = !strcmp(mode, "both"), ns = both ? 2 : 1;
    gb_solver_t *sv[2] = {NULL, NULL}, *v = NULL;
    tally_t ta[2];
    memset(ta, 0, sizeof ta);
    int r = make_solver(strcmp(mode, "full") ? GB_SOLVER_PLAIN : 0, c, &sv[0], e);
    if (r == 0 && both)
        r = make_solver(0, c, &sv[1], e);
    if (r == 0 && c->check)
        r = make_solver(GB_SOLVER_PLAIN, c, &v, e);
    size_t added;
    if (r == 0 && c->check_times)
        gb_solver_set_check_log(sv[ns - 1], c->check_times);
    if (r == 0 && c->clauses_in)
        r = gb_solver_clauses_load(sv[ns - 1], c->clauses_in, 0, &added, e);
    for (size_t i = 0; i < npos && r == 0; i++)
        r = expand_path(sv, ns, v, pos[i], c, ta, e);
    if (r == 0 && c->clauses_out)
        r = gb_solver_clauses_save(sv[ns - 1], c->clauses_out, e);
    if (r == 0) {
        report(both ? "plain" : mode, sv[0], &ta[0], c->check && !both);
        if (both) {
            report("full", sv[1], &ta[1], c->check);
            printf("full/plain time ratio %.3f\n",
                   ta[0].us ? (double)ta[1].us / (double)ta[0].us : 0.0);
            printf("full/plain flips with a different answer (timeouts aside) %llu\n",
                   (unsigned long long)ta[1].differ);
        }
        const tally_t *x = &ta[ns - 1];
        if (c->check && (x->bad_unsat || x->bad_model || x->differ))
            r = gb_err_set(e, "check failed: %llu bad UNSAT, %llu bad models, %llu differ",
                           (unsigned long long)x->bad_unsat, (unsigned long long)x->bad_model,
                           (unsigned long long)x->differ);
    }
    for (int k = 0; k < 2; k++)
        gb_solver_free(sv[k]);
    gb_solver_free(v);
    return r;
}

gb_exit_t gb_cmd_solve(int argc, char **argv)
{
    const char *mode, *cin, *cout, *times; /* every variable here starts at its table default */
    unsigned long long tmo, budget, slow;
    int no_opt, check, verbose;
    gb_strlist_t traces = {0};
    const gb_opt_t opts[] = {
        GB_OPTION_STR(0, "mode", "plain|full|both", NULL, "full", &mode,
                      "plain = slicing + Z3 only; full = every stage; both = side by side"),
        GB_OPTION_UINT(0, "solver-timeout", "MS", "GLASSBOX_SOLVER_TIMEOUT", GB_SOLVER_TIMEOUT_MS,
                       &tmo, "Z3 time limit per query"),
        GB_OPTION_UINT(0, "budget", "MS", NULL, GB_SOLVER_BUDGET_MS, &budget,
                       "Z3 time per trace before only paying sites are solved"),
        GB_OPTION_FLAG(0, "no-optimistic", &no_opt, "do not relax unsatisfiable queries"),
        GB_OPTION_STR(0, "clauses-in", "DIR", NULL, NULL, &cin,
                      "load learned clauses (*.gbc) from DIR"),
        GB_OPTION_STR(0, "clauses-out", "DIR", NULL, NULL, &cout,
                      "save learned clauses to DIR/clauses.gbc"),
        GB_OPTION_FLAG(0, "check", &check,
                       "verify every answer against plain Z3 and concrete evaluation; fail on a "
                       "mismatch (models need TRACE.gbt.input)"),
        GB_OPTION_FLAG('v', "verbose", &verbose, "print each disagreement"),
        GB_OPTION_UINT(0, "slow", "MS", NULL, 0, &slow,
                       "print each flip (of the full solver) that took at least MS: entry, kind, "
                       "site, slice size, input bytes read, Z3 calls, answer, time"),
        GB_OPTION_STR(0, "check-times", "FILE", NULL, NULL, &times,
                      "write one line per Z3 check of the full solver to FILE: its wall time, "
                      "the time limit it was given, its answer"),
    };
    const gb_cmd_t cmd = {"solve",
                          "[options] TRACE.gbt|DIR...",
                          "Expands recorded traces offline: flips every entry as the search\n"
                          "would (one solver for all traces, so clauses and answers carry over)\n"
                          "and prints what each stage answered and the time spent. A directory\n"
                          "stands for its *.gbt files. A file TRACE.gbt.input, when present, is\n"
                          "the input the trace was recorded on.",
                          opts,
                          GB_N(opts),
                          &traces};
    gb_args_t a;
    gb_parsed_t parsed = gb_opts_args(&cmd, argc, argv, &a);
    if (parsed == GB_PARSED_OK &&
        (traces.n < 1 || a.nrest ||
         (strcmp(mode, "plain") && strcmp(mode, "full") && strcmp(mode, "both")) || tmo == 0)) {
        fprintf(stderr, "glassbox solve: usage: glassbox solve [--mode=plain|full|both] "
                        "TRACE.gbt... (see --help)\n");
        parsed = GB_PARSED_BAD;
    }
    solve_cfg_t c = {(unsigned)tmo, (unsigned)budget, !no_opt, check, verbose,
                     (unsigned)(slow > UINT32_MAX ? UINT32_MAX : slow), cin, cout, NULL};
    gb_err_t e;
    gb_exit_t rc = gb_opts_exit(parsed);
    if (parsed == GB_PARSED_OK && times &&
        !(c.check_times = gb_fopen_path(times, GB_OPEN_TRUNC, &e))) {
        parsed = GB_PARSED_BAD;
        rc = gb_cli_fail("solve", e.msg);
    }
    if (parsed == GB_PARSED_OK && run(mode, traces.v, traces.n, &c, &e) != 0)
        rc = gb_cli_fail("solve", e.msg);
    if (c.check_times && fclose(c.check_times) != 0 && rc == GB_EXIT_OK)
        rc = gb_cli_fail("solve", "cannot write the --check-times file");
    gb_strlist_free(&traces);
    return rc;
}
