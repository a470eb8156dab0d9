/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox tmin: shrinks one input while it keeps its crash state or its
 * coverage (gb_tmin in triage/), and says by how much. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmds.h"
#include "gb_files.h"

#include "fuzz_bridge.h"
#include "triage.h"

/* Set by SIGINT/SIGTERM: gb_tmin stops and the best input so far is
 * written, as afl-tmin does. */
static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
    (void)sig;
    stop_requested = 1;
}

typedef struct tmin_cli {
    const char *in, *out, *mode, *trace;
    unsigned long long t, mem, max_runs;
    char *const *args; /* after BIN */
    size_t nargs;
    const char *bin;
    char work[4096];
    char input_path[4200]; /* the forkserver's input file ("@@" names it) */
} tmin_cli_t;

/* The directory part of `path`, for gb_write_atomic's temporary file. */
static void dir_of(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, n, ".");
    else if (slash == path)
        snprintf(dir, n, "/");
    else
        snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

static int make_work(tmin_cli_t *c, gb_err_t *e)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(c->work, sizeof c->work, "%s/glassbox-tmin.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(c->work)) /* gb-write-ok: a fresh 0700 dir of our own */
        return gb_err_sys(e, "cannot create a work directory in %s", tmp && *tmp ? tmp : "/tmp");
    snprintf(c->input_path, sizeof c->input_path, "%s/cur", c->work);
    return 0;
}

/* Empties and removes the work directory (made by make_work, so all in
 * it is ours); symlinks are removed, never followed. */
static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char p[4400];
    while (d && (de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        struct stat sb;
        if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
            remove_tree(p);
        else
            gb_remove_path(p);
    }
    if (d)
        closedir(d);
    rmdir(dir); /* gb-write-ok: rmdir never follows a link */
}

static void remove_work(tmin_cli_t *c)
{
    remove_tree(c->work);
}

static void report(const tmin_cli_t *c, const char *mode, const gb_tmin_stats_t *st)
{
    double pct = st->len_in ? 100.0 * (double)st->len_out / (double)st->len_in : 100.0;
    printf("tmin: %s mode: %zu -> %zu bytes (%.1f%%), %llu runs (%llu repeats skipped), "
           "%llu rounds, %llu ms%s\n",
           mode, st->len_in, st->len_out, pct, (unsigned long long)st->runs,
           (unsigned long long)st->repeats, (unsigned long long)st->rounds,
           (unsigned long long)st->time_ms,
           st->interrupted ? " (interrupted: the smallest input so far was written)" : "");
    if (c->trace) {
        const char *note = st->solver_note == GB_TMIN_NOTE_NOTRACE  ? " (no trace was written)"
                           : st->solver_note == GB_TMIN_NOTE_NOGAIN ? " (nothing kept)"
                                                                    : "";
        printf(
            "tmin: solver step: %zu -> %zu bytes, %zu of them '0' or NUL, %llu runs, %llu traces, "
            "%llu queries%s\n",
            st->len_in, st->len_after_solver, st->zero_after_solver,
            (unsigned long long)st->solver_runs, (unsigned long long)st->traces,
            (unsigned long long)st->z3_queries, note);
    }
}

/* Minimises with the predicate, writes the result, reports. */
static gb_exit_t minimise(tmin_cli_t *c, const char *mode, gb_tmin_pred_fn pred, void *ctx,
                          const uint8_t *data, size_t len)
{
    gb_tmin_opts_t o = {.pred = pred,
                        .ctx = ctx,
                        .max_runs = c->max_runs,
                        .stop = &stop_requested,
                        .trace_bin = c->trace,
                        .args = c->args,
                        .nargs = c->nargs,
                        .work_dir = c->work,
                        .trace_timeout_ms = GB_TRACE_TIMEOUT_MS((unsigned)c->t),
                        .mem_limit_mb = (unsigned)c->mem * GB_TRACE_MEM_FACTOR};
    gb_tmin_stats_t st;
    uint8_t *min;
    size_t mlen;
    gb_err_t e;
    if (gb_tmin(&o, data, len, &min, &mlen, &st, &e) != 0)
        return gb_cli_fail("tmin", e.msg);
    /* Staged in -o's directory and renamed onto a regular file only: a
     * device, FIFO or symlink put there since check_args is refused. */
    int w = gb_write_path(c->out, min, mlen, &e);
    gb_free(min);
    if (w != 0)
        return gb_cli_fail("tmin", e.msg);
    report(c, mode, &st);
    return GB_EXIT_OK;
}

