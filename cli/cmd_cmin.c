/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox cmin: a corpus cut down to the inputs that keep its coverage
 * (triage/cmin.c), with a progress line and a summary. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"

#include "triage.h"

/* The most input dirs one command line names (a sync dir counts once). */
#define CMIN_MAX_DIRS 4096

static void on_stop(int sig)
{
    (void)sig;
    gb_cmin_stop();
}

static void show_progress(const gb_cmin_stats_t *s, const char *phase, void *ctx)
{
    int *shown = ctx;
    fprintf(stderr, "\rglassbox cmin: %s %zu/%zu, %zu crashes, %zu hangs   ", phase, s->done,
            s->to_run, s->crashes, s->hangs);
    fflush(stderr);
    *shown = 1;
}

/* 1 when `dir` exists and holds anything. */
static int dir_has_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *de;
    int found = 0;
    while (!found && (de = readdir(d)) != NULL)
        found = strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    closedir(d);
    return found;
}

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void summary(const gb_cmin_opts_t *o, const gb_cmin_stats_t *s, int ok)
{
    double run_s = (double)s->run_ms / 1000.0;
    printf("glassbox cmin: %zu inputs (%llu bytes) read, %zu skipped, %zu duplicates\n", s->inputs,
           (unsigned long long)s->in_bytes, s->skipped, s->duplicates);
    printf("glassbox cmin: %zu run in %.2f s (%.0f/s, %u forkservers), %zu crashes, %zu hangs "
           "(%s)\n",
           s->to_run, run_s, run_s > 0 ? (double)s->to_run / run_s : 0.0, o->jobs ? o->jobs : 1,
           s->crashes, s->hangs, o->keep_crashes ? "taking part" : "skipped");
    printf("glassbox cmin: %zu coverage elements (%s) in a %zu-byte map\n", s->elements,
           o->edges_only ? "map entries" : "map entry x hit-count bucket", s->map_size);
    if (!o->verify_only && (ok || s->kept))
        printf("glassbox cmin: kept %zu files, %llu bytes in %s (%.1f%% of the files, %.1f%% of "
               "the bytes)\n",
               s->kept, (unsigned long long)s->kept_bytes, o->out_dir, pct(s->kept, s->inputs),
               pct(s->kept_bytes, s->in_bytes));
    if ((o->verify || o->verify_only) && (s->verified || s->missing || s->extra))
        printf("glassbox cmin: verify: %s covers %zu elements, %zu missing, %zu extra: %s\n",
               o->out_dir, s->out_elements, s->missing, s->extra, s->verified ? "ok" : "FAILED");
    printf("glassbox cmin: %.2f s in all\n", (double)s->total_ms / 1000.0);
}

/* The parsed options' checks: GB_EXIT_OK, or the one-line error's status. */
static gb_exit_t check_args(const gb_strlist_t *dirs, const char *out, const gb_args_t *a,
                            unsigned long long t, unsigned long long jobs)
{
    if (dirs->n == 0 || !out)
        return gb_cli_error(GB_EXIT_USAGE, "cmin", "-i DIR and -o OUT are required (see --help)");
    if (a->npos)
        return gb_cli_error(GB_EXIT_USAGE, "cmin", "unexpected argument '%s' (see --help)",
                            a->pos[0]);
    if (a->nrest < 1)
        return gb_cli_error(GB_EXIT_USAGE, "cmin",
                            "expected '-- BIN [ARGS...]' after the options (see --help)");
    if (jobs == 0 || jobs > GB_CMIN_MAX_JOBS)
        return gb_cli_error(GB_EXIT_USAGE, "cmin", "-T must be between 1 and %u, got %llu",
                            GB_CMIN_MAX_JOBS, jobs);
    if (t == 0 || t > 3600000)
        return gb_cli_error(GB_EXIT_USAGE, "cmin", "-t must be between 1 ms and 1 hour");
    if (dirs->n > CMIN_MAX_DIRS)
        return gb_cli_error(GB_EXIT_USAGE, "cmin", "at most %d input dirs", CMIN_MAX_DIRS);
    return GB_EXIT_OK;
}

/* Runs the minimisation the options describe and reports it. */
static gb_exit_t run_cmin(gb_cmin_opts_t *o, int quiet)
{
    int shown = 0;
    o->on_progress = !quiet && isatty(2) ? show_progress : NULL;
    o->progress_ctx = &shown;
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    gb_cmin_stats_t s;
    gb_err_t e;
    int r = gb_cmin_run(o, &s, &e);
    if (shown)
        fprintf(stderr, "\n");
    if (s.to_run > 0) /* it got as far as running: say what it saw */
        summary(o, &s, r == 0);
    return r == 0 ? GB_EXIT_OK : gb_cli_fail("cmin", e.msg);
}

