/* SPDX-License-Identifier: Apache-2.0 */
/* One run of a trace build: the input as @@, stdin and GLASSBOX_INPUT, the
 * trace to GLASSBOX_TRACE_OUT (tracer/gb_abi.h). */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "fuzz_bridge.h"
#include "gb_abi.h"

int gb_trace_run(const gb_trace_run_opts_t *o, gb_run_result_t *r, gb_err_t *e)
{
    char out_env[PATH_MAX + 32], input_env[PATH_MAX + 32];
    if ((size_t)snprintf(out_env, sizeof out_env, GB_ENV_TRACE_OUT "=%s", o->trace_out) >=
            sizeof out_env ||
        (size_t)snprintf(input_env, sizeof input_env, GB_ENV_INPUT "=%s", o->input) >=
            sizeof input_env)
        return gb_err_set(e, "path too long: %s", o->trace_out);
    char **argv = gb_argv_build(o->bin, o->args, o->nargs, o->input);
    if (!argv)
        return gb_err_set(e, "out of memory");
    char *envs[] = {out_env, input_env, NULL};
    gb_exec_opts_t xo = {.argv = argv, .env_extra = envs, .timeout_ms = o->timeout_ms,
                         .mem_limit_mb = o->mem_limit_mb, .show_output = o->show_output,
                         .stdin_path = o->input};
    unlink(o->trace_out); /* a trace left from an earlier run must not pass for this one's */
    int rc = gb_exec_run(&xo, r, e);
    gb_argv_free(argv);
    return rc;
}
