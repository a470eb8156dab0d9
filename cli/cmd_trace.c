/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox trace: one run of a trace build, one .gbt file. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"

#include "fuzz_bridge.h"
#include "symbolic.h"

gb_exit_t gb_cmd_trace(int argc, char **argv)
{
    const char *out;
    unsigned long long t;
    /* The search's trace time limit at its default run time limit. */
    const gb_opt_t opts[] = {
        GB_OPTION_STR('o', "output", "FILE.gbt", NULL, NULL, &out,
                      "where to write the trace (required; a new name or a regular file)"),
        GB_OPTION_UINT('t', "timeout", "MS", NULL, GB_TRACE_TIMEOUT_MS(GB_RUN_TIMEOUT_MS), &t,
                       "time limit for the run"),
    };
    const gb_cmd_t cmd = {"trace", "INPUT -o FILE.gbt -- TRACE_BIN [ARGS...]",
                          "Runs TRACE_BIN (a glassbox-cc --mode=trace build) once on INPUT and\n"
                          "writes its trace: the path constraint over the input bytes. See\n"
                          "docs/trace-format.md; print it with 'glassbox show'.\n"
                          "It runs as 'TRACE_BIN ARGS...' with @@ in ARGS replaced by INPUT, or\n"
                          "as 'TRACE_BIN INPUT' without ARGS; INPUT is also its stdin, and\n"
                          "GLASSBOX_INPUT names it (docs/tracer.md, \"Input sources\").",
                          opts, GB_N(opts), NULL};
    gb_args_t a;
    gb_parsed_t parsed = gb_opts_args(&cmd, argc, argv, &a);
    if (parsed != GB_PARSED_OK)
        return gb_opts_exit(parsed);
    if (a.npos != 1 || !out || a.nrest < 1)
        return gb_cli_error(GB_EXIT_USAGE, "trace",
                            "usage: glassbox trace INPUT -o FILE.gbt -- "
                            "TRACE_BIN [ARGS...] (see --help)");
    gb_err_t e;
    if (access(a.pos[0], R_OK) != 0)
        return gb_cli_error(GB_EXIT_FAIL, "trace", "cannot read input %s", a.pos[0]);
    if (gb_check_executable(a.rest[0], &e) != 0)
        return gb_cli_fail("trace", e.msg);
    int has = gb_binary_has_marker(a.rest[0], GB_MARKER_TRACE, &e);
    if (has <= 0)
        return gb_cli_fail("trace", has < 0 ? e.msg : "the binary is not a glassbox-cc --mode=trace build");
    gb_trace_run_opts_t to = {.bin = a.rest[0], .args = a.rest + 1, .nargs = (size_t)a.nrest - 1,
                              .input = a.pos[0], .trace_out = out, .timeout_ms = (unsigned)t,
                              .show_output = 1, .user_named = 1};
    gb_run_result_t res;
    /* A device, FIFO, symlink or the input itself at -o is refused before
     * the run and left as it is (gb_trace_run). */
    int ran = gb_trace_run(&to, &res, &e);
    gb_targets_reap(); /* what the run left behind (a setsid() daemon) ends with it */
    if (ran != 0)
        return gb_cli_fail("trace", e.msg);
    gb_trace_t *tr;
    if (gb_trace_load(out, GB_TRACE_PREFIX_OK, &tr, &e) != 0)
        return gb_cli_fail("trace", e.msg);
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
    return GB_EXIT_OK;
}

