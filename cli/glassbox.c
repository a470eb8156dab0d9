/* SPDX-License-Identifier: Apache-2.0 */
/* The glassbox command: fuzz, trace, show. The only place that prints
 * errors and chooses exit codes (0 ok, 1 failure, 2 bad usage). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus.h"
#include "fuzz_bridge.h"
#include "generational.h"
#include "opts.h"
#include "symbolic.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static gb_search_t *running;

static void on_stop(int sig)
{
    (void)sig;
    if (running)
        gb_search_stop(running);
}

static int fail(const char *cmd, const char *msg)
{
    fprintf(stderr, "glassbox %s: %s\n", cmd, msg);
    return 1;
}

static char *join_args(int argc, char **argv)
{
    static char buf[2048];
    size_t n = 0;
    for (int i = 0; i < argc && n < sizeof buf - 1; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? " " : "", argv[i]);
    return buf;
}

/* ---- fuzz ------------------------------------------------------------ */

static int cmd_fuzz(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *name = "glassbox";
    unsigned long long t = 1000, v = 0, st = 2000;
    int no_opt = 0, quiet = 0;
    const gb_opt_t opts[] = {
        {'i', "input", GB_OPT_STR, "DIR", NULL, "seed directory (required)", &in},
        {'o', "output", GB_OPT_STR, "DIR", NULL, "output / sync directory (required)", &out},
        {'n', "name", GB_OPT_STR, "NAME", "GLASSBOX_NAME",
         "instance name: writes OUT/NAME/ (default glassbox)", &name},
        {'t', "timeout", GB_OPT_UINT, "MS", NULL, "time limit per run in ms (default 1000)", &t},
        {'V', "time", GB_OPT_UINT, "SECONDS", NULL, "stop after this long (default: never)", &v},
        {0, "solver-timeout", GB_OPT_UINT, "MS", "GLASSBOX_SOLVER_TIMEOUT",
         "Z3 time limit per query (default 2000)", &st},
        {0, "no-optimistic", GB_OPT_FLAG, NULL, NULL,
         "do not relax unsatisfiable queries (QSYM's optimistic solving)", &no_opt},
        {'q', "quiet", GB_OPT_FLAG, NULL, NULL, "no status lines on stderr", &quiet},
    };
    const gb_cmd_t cmd = {"fuzz", "-i SEEDS -o OUT [options] -- TRACE_BIN COV_BIN",
                          "Generational whitebox search: traces inputs on TRACE_BIN (a\n"
                          "glassbox-cc --mode=trace build), solves each branch flip with Z3 and\n"
                          "runs every new input on COV_BIN (--mode=cov) under the AFL++\n"
                          "forkserver. Results go to OUT/NAME/ in AFL++'s layout: queue/,\n"
                          "crashes/, hangs/, fuzzer_stats, plot_data. Stops when no input is\n"
                          "left to expand, after -V seconds, or on Ctrl-C.",
                          opts, N(opts)};
    const char *pos[8];
    int npos, nrest;
    char **rest;
    int r = gb_opts_parse(&cmd, argc, argv, pos, &npos, &rest, &nrest);
    if (r != 0)
        return r > 0 ? 0 : 2;
    if (!in || !out)
        return fprintf(stderr, "glassbox fuzz: -i SEEDS and -o OUT are required (see --help)\n"), 2;
    if (npos || nrest != 2)
        return fprintf(stderr, "glassbox fuzz: expected '-- TRACE_BIN COV_BIN' after the "
                               "options (see --help)\n"), 2;
    if (t == 0 || t > 3600000 || st > 3600000)
        return fprintf(stderr, "glassbox fuzz: timeouts must be between 1 ms and 1 hour\n"), 2;
    gb_err_t e;
    gb_seed_t *seeds;
    size_t nseeds;
    if (gb_seeds_load(in, &seeds, &nseeds, &e) != 0)
        return fail("fuzz", e.msg);
    gb_search_opts_t so = {
        .trace_bin = rest[0], .cov_bin = rest[1], .out = out, .name = name,
        .timeout_ms = (unsigned)t, .solver_timeout_ms = (unsigned)st, .max_seconds = v,
        .optimistic = !no_opt, .status_fd = quiet ? -1 : 2,
        .command_line = join_args(argc, argv),
    };
    gb_search_t *s;
    if (gb_search_new(&so, &s, &e) != 0) {
        gb_seeds_free(seeds, nseeds);
        return fail("fuzz", e.msg);
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
    return rc == 0 ? 0 : fail("fuzz", e.msg);
}

/* ---- trace ----------------------------------------------------------- */

static int cmd_trace(int argc, char **argv)
{
    const char *out = NULL;
    unsigned long long t = 10000;
    const gb_opt_t opts[] = {
        {'o', "output", GB_OPT_STR, "FILE.gbt", NULL, "where to write the trace (required)", &out},
        {'t', "timeout", GB_OPT_UINT, "MS", NULL, "time limit for the run (default 10000)", &t},
    };
    const gb_cmd_t cmd = {"trace", "INPUT -o FILE.gbt -- TRACE_BIN",
                          "Runs TRACE_BIN (a glassbox-cc --mode=trace build) once on INPUT and\n"
                          "writes its trace: the path constraint over the input bytes. See\n"
                          "docs/trace-format.md; print it with 'glassbox show'.",
                          opts, N(opts)};
    const char *pos[8];
    int npos, nrest;
    char **rest;
    int r = gb_opts_parse(&cmd, argc, argv, pos, &npos, &rest, &nrest);
    if (r != 0)
        return r > 0 ? 0 : 2;
    if (npos != 1 || !out || nrest != 1)
        return fprintf(stderr, "glassbox trace: usage: glassbox trace INPUT -o FILE.gbt -- "
                               "TRACE_BIN (see --help)\n"), 2;
    gb_err_t e;
    if (access(pos[0], R_OK) != 0)
        return fprintf(stderr, "glassbox trace: cannot read input %s\n", pos[0]), 1;
    if (gb_check_executable(rest[0], &e) != 0)
        return fail("trace", e.msg);
    int has = gb_binary_has_marker(rest[0], GB_MARKER_TRACE, &e);
    if (has <= 0)
        return fail("trace", has < 0 ? e.msg : "the binary is not a glassbox-cc --mode=trace build");
    char env[4200];
    snprintf(env, sizeof env, "GLASSBOX_TRACE_OUT=%s", out);
    char *xargv[] = {rest[0], (char *)pos[0], NULL}, *envs[] = {env, NULL};
    gb_exec_opts_t xo = {.argv = xargv, .env_extra = envs, .timeout_ms = (unsigned)t,
                         .show_output = 1};
    gb_run_result_t res;
    unlink(out);
    if (gb_exec_run(&xo, &res, &e) != 0)
        return fail("trace", e.msg);
    gb_trace_t *tr;
    if (gb_trace_load(out, GB_TRACE_PREFIX_OK, &tr, &e) != 0)
        return fail("trace", e.msg);
    gb_trace_info_t info;
    gb_trace_get_info(tr, &info);
    printf("%s: %zu nodes, %zu path constraint entries, %zu blocks; run %s", out, info.nodes,
           info.pcs, info.blocks,
           res.status == GB_RUN_CRASH ? "crashed" : res.status == GB_RUN_TIMEOUT ? "timed out"
                                                                                : "exited");
    if (res.status == GB_RUN_CRASH)
        printf(" (signal %d)", res.signal);
    else if (res.status == GB_RUN_OK)
        printf(" (status %d)", res.exit_code);
    printf("%s\n", info.complete ? "" : ", trace incomplete");
    gb_trace_free(tr);
    return 0;
}

/* ---- show ------------------------------------------------------------ */

static void print_blocks(const gb_trace_t *t)
{
    size_t n;
    const uint32_t *b = gb_trace_blocks(t, &n);
    for (size_t i = 0; i < n; i++)
        printf("%u\n", b[i]);
}

static int cmd_show(int argc, char **argv)
{
    int blocks = 0;
    const gb_opt_t opts[] = {
        {0, "blocks", GB_OPT_FLAG, NULL, NULL,
         "print the visited block ids instead, one per line", &blocks},
    };
    const gb_cmd_t cmd = {"show", "[--blocks] FILE.gbt",
                          "Prints a trace's path constraint as an SMT-LIB2 script: one\n"
                          "declaration per input byte, one assertion per entry (pins marked).",
                          opts, N(opts)};
    const char *pos[8];
    int npos, nrest;
    char **rest;
    int r = gb_opts_parse(&cmd, argc, argv, pos, &npos, &rest, &nrest);
    if (r != 0)
        return r > 0 ? 0 : 2;
    if (npos != 1 || nrest)
        return fprintf(stderr, "glassbox show: usage: glassbox show [--blocks] FILE.gbt\n"), 2;
    gb_err_t e;
    gb_trace_t *t;
    if (gb_trace_load(pos[0], 0, &t, &e) != 0)
        return fail("show", e.msg);
    int rc = 0;
    if (blocks)
        print_blocks(t);
    else
        rc = gb_trace_print_smt2(t, stdout, &e);
    gb_trace_free(t);
    return rc == 0 ? 0 : fail("show", e.msg);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: glassbox COMMAND [options]\n\n"
               "commands:\n"
               "  fuzz    generational whitebox search (-i SEEDS -o OUT -- TRACE_BIN COV_BIN)\n"
               "  trace   run a trace build on one input and write its trace\n"
               "  show    print a trace's path constraint as SMT-LIB2\n\n"
               "'glassbox COMMAND --help' describes each. Build targets with glassbox-cc.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *c = argv[1];
    if (!strcmp(c, "-h") || !strcmp(c, "--help") || !strcmp(c, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(c, "fuzz"))
        return cmd_fuzz(argc - 1, argv + 1);
    if (!strcmp(c, "trace"))
        return cmd_trace(argc - 1, argv + 1);
    if (!strcmp(c, "show"))
        return cmd_show(argc - 1, argv + 1);
    fprintf(stderr, "glassbox: unknown command '%s' (try glassbox --help)\n", c);
    return 2;
}