static gb_exit_t run_coverage(tmin_cli_t *c, const uint8_t *data, size_t len)
{
    char **argv = gb_argv_build(c->bin, c->args, c->nargs, c->input_path);
    if (!argv)
        return gb_cli_fail("tmin", "out of memory");
    gb_fsrv_opts_t fo = {.argv = argv,
                         .input_path = c->input_path,
                         .timeout_ms = (unsigned)c->t,
                         .mem_limit_mb = (unsigned)c->mem};
    gb_fsrv_t *f = NULL;
    gb_tmin_cov_t *cov = NULL;
    gb_err_t e;
    gb_exit_t rc;
    if (gb_fsrv_start(&fo, &f, &e) != 0)
        rc = gb_cli_error(GB_EXIT_FAIL, "tmin",
                          "coverage mode needs an AFL++-instrumented "
                          "binary: %s",
                          e.msg);
    else if (gb_tmin_cov_new(f, data, len, &cov, &e) != 0)
        rc = gb_cli_fail("tmin", e.msg);
    else
        rc = minimise(c, "coverage", gb_tmin_cov_pred, cov, data, len);
    gb_tmin_cov_free(cov);
    gb_fsrv_stop(f);
    gb_argv_free(argv);
    return rc;
}

/* 0 when BIN carries neither ASan nor UBSan (the markers the crash
 * runner looks for), else 1 (also when it cannot tell). */
static int has_sanitizer(const char *bin)
{
    gb_err_t e;
    return gb_binary_has_marker(bin, "AddressSanitizer", &e) != 0 ||
           gb_binary_has_marker(bin, "__ubsan_handle", &e) != 0;
}

/* A crash runner for BIN with its own scratch dir under the work dir.
 * Frames come only from sanitizer reports: a binary without a sanitizer
 * gets no llvm-symbolizer, whose start (~70 ms, paid at the first crash)
 * was most of crash mode's fixed cost on the demo's 52-byte crash. */
static int crash_runner(tmin_cli_t *c, gb_crash_runner_t **r, gb_err_t *e)
{
    char dir[4300];
    snprintf(dir, sizeof dir, "%s/crash", c->work);
    int san = has_sanitizer(c->bin);
    gb_crash_target_t ct = {.bin = c->bin,
                            .args = c->args,
                            .nargs = c->nargs,
                            .work_dir = dir,
                            .timeout_ms = (unsigned)c->t,
                            .mem_limit_mb = (unsigned)c->mem,
                            .no_symbolizer = san == 0};
    return gb_crash_runner_new(&ct, r, e);
}

/* The crash to keep. With `probe_first` (no --mode) the input's one probe
 * both chooses the mode and is the reference: *cr stays NULL when it did
 * not crash (coverage mode then). Else gb_tmin_crash_new probes it and
 * refuses an input that does not crash. */
static int reference(gb_crash_runner_t *r, const uint8_t *data, size_t len, int probe_first,
                     gb_tmin_crash_t **cr, gb_err_t *e)
{
    *cr = NULL;
    if (!probe_first)
        return gb_tmin_crash_new(r, data, len, cr, e);
    gb_crash_t probe;
    if (gb_crash_probe(r, data, len, &probe, e) != 0)
        return -1;
    int rc = 0;
    if (probe.crashed && probe.run.status != GB_RUN_TIMEOUT)
        rc = gb_tmin_crash_keep(r, probe.type, probe.state, cr, e);
    gb_crash_clear(&probe);
    return rc;
}

static void report_crash(const gb_crash_t *ref)
{
    char state[sizeof ref->state];
    snprintf(state, sizeof state, "%s", ref->state);
    for (char *q = state; *q; q++)
        if (*q == '\n')
            *q = ' ';
    printf("tmin: kept crash: %s in %s\n", ref->type, *state ? state : "(no frames)");
}

/* Crash mode. With `probe_first` (no --mode) an input that does not crash
 * goes to coverage mode instead: *coverage = 1 and nothing is printed. */
static gb_exit_t run_crash(tmin_cli_t *c, const uint8_t *data, size_t len, int probe_first,
                           int *coverage)
{
    gb_crash_runner_t *r = NULL;
    gb_tmin_crash_t *cr = NULL;
    gb_err_t e;
    *coverage = 0;
    if (crash_runner(c, &r, &e) != 0)
        return gb_cli_fail("tmin", e.msg);
    if (reference(r, data, len, probe_first, &cr, &e) != 0) {
        gb_crash_runner_free(r);
        return gb_cli_fail("tmin", e.msg);
    }
    if (!cr) {
        gb_crash_runner_free(r);
        *coverage = 1;
        return GB_EXIT_OK;
    }
    gb_crash_runner_info_t info;
    gb_crash_runner_info(r, &info);
    if (!info.forkserver)
        fprintf(stderr,
                "glassbox tmin: note: %s has no AFL++ forkserver: one process per run "
                "(build it with afl-clang-fast or glassbox-cc --mode=cov to go faster)\n",
                c->bin);
    gb_exit_t rc = minimise(c, "crash", gb_tmin_crash_pred, cr, data, len);
    if (rc == GB_EXIT_OK)
        report_crash(gb_tmin_crash_ref(cr));
    gb_tmin_crash_free(cr);
    gb_crash_runner_free(r);
    return rc;
}

