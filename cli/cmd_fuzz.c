/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox fuzz: the generational search on one campaign directory. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"

#include "corpus.h"
#include "generational.h"
#include "status.h"

static gb_search_t *running;

static void show_status(const char *campaign_dir, int final, void *ctx)
{
    gb_status_show(ctx, campaign_dir, final);
}

static void show_notice(const char *msg, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "glassbox fuzz: note: %s\n", msg);
}

static void on_stop(int sig)
{
    (void)sig;
    if (running)
        gb_search_stop(running);
}

/* ---- fuzz ------------------------------------------------------------ */

int gb_cmd_fuzz(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *name = "glassbox", *lfdir = NULL;
    unsigned long long t = GB_RUN_TIMEOUT_MS, v = 0, st = GB_SOLVER_TIMEOUT_MS;
    unsigned long long sb = GB_SOLVER_BUDGET_MS, mem = GB_MEM_LIMIT_MB;
    int no_opt = 0, quiet = 0, resume = 0, no_cfg = 0;
    const gb_opt_t opts[] = {
        {'i', "input", GB_OPT_STR, "DIR", NULL, "seed directory (required)", &in},
        {'o', "output", GB_OPT_STR, "DIR", NULL, "output / sync directory (required)", &out},
        {'n', "name", GB_OPT_STR, "NAME", "GLASSBOX_NAME",
         "instance name: writes OUT/NAME/ (default glassbox)", &name},
        {'t', "timeout", GB_OPT_UINT, "MS", NULL, "time limit per run in ms (default 1000)", &t},
        {'V', "time", GB_OPT_UINT, "SECONDS", NULL, "stop after this long (default: never)", &v},
        {'m', "memory", GB_OPT_UINT, "MB", NULL,
         "address-space limit per run of the cov build, 0 = none (default 2048;\n"
         "                               the trace build gets four times as much)", &mem},
        {0, "solver-timeout", GB_OPT_UINT, "MS", "GLASSBOX_SOLVER_TIMEOUT",
         "Z3 time limit per query (default 2000)", &st},
        {0, "solver-budget", GB_OPT_UINT, "MS", NULL,
         "Z3 time per expanded input; once spent, only sites where Z3 found a\n"
         "                               model before are still solved (default 30000)", &sb},
        {0, "no-optimistic", GB_OPT_FLAG, NULL, NULL,
         "do not relax unsatisfiable queries (QSYM's optimistic solving)", &no_opt},
        {0, "no-cfg", GB_OPT_FLAG, NULL, NULL,
         "solve every flip, even those the targets' static CFG shows cannot reach\n"
         "                               an uncovered block", &no_cfg},
        {0, "libfuzzer-dir", GB_OPT_STR, "DIR", NULL,
         "trade inputs with a libFuzzer corpus dir (SHA-1 names, -reload=1)", &lfdir},
        {0, "resume", GB_OPT_FLAG, NULL, NULL,
         "continue the campaign in OUT/NAME (-i is then optional)", &resume},
        {'q', "quiet", GB_OPT_FLAG, NULL, NULL,
         "no status on stderr (default: a status screen on a terminal, else a line\n"
         "                               every 2 s; NO_COLOR turns colors off)", &quiet},
    };
    const gb_cmd_t cmd = {"fuzz", "-i SEEDS -o OUT [options] -- TRACE_BIN COV_BIN [ARGS...]",
                          "Generational whitebox search: traces inputs on TRACE_BIN (a\n"
                          "glassbox-cc --mode=trace build), solves each branch flip with Z3 and\n"
                          "runs every new input on COV_BIN (--mode=cov) under the AFL++\n"
                          "forkserver. Results go to OUT/NAME/ in AFL++'s layout: queue/,\n"
                          "crashes/, hangs/, fuzzer_stats, plot_data. Stops when no input is\n"
                          "left to expand, after -V seconds, or on Ctrl-C.\n"
                          "Both builds run as 'BIN ARGS...', with @@ in ARGS replaced by the\n"
                          "input file's path (as in afl-fuzz); without ARGS, as 'BIN PATH'.\n"
                          "The input is also their stdin. The trace build makes bytes read\n"
                          "from that file symbolic (docs/tracer.md, \"Input sources\").",
                          opts, GB_N(opts)};
    gb_args_t a;
    int r = gb_opts_args(&cmd, argc, argv, &a);
    if (r >= 0)
        return r;
    if ((!in && !resume) || !out)
        return fprintf(stderr, "glassbox fuzz: -i SEEDS and -o OUT are required (see --help)\n"), 2;
    if (a.npos || a.nrest < 2)
        return fprintf(stderr, "glassbox fuzz: expected '-- TRACE_BIN COV_BIN [ARGS...]' after "
                               "the options (see --help)\n"), 2;
    if (t == 0 || t > 3600000 || st > 3600000 || sb == 0 || sb > 3600000)
        return fprintf(stderr, "glassbox fuzz: timeouts and the solver budget must be between "
                               "1 ms and 1 hour\n"), 2;
    gb_err_t e;
    gb_seed_t *seeds = NULL;
    size_t nseeds = 0;
    if (in && gb_seeds_load(in, &seeds, &nseeds, &e) != 0)
        return gb_cli_fail("fuzz", e.msg);
    gb_search_opts_t so = {
        .trace_bin = a.rest[0], .cov_bin = a.rest[1], .out = out, .name = name,
        .target_args = a.rest + 2, .n_target_args = (size_t)a.nrest - 2,
        .timeout_ms = (unsigned)t, .solver_timeout_ms = (unsigned)st,
        .solver_budget_ms = (unsigned)sb, .max_seconds = v,
        .optimistic = !no_opt, .mem_limit_mb = (unsigned)mem, .on_notice = show_notice,
        .command_line = gb_cli_join(argc, argv), .resume = resume, .libfuzzer_dir = lfdir,
        .no_cfg = no_cfg,
    };
    gb_statview_t view;
    gb_status_init(&view, stderr);
    if (!quiet) {
        so.on_status = show_status;
        so.status_ctx = &view;
    }
    gb_search_t *s;
    if (gb_search_new(&so, &s, &e) != 0) {
        gb_seeds_free(seeds, nseeds);
        return gb_cli_fail("fuzz", e.msg);
    }
    running = s;
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    signal(SIGPIPE, SIG_IGN);
    int rc = 0;
    for (size_t i = 0; i < nseeds && rc == 0; i++)
        rc = gb_search_add_seed(s, seeds[i].data, seeds[i].len, seeds[i].name, &e);
    gb_seeds_free(seeds, nseeds);
    if (rc == 0)
        rc = gb_search_run(s, &e);
    running = NULL;
    gb_search_free(s);
    return rc == 0 ? 0 : gb_cli_fail("fuzz", e.msg);
}