gb_exit_t gb_cmd_cmin(int argc, char **argv)
{
    const char *out;
    gb_strlist_t dirs = {0};
    unsigned long long t, mem, jobs;
    int keep, edges, verify, quiet, noaff;
    /* clang-format off */
    const gb_opt_t opts[] = {
        GB_OPTION_LIST('i', "input", "DIR...", &dirs, GB_OPT_RUN,
                      "input dir (required; repeat -i, or give several dirs after one -i): "
                      "corpora, AFL++ queues or a sync dir, merged"),
        GB_OPTION_STR('o', "output", "DIR", NULL, NULL, &out,
                      "output dir (required): created, or empty; with --verify an existing "
                      "one is checked"),
        GB_OPTION_UINT('t', "timeout", "MS", NULL, GB_RUN_TIMEOUT_MS, &t,
                       "time limit per run; slower inputs count as hangs"),
        GB_OPTION_UINT('m', "memory", "MB", NULL, GB_MEM_LIMIT_MB, &mem,
                       "address-space limit per run, 0 = none (ASan builds need 0)"),
        GB_OPTION_UINT('T', "jobs", "N", NULL, 1, &jobs,
                       "forkservers run side by side (at most " GB_OPT_XSTR(GB_CMIN_MAX_JOBS) ")"),
        GB_OPTION_FLAG('e', "edges-only", &edges,
                       "coverage without hit counts: one element per map entry (afl-cmin -e)"),
        GB_OPTION_FLAG(0, "keep-crashes", &keep,
                       "crashing and hanging inputs take part like any other (afl-cmin -A)"),
        GB_OPTION_FLAG(0, "verify", &verify,
                       "re-run the output and fail unless it covers exactly the input's "
                       "elements; on a non-empty OUT only this check runs"),
        GB_OPTION_FLAG(0, "no-affinity", &noaff,
                       "do not pin each forkserver and its target to one CPU (afl-fuzz "
                       "pins too; AFL_NO_AFFINITY there)"),
        GB_OPTION_FLAG('q', "quiet", &quiet, "no progress line on stderr"),
    };
    /* clang-format on */
    const gb_cmd_t cmd = {"cmin",
                          "-i DIR... -o OUT [options] -- BIN [ARGS...]",
                          "Corpus minimisation: runs every input of the DIRs through BIN's AFL++\n"
                          "forkserver (any AFL++-instrumented binary: a glassbox-cc --mode=cov\n"
                          "build, afl-clang-fast) and copies to OUT the fewest, smallest inputs\n"
                          "that keep every coverage element: a map entry with AFL's hit-count\n"
                          "bucket (1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+). Byte-identical\n"
                          "inputs run once; crashing and hanging ones are counted and left out.\n"
                          "Names are kept; a clash gets ',from:TAG' (docs/cmin.md). BIN runs as\n"
                          "'BIN ARGS...' with @@ replaced by the input's path; without @@ the\n"
                          "input is its stdin (as in afl-cmin). Exit 0, 1 on failure (also a\n"
                          "failed --verify), 2 on bad usage.",
                          opts,
                          GB_N(opts),
                          NULL};
    gb_args_t a;
    gb_parsed_t parsed = gb_opts_args(&cmd, argc, argv, &a);
    gb_exit_t rc = parsed != GB_PARSED_OK ? gb_opts_exit(parsed)
                                          : check_args(&dirs, out, &a, t, jobs);
    if (parsed != GB_PARSED_OK || rc != GB_EXIT_OK) { /* --help is GB_EXIT_OK too */
        gb_strlist_free(&dirs);
        return rc;
    }
    /* An existing, non-empty OUT with --verify: check it, write nothing. */
    int verify_only = verify && dir_has_entries(out);
    gb_cmin_opts_t o = {
        .in_dirs = dirs.v,
        .n_in = dirs.n,
        .out_dir = out,
        .bin = a.rest[0],
        .args = a.rest + 1,
        .nargs = (size_t)a.nrest - 1,
        .timeout_ms = (unsigned)t,
        .mem_limit_mb = (unsigned)mem,
        .jobs = (unsigned)jobs,
        .keep_crashes = keep,
        .edges_only = edges,
        .no_affinity = noaff,
        .verify = verify,
        .verify_only = verify_only,
    };
    rc = run_cmin(&o, quiet);
    gb_strlist_free(&dirs);
    return rc;
}
