/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox triage: crashing inputs into distinct bugs, each with a report
 * and a small input that replays it (docs/triage.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"

#include "triage.h"

/* A progress line on a terminal's stderr, at most five times a second. */
static void progress(void *ctx, size_t done, size_t total)
{
    uint64_t *last = ctx, now = gb_mono_ms();
    if (done < total && now - *last < 200)
        return;
    *last = now;
    fprintf(stderr, "\rglassbox triage: %zu/%zu inputs run", done, total);
    if (done == total)
        fputc('\n', stderr);
}

/* The table: bucket, likely bug, type, count, flaky, state on one line. */
static void print_table(const gb_triage_result_t *res)
{
    if (res->nbuckets == 0)
        return;
    printf("%-16s  %4s  %-36s %6s  %-5s  %s\n", "bucket", "bug", "type", "count", "flaky", "state");
    for (size_t i = 0; i < res->nbuckets; i++) {
        const gb_bucket_t *b = &res->buckets[i];
        char line[700], state[4 * sizeof line + 1], type[4 * sizeof b->type + 1];
        gb_crash_state_line(b->state, line, sizeof line);
        gb_triage_escape(line, state, sizeof state);
        gb_triage_escape(b->type, type, sizeof type);
        printf("%-16s  %4zu  %-36s %6zu  %-5s  %s%s\n", b->id, b->likely_bug, type,
               b->ninputs, b->flaky ? "yes" : "no", b->state[0] ? state : "-",
               b->is_new ? "  (new)" : "");
    }
}

/* Names reach the terminal escaped (gb_triage_escape): a file name's
 * control bytes must not drive it. */
static void print_totals(const gb_triage_result_t *res, const char *raw_report)
{
    char report[4 * 4096 + 1], w[4 * sizeof res->warnings[0] + 1];
    gb_triage_escape(raw_report, report, sizeof report);
    size_t fresh = 0;
    for (size_t i = 0; i < res->nbuckets; i++)
        fresh += (size_t)res->buckets[i].is_new;
    printf("%zu input%s: %zu run, %zu already triaged, %zu crashed (%zu flaky), "
           "%zu no longer crash, %zu failed, %zu skipped; %zu bucket%s (%zu new), %zu likely "
           "bug%s, in %s\n",
           res->inputs, res->inputs == 1 ? "" : "s", res->ran, res->duplicates, res->crashed,
           res->flaky, res->no_crash, res->errors, res->skipped, res->nbuckets,
           res->nbuckets == 1 ? "" : "s", fresh, res->likely_bugs, res->likely_bugs == 1 ? "" : "s",
           report);
    for (size_t i = 0; i < res->nwarnings; i++) {
        gb_triage_escape(res->warnings[i], w, sizeof w);
        fprintf(stderr, "glassbox triage: warning: %s\n", w);
    }
}

gb_exit_t gb_cmd_triage(int argc, char **argv)
{
    const char *out, *symbolizer;
    gb_strlist_t paths = {0}; /* every -i, then every positional PATH */
    unsigned long long jobs, t, m, frames;
    int leaks = 0, no_min = 0;
    const gb_opt_t opts[] = {
        GB_OPTION_LIST('i', "input", "PATH", &paths, 0,
                       "crashes: a file, a dir of files (libFuzzer artifacts, plain files), a "
                       "campaign instance (its crashes/) or a sync dir (every crashes/); give "
                       "-i several times for several"),
        GB_OPTION_STR('o', "output", "REPORT", NULL, NULL, &out,
                      "the report directory; an existing report is added to (required)"),
        GB_OPTION_UINT('j', "jobs", "N", NULL, 1, &jobs, "inputs run in parallel"),
        GB_OPTION_UINT('t', "timeout", "MS", NULL, GB_TRIAGE_TIMEOUT_MS, &t,
                       "time limit per run; a run that exceeds it is a timeout crash"),
        GB_OPTION_UINT('m', "memory", "MB", NULL, 0, &m,
                       "memory limit per run (sanitizer builds: ASan's allocation and RSS "
                       "limits; 0 = none)"),
        GB_OPTION_STR(0, "symbolizer", "PATH", "GLASSBOX_SYMBOLIZER", NULL, &symbolizer,
                      "llvm-symbolizer to use (default: llvm-symbolizer on PATH)"),
        GB_OPTION_FLAG(0, "leaks", &leaks,
                       "turn LeakSanitizer on (replays libFuzzer's leak-* inputs)"),
        GB_OPTION_FLAG(0, "no-minimise", &no_min, "input.min is a plain copy of input"),
        GB_OPTION_UINT(0, "state-frames", "N", NULL, GB_CRASH_STATE_FRAMES, &frames,
                       "frames in a crash state, the bucket key with the type (1.." GB_OPT_XSTR(
                           GB_CRASH_STATE_FRAMES_MAX) "; ClusterFuzz uses 3)"),
    };
    const gb_cmd_t cmd = {
        "triage",
        "-i PATH [-i PATH...] -o REPORT [options] -- ASAN_BIN [ARGS...]",
        "Runs every crashing input " GB_OPT_XSTR(
            GB_TRIAGE_RUNS) " times on ASAN_BIN (an ASan/UBSan "
                            "build:\nglassbox build makes NAME.asan), buckets the crashes by "
                            "(type, state) and\n"
                            "writes "
                            "REPORT/<bucket>/{input,input.min,report.txt,crash.json,repro.sh},\n"
                            "REPORT/summary.json and REPORT/summary.sarif. ARGS may name the input "
                            "as @@;\n"
                            "without ARGS it is the only argument. Inputs already in REPORT are "
                            "not run\n"
                            "again. Prints one line per bucket. See docs/triage.md.",
        opts,
        GB_N(opts),
        &paths};
    gb_args_t a;
    gb_parsed_t parsed = gb_opts_args(&cmd, argc, argv, &a);
    gb_exit_t code = GB_EXIT_OK;
    gb_err_t e;
    gb_triage_inputs_t in;
    if (parsed != GB_PARSED_OK)
        code = gb_opts_exit(parsed);
    else if (paths.n == 0 || !out || a.nrest < 1 || jobs == 0 || jobs > 256)
        code = gb_cli_error(GB_EXIT_USAGE, "triage",
                            "usage: glassbox triage -i PATH -o REPORT [--jobs 1..256] -- "
                            "ASAN_BIN [ARGS...] (see --help)");
    else if (frames == 0 || frames > GB_CRASH_STATE_FRAMES_MAX)
        code = gb_cli_error(GB_EXIT_USAGE, "triage", "--state-frames %llu: must be 1..%d", frames,
                            GB_CRASH_STATE_FRAMES_MAX);
    else if (gb_check_executable(a.rest[0], &e) != 0 ||
             gb_triage_collect(paths.v, paths.n, &in, &e) != 0)
        code = gb_cli_fail("triage", e.msg);
    gb_strlist_free(&paths);
    if (code != GB_EXIT_OK || parsed != GB_PARSED_OK)
        return code;
    gb_triage_opts_t o = {.report_dir = out, .jobs = (unsigned)jobs, .no_minimise = no_min};
    o.target = (gb_crash_target_t){.bin = a.rest[0],
                                   .args = a.rest + 1,
                                   .nargs = (size_t)a.nrest - 1,
                                   .timeout_ms = (unsigned)t,
                                   .mem_limit_mb = (unsigned)m,
                                   .symbolizer = symbolizer,
                                   .detect_leaks = leaks,
                                   .state_frames = (unsigned)frames};
    uint64_t last = 0;
    if (isatty(2)) {
        o.progress = progress;
        o.progress_ctx = &last;
    }
    gb_triage_result_t res;
    int rc = gb_triage_run(&o, &in, &res, &e);
    gb_triage_inputs_free(&in);
    if (rc != 0) {
        gb_triage_result_free(&res);
        char msg[4 * sizeof e.msg + 1];
        gb_triage_escape(e.msg, msg, sizeof msg);
        return gb_cli_fail("triage", msg);
    }
    print_table(&res);
    print_totals(&res, out);
    gb_triage_result_free(&res);
    return GB_EXIT_OK;
}