/* Checks what can be checked before anything runs. */
static gb_exit_t check_args(const tmin_cli_t *c)
{
    gb_err_t e;
    if (c->mode && strcmp(c->mode, "crash") != 0 && strcmp(c->mode, "coverage") != 0)
        return gb_cli_error(GB_EXIT_USAGE, "tmin", "--mode is crash or coverage, not '%s'",
                            c->mode);
    if (gb_check_executable(c->bin, &e) != 0)
        return gb_cli_fail("tmin", e.msg);
    /* Before the work, not after it: -o must be absent or a regular file
     * (never a device, FIFO or symlink: those are refused, not replaced)
     * and not the input itself; it is written through a temporary file
     * in its directory. */
    if (gb_check_output("-o", c->out, c->in, &e) != 0)
        return gb_cli_fail("tmin", e.msg);
    char dir[4096];
    dir_of(c->out, dir, sizeof dir);
    if (access(dir, W_OK | X_OK) != 0)
        return gb_cli_error(GB_EXIT_FAIL, "tmin", "cannot write into %s (the directory of -o): %s",
                            dir, strerror(errno));
    if (c->trace) {
        if (gb_check_executable(c->trace, &e) != 0)
            return gb_cli_fail("tmin", e.msg);
        int has = gb_binary_has_marker(c->trace, GB_MARKER_TRACE, &e);
        if (has <= 0)
            return gb_cli_error(GB_EXIT_FAIL, "tmin", "%s",
                                has < 0 ? e.msg : "--trace wants a glassbox-cc --mode=trace build");
    }
    return GB_EXIT_OK;
}

static gb_exit_t run(tmin_cli_t *c)
{
    gb_exit_t rc = check_args(c);
    if (rc != GB_EXIT_OK)
        return rc;
    gb_err_t e;
    uint8_t *data;
    size_t len;
    if (gb_read_file(c->in, GB_MAX_INPUT, &data, &len, &e) != 0)
        return gb_cli_fail("tmin", e.msg);
    if (make_work(c, &e) != 0) {
        gb_free(data);
        return gb_cli_fail("tmin", e.msg);
    }
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    signal(SIGPIPE, SIG_IGN);
    int coverage = c->mode && strcmp(c->mode, "coverage") == 0;
    if (!coverage)
        rc = run_crash(c, data, len, !c->mode, &coverage);
    if (coverage)
        rc = run_coverage(c, data, len);
    remove_work(c);
    gb_free(data);
    return rc;
}

gb_exit_t gb_cmd_tmin(int argc, char **argv)
{
    tmin_cli_t c;
    memset(&c, 0, sizeof c);
    const gb_opt_t opts[] = {
        GB_OPTION_STR('i', "input", "FILE", NULL, NULL, &c.in, "the input to shrink (required)"),
        GB_OPTION_STR('o', "output", "FILE", NULL, NULL, &c.out,
                      "where the shrunk input goes, written atomically (required)"),
        GB_OPTION_STR(0, "mode", "crash|coverage", NULL, NULL, &c.mode,
                      "what to keep: the crash state (type and top 3 frames) or the "
                      "AFL++-bucketed coverage map; default: crash when the input crashes, "
                      "else coverage"),
        GB_OPTION_UINT('t', "timeout", "MS", NULL, GB_RUN_TIMEOUT_MS, &c.t,
                       "time limit of each run"),
        GB_OPTION_UINT('m', "memory", "MB", NULL, GB_TMIN_MEM_LIMIT_MB, &c.mem,
                       "memory limit of each run, 0 = none"),
        GB_OPTION_STR(0, "trace", "TRACE_BIN", NULL, NULL, &c.trace,
                      "a glassbox-cc --mode=trace build of the same program: shrink with the "
                      "solver first (docs/tmin.md)"),
        GB_OPTION_UINT(0, "max-runs", "N", NULL, 0, &c.max_runs,
                       "stop after N runs with the smallest input so far, 0 = no limit"),
    };
    const gb_cmd_t cmd = {
        "tmin", "-i FILE -o FILE [options] -- BIN [ARGS...]",
        "Shrinks FILE while it keeps its crash state (--mode crash) or its coverage\n"
        "(--mode coverage): block deletion of halving sizes, then normalisation of\n"
        "bytes to '0', repeated until nothing changes. BIN runs through the AFL++\n"
        "forkserver; @@ in ARGS is the input file, else the input is its stdin.\n"
        "Prints the size before and after and the number of runs. See docs/tmin.md.",
        opts, GB_N(opts), NULL};
    gb_args_t a;
    gb_parsed_t parsed = gb_opts_args(&cmd, argc, argv, &a);
    if (parsed != GB_PARSED_OK)
        return gb_opts_exit(parsed);
    if (!c.in || !c.out || a.npos != 0 || a.nrest < 1)
        return gb_cli_error(GB_EXIT_USAGE, "tmin",
                            "usage: glassbox tmin -i FILE -o FILE [options] -- BIN [ARGS...] "
                            "(see --help)");
    c.bin = a.rest[0];
    c.args = a.rest + 1;
    c.nargs = (size_t)a.nrest - 1;
    return run(&c);
}
