/* SPDX-License-Identifier: Apache-2.0 */
/* One run of a trace build: the input as @@, stdin and GLASSBOX_INPUT, the
 * trace to GLASSBOX_TRACE_OUT (tracer/gb_abi.h) under a private name that
 * is renamed onto the caller's file after the run: nothing is deleted or
 * written through whatever sits at that name. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_bridge.h"
#include "gb_abi.h"
#include "gb_files.h"

/* A name no other run uses: ".gb-trace.PID.N" (hidden from peers). */
static void private_name(char *out, size_t n)
{
    static atomic_ulong counter;
    snprintf(out, n, ".gb-trace.%ld.%lu", (long)getpid(), atomic_fetch_add(&counter, 1));
}

/* Runs the target with the trace going to `tmp` in `dir`. */
static int run_to(const gb_trace_run_opts_t *o, const char *dir, const char *tmp,
                  gb_run_result_t *r, gb_err_t *e)
{
    char out_env[PATH_MAX + 32], input_env[PATH_MAX + 32];
    if ((size_t)snprintf(out_env, sizeof out_env, GB_ENV_TRACE_OUT "=%s/%s", dir, tmp) >=
            sizeof out_env ||
        (size_t)snprintf(input_env, sizeof input_env, GB_ENV_INPUT "=%s", o->input) >=
            sizeof input_env)
        return gb_err_set(e, "path too long: %s", o->trace_out);
    char **argv = gb_argv_build(o->bin, o->args, o->nargs, o->input);
    if (!argv)
        return gb_err_set(e, "out of memory");
    char *envs[] = {out_env, input_env, NULL};
    /* Without ASLR: a trace holds the concrete addresses the program
     * computed with (a pointer plus an offset read from the input), so
     * with ASLR the same input gave another path constraint each run, Z3
     * other models, and the search another course (bench.gates-find
     * found chunk_crc_insert after 305 to over 3,800 runs). */
    gb_exec_opts_t xo = {.argv = argv,
                         .env_extra = envs,
                         .timeout_ms = o->timeout_ms,
                         .mem_limit_mb = o->mem_limit_mb,
                         .show_output = o->show_output,
                         .stdin_path = o->input,
                         .fixed_layout = 1};
    int rc = gb_exec_run(&xo, r, e);
    gb_argv_free(argv);
    return rc;
}

/* Publishes the run's trace `tmp` as `name`, or, when the run wrote none,
 * removes an old `name` so that it cannot pass for this run's. */
static int settle(int dfd, const char *tmp, const char *name, gb_err_t *e)
{
    struct stat st;
    if (fstatat(dfd, tmp, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno != ENOENT)
            return gb_err_sys(e, "cannot stat %s", tmp);
        if (gb_file_remove_at(dfd, name) != 0)
            return gb_err_set(e, "%s: refused (only a regular file is replaced)", name);
        return 0;
    }
    if (gb_file_rename_at(dfd, tmp, dfd, name, e) == 0)
        return 0;
    gb_file_remove_at(dfd, tmp);
    return -1;
}

/* 0 if `name` in `dfd` is absent or a regular file other than the input. */
static int check_out(int dfd, const char *name, const gb_trace_run_opts_t *o, gb_err_t *e)
{
    struct stat st, in;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? 0 : gb_err_sys(e, "cannot stat %s", o->trace_out);
    if (S_ISLNK(st.st_mode) && !o->user_named) {
        /* Our own file, a link planted in a shared dir: the link goes. */
        return gb_file_remove_at(dfd, name) == 0 ? 0
                                                 : gb_err_sys(e, "cannot remove %s", o->trace_out);
    }
    if (!S_ISREG(st.st_mode))
        return gb_err_set(e, "%s is not a regular file: refused (only a regular file is replaced)",
                          o->trace_out);
    if (stat(o->input, &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino)
        return gb_err_set(e, "%s is the input file: refused", o->trace_out);
    return 0;
}

int gb_trace_run(const gb_trace_run_opts_t *o, gb_run_result_t *r, gb_err_t *e)
{
    char dir[PATH_MAX], tmp[64];
    const char *name = gb_path_split(o->trace_out, dir, sizeof dir, e);
    if (!name)
        return -1;
    int dfd = gb_dir_open(dir, NULL, 0, e);
    if (dfd < 0)
        return -1;
    int rc = -1;
    if (check_out(dfd, name, o, e) != 0)
        goto done;
    private_name(tmp, sizeof tmp);
    gb_file_remove_at(dfd, tmp); /* a leftover of a dead process of our pid */
    rc = run_to(o, dir, tmp, r, e);
    if (rc == 0)
        rc = settle(dfd, tmp, name, e);
    else
        gb_file_remove_at(dfd, tmp);
done:
    close(dfd);
    return rc;
}
