/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox fuzz: the generational search on one campaign directory. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"

#include "corpus.h"
#include "crashes.h"
#include "generational.h"
#include "live.h"
#include "searching.h"
#include "status.h"

/* The status line's own period (--status-every) when stderr is not a
 * terminal; fuzzer_stats keeps the search's. */
typedef struct status_ctx {
    gb_statview_t view;
    uint64_t every_ms, last_ms;
} status_ctx_t;

static void show_status(const char *campaign_dir, int final, void *ctx)
{
    status_ctx_t *sc = ctx;
    uint64_t now = gb_time_ms();
    if (!final && !isatty(2) && sc->last_ms && now - sc->last_ms < sc->every_ms)
        return;
    sc->last_ms = now;
    gb_status_show(&sc->view, campaign_dir, final);
}

static void show_notice(const char *msg, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "glassbox fuzz: note: %s\n", msg);
}

static long count_buckets(void *report_dir) { return gb_live_buckets(report_dir); }

/* `name` cut to fit, control bytes shown as '?': the error stays one line. */
static const char *shown_name(const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s", name ? name : "");
    for (char *c = buf; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return buf;
}

/* The crashes OUT/NAME/crashes holds now, and how to replay them. */
static void summarize(const char *out, const char *name, const char *asan, const char *triage,
                      int quiet)
{
    char where[PATH_MAX];
    snprintf(where, sizeof where, "%s/%s/crashes/", out, name);
    gb_crash_summary_t sum = {.cmd = "fuzz", .where = where, .asan_bin = asan,
                              .triage_dir = triage, .quiet = quiet};
    gb_crashes_t *c = malloc(sizeof *c); /* ~300 KiB: not on the stack */
    if (!c)
        return;
    gb_crashes_scan(out, name, c);
    gb_crashes_print(stderr, &sum, c);
    free(c);
}

/* ---- fuzz ------------------------------------------------------------ */

/* The command line's values; parse_fuzz starts each at its table default. */
typedef struct fuzz_cli {
    const char *in, *out, *name, *lfdir;
    const char *triage_bin, *triage_dir, *pause_file;
    unsigned long long t, v, st, sb, mem, zmax, every, max_execs, slice, again;
    int no_opt, quiet, resume, no_cfg, exit_on_crash;
    gb_args_t a; /* rest: TRACE_BIN COV_BIN ARGS... */
} fuzz_cli_t;

static gb_parsed_t parse_fuzz(int argc, char **argv, fuzz_cli_t *f)
{
    /* (clang-format breaks strings around GB_OPT_XSTR as if it were a call.) */
    /* clang-format off */
    const gb_opt_t opts[] = {
        GB_OPTION_STR('i', "input", "DIR", NULL, NULL, &f->in,
                      "seed directory (required; - = --resume): its files and its subfolders', "
                      "each at most " GB_OPT_MAX_INPUT "; others are skipped with a warning"),
        GB_OPTION_STR('o', "output", "DIR", NULL, NULL, &f->out,
                      "output / sync directory (required)"),
        GB_OPTION_STR('n', "name", "NAME", "GLASSBOX_NAME", "glassbox", &f->name,
                      "instance name: writes OUT/NAME/"),
        GB_OPTION_UINT_EX('t', "timeout", "MS", NULL, GB_RUN_TIMEOUT_MS, &f->t, GB_OPT_PLUS, NULL,
                       "time limit per run in ms (a trace run gets "
                       GB_OPT_XSTR(GB_TRACE_TIMEOUT_FACTOR) " times as much, at least "
                       GB_OPT_XSTR(GB_TRACE_TIMEOUT_MIN_MS) " ms); AFL++'s MS+ means MS here: "
                       "seeds that time out are always skipped (kept in hangs/)"),
        GB_OPTION_UINT('V', "time", "SECONDS", NULL, 0, &f->v, "stop after this long, 0 = never"),
        GB_OPTION_UINT('E', "max-execs", "N", NULL, 0, &f->max_execs,
                       "stop after about N runs of COV_BIN, 0 = never (afl-fuzz -E; "
                       "libFuzzer's -runs)"),
        GB_OPTION_UINT_EX('m', "memory", "MB", NULL, GB_MEM_LIMIT_MB, &f->mem, GB_OPT_NONE_IS_0,
                       NULL,
                       "address-space limit per run, 0 or none = none (a trace run gets "
                       GB_OPT_XSTR(GB_TRACE_MEM_FACTOR) " times as much)"),
        GB_OPTION_UINT(0, "solver-timeout", "MS", "GLASSBOX_SOLVER_TIMEOUT", GB_SOLVER_TIMEOUT_MS,
                       &f->st, "Z3 time limit per query"),
        GB_OPTION_UINT_EX(0, "z3-mem-max", "MB", "GLASSBOX_Z3_MEM_MAX", GB_Z3_MEM_MAX_MB, &f->zmax,
                       GB_OPT_NONE_IS_0, NULL,
                       "Z3's memory ceiling, 0 or none = none: a check over it did not stop "
                       "at its interrupt, so the process exits with status "
                       GB_OPT_XSTR(GB_SEARCH_EXIT_MEMORY) " (--resume goes on without the "
                       "input it was on; a campaign restarts its workers)"),
        GB_OPTION_UINT(0, "solver-budget", "MS", NULL, GB_SOLVER_BUDGET_MS, &f->sb,
                       "Z3 time per expanded input; once spent, only sites where Z3 found a "
                       "model before are still solved"),
        GB_OPTION_UINT(0, "slice-seconds", "S", "GLASSBOX_SLICE_SECONDS",
                       GB_EXPAND_SLICE_S, &f->slice,
                       "an input's expansion that ran this long goes back on the worklist, "
                       "with its flips left, when any other input waits; 0 = never"),
        GB_OPTION_UINT(0, "again-seconds", "S", "GLASSBOX_AGAIN_SECONDS", GB_AGAIN_S, &f->again,
                       "a part of an input expanded again (a suspended expansion's rest, a "
                       "retry round) that ran this long goes back behind an input waiting for "
                       "its first expansion, and beside peers a retry's timeouts double once "
                       "only; 0 = never"),
        GB_OPTION_FLAG(0, "no-optimistic", &f->no_opt,
                       "do not relax unsatisfiable queries (QSYM's optimistic solving)"),
        GB_OPTION_FLAG(0, "no-cfg", &f->no_cfg,
                       "solve every flip, even those the targets' static CFG shows cannot "
                       "reach an uncovered block"),
        GB_OPTION_STR(0, "libfuzzer-dir", "DIR", NULL, NULL, &f->lfdir,
                      "trade inputs with a libFuzzer corpus dir (SHA-1 names, -reload=1)"),
        GB_OPTION_STR(0, "triage", "ASAN_BIN", NULL, NULL, &f->triage_bin,
                      "bucket every crash of OUT (AFL++'s and libFuzzer's too) into "
                      "OUT/triage/ as it arrives, replayed on ASAN_BIN (docs/triage.md)"),
        GB_OPTION_STR(0, "triage-dir", "DIR", NULL, NULL, &f->triage_dir,
                      "a live triage report another process writes: its bucket count "
                      "becomes crash_buckets"),
        GB_OPTION_STR(0, "pause-file", "PATH", NULL, NULL, &f->pause_file,
                      "wait between two steps while PATH exists (glassbox campaign lends "
                      "the worker's core to AFL++ this way: --lend-after)"),
        GB_OPTION_FLAG(0, "exit-on-crash", &f->exit_on_crash,
                       "stop at the first new crash and exit with status "
                       GB_OPT_XSTR(GB_EXIT_CRASH_STATUS) " (libFuzzer's convention); without "
                       "it a run that found crashes exits 0"),
        GB_OPTION_FLAG(0, "resume", &f->resume,
                       "continue the campaign in OUT/NAME (-i is then optional)"),
        GB_OPTION_UINT(0, "status-every", "MS", NULL, GB_STATUS_EVERY_MS, &f->every,
                       "how often a status line is written when stderr is not a terminal"),
        GB_OPTION_FLAG('q', "quiet", &f->quiet,
                       "no status on stderr; without it, a status screen on a terminal, else "
                       "a line every --status-every ms (NO_COLOR turns colors off)"),
    };
    /* clang-format on */
    const gb_cmd_t cmd = {"fuzz", "-i SEEDS -o OUT [options] -- TRACE_BIN COV_BIN [ARGS...]",
                          "Generational whitebox search: traces inputs on TRACE_BIN (a\n"
                          "glassbox-cc --mode=trace build), solves each branch flip with Z3 and\n"
                          "runs every new input on COV_BIN (--mode=cov) under the AFL++\n"
                          "forkserver. Results go to OUT/NAME/ in AFL++'s layout: queue/,\n"
                          "crashes/, hangs/, fuzzer_stats, plot_data. Stops when no input is\n"
                          "left to expand, after -V seconds or -E runs, or on Ctrl-C.\n"
                          "Both builds run as 'BIN ARGS...', with @@ in ARGS replaced by the\n"
                          "input file's path (as in afl-fuzz); without ARGS, as 'BIN PATH'.\n"
                          "The input is also their stdin. The trace build makes bytes read\n"
                          "from that file symbolic (docs/tracer.md, \"Input sources\").",
                          opts, GB_N(opts), NULL};
    return gb_opts_args(&cmd, argc, argv, &f->a);
}

/* The values' own checks, before any work (AFL++'s -i - becomes
 * --resume): GB_EXIT_OK or a usage error, printed. */
static gb_exit_t check_fuzz(fuzz_cli_t *f)
{
    char shown[80];
    if (f->in && strcmp(f->in, "-") == 0) /* AFL++'s -i - */
        f->in = NULL, f->resume = 1;
    if ((!f->in && !f->resume) || !f->out)
        return gb_cli_error(GB_EXIT_USAGE, "fuzz", "-i SEEDS and -o OUT are required (see --help)");
    if (f->a.npos || f->a.nrest < 2)
        return gb_cli_error(GB_EXIT_USAGE, "fuzz",
                            "expected '-- TRACE_BIN COV_BIN [ARGS...]' after the options "
                            "(see --help)");
    if (!gb_campaign_name_ok(f->name)) /* checked before any work: "" is not the default */
        return gb_cli_error(GB_EXIT_USAGE, "fuzz",
                            "bad campaign name '%s' (-n): use letters, digits, '_' and '-'",
                            shown_name(f->name, shown, sizeof shown));
    if (f->slice > 86400)
        return gb_cli_error(GB_EXIT_USAGE, "fuzz", "--slice-seconds must be at most a day");
    if (f->again > 86400)
        return gb_cli_error(GB_EXIT_USAGE, "fuzz", "--again-seconds must be at most a day");
    if (f->every == 0 || f->every > 86400000)
        return gb_cli_error(GB_EXIT_USAGE, "fuzz", "--status-every must be between 1 ms and a day");
    if (f->zmax > 1u << 20)
        return gb_cli_error(GB_EXIT_USAGE, "fuzz", "--z3-mem-max must be at most 1048576 MB");
    if (f->t == 0 || f->t > 3600000 || f->st > 3600000 || f->sb == 0 || f->sb > 3600000)
        return gb_cli_error(GB_EXIT_USAGE, "fuzz",
                            "timeouts and the solver budget must be between 1 ms and 1 hour");
    return GB_EXIT_OK;
}

/* The search's options from the command line; status and crash buckets
 * are added by the caller. */
static gb_search_opts_t search_opts(const fuzz_cli_t *f, int argc, char **argv)
{
    const gb_args_t *a = &f->a;
    return (gb_search_opts_t){
        .trace_bin = a->rest[0],
        .cov_bin = a->rest[1],
        .out = f->out,
        .name = f->name,
        .target_args = a->rest + 2,
        .n_target_args = (size_t)a->nrest - 2,
        .timeout_ms = (unsigned)f->t,
        .solver_timeout_ms = (unsigned)f->st,
        .solver_budget_ms = (unsigned)f->sb,
        .max_seconds = f->v,
        .optimistic = !f->no_opt,
        .mem_limit_mb = (unsigned)f->mem,
        .on_notice = show_notice,
        .z3_mem_max_mb = (unsigned)f->zmax,
        .command_line = gb_cli_join(argc, argv),
        .resume = f->resume,
        .libfuzzer_dir = f->lfdir,
        .no_cfg = f->no_cfg,
        .stop_on_crash = f->exit_on_crash,
        .max_execs = f->max_execs,
        .slice_ms = (unsigned)f->slice * 1000,
        .again_ms = (unsigned)f->again * 1000,
        .pause_file = f->pause_file,
    };
}

/* crash_buckets from --triage-dir's report, or from the live triage's own
 * (--triage): `report` names it once known; the live triage starts before
 * the search opens its forkserver and solver, so the child holds none of
 * their descriptors; it replays what lands in OUT. 0, or -1 with `e`. */
static int start_triage(const fuzz_cli_t *f, gb_search_opts_t *so, gb_live_t *live, char *report,
                        size_t cap, gb_err_t *e)
{
    if (f->triage_bin || f->triage_dir) {
        snprintf(report, cap, "%s", f->triage_dir ? f->triage_dir : "");
        so->crash_buckets = count_buckets;
        so->crash_buckets_ctx = report;
    }
    if (!f->triage_bin)
        return 0;
    if (gb_live_start(live, f->out, f->triage_bin, f->a.rest + 2, (size_t)f->a.nrest - 2,
                      GB_TRIAGE_TIMEOUT_MS, e) != 0)
        return -1;
    if (!f->triage_dir)
        snprintf(report, cap, "%s", live->report);
    return 0;
}

/* The search made, seeded (the seeds are freed either way) and run; the
 * live triage is stopped before the search's last fuzzer_stats, which
 * counts the last pass's buckets. *new_crash: the run found a new crash.
 * 0, or -1 with `e`. */
static int run_search(const gb_search_opts_t *so, gb_seed_t *seeds, size_t nseeds, gb_live_t *live,
                      int *new_crash, gb_err_t *e)
{
    gb_search_t *s;
    if (gb_search_new(so, &s, e) != 0) {
        gb_live_stop(live);
        gb_seeds_free(seeds, nseeds);
        return -1;
    }
    gb_search_stats_t st0, st1; /* new crashes = st1.crashes - st0.crashes */
    gb_search_get_stats(s, &st0);
    int rc = gb_cli_search(s, seeds, nseeds, e);
    gb_search_get_stats(s, &st1);
    gb_live_stop(live);
    gb_search_free(s);
    *new_crash = st1.crashes > st0.crashes;
    return rc;
}

gb_exit_t gb_cmd_fuzz(int argc, char **argv)
{
    fuzz_cli_t f;
    gb_parsed_t parsed = parse_fuzz(argc, argv, &f);
    if (parsed != GB_PARSED_OK)
        return gb_opts_exit(parsed);
    gb_exit_t bad = check_fuzz(&f);
    if (bad != GB_EXIT_OK)
        return bad;
    gb_err_t e;
    gb_seed_t *seeds = NULL;
    size_t nseeds = 0;
    if (f.in && gb_seeds_load(f.in, gb_cli_seed_skipped, "fuzz", &seeds, &nseeds, &e) != 0)
        return gb_cli_fail("fuzz", e.msg);
    gb_search_opts_t so = search_opts(&f, argc, argv);
    status_ctx_t sc = {.every_ms = f.every};
    gb_status_init(&sc.view, stderr);
    if (!f.quiet) {
        so.on_status = show_status;
        so.status_ctx = &sc;
    }
    gb_live_t live = {0};
    char report[4200];
    if (start_triage(&f, &so, &live, report, sizeof report, &e) != 0) {
        gb_seeds_free(seeds, nseeds);
        return gb_cli_error(GB_EXIT_FAIL, "fuzz", "--triage: %s", e.msg);
    }
    int new_crash = 0;
    int rc = run_search(&so, seeds, nseeds, &live, &new_crash, &e);
    int crashed = f.exit_on_crash && new_crash;
    if (crashed && !f.quiet)
        fprintf(stderr, "glassbox fuzz: stopped at a new crash (--exit-on-crash)\n");
    /* A fault is one line (e2e.faults), and a campaign quotes a failed
     * worker's last line: no summary then; crashes/README.txt stays. */
    if (rc != 0)
        return gb_cli_fail("fuzz", e.msg);
    char asan[PATH_MAX];
    summarize(f.out, f.name, gb_crashes_asan_bin(f.triage_bin, f.a.rest[1], asan, sizeof asan),
              f.triage_bin || f.triage_dir ? report : NULL, f.quiet);
    return crashed ? GB_EXIT_CRASH : GB_EXIT_OK;
}
