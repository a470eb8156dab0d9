/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox replay: runs inputs on a build and says, per input, how it
 * ended: "PATH: ok exit N", "PATH: crash SIGNAL TYPE @ STATE", "PATH:
 * timeout" or "PATH: error MESSAGE" (docs/triage.md, "replay"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "gb_files.h"

#include "triage.h"

static const char *sig_name(int sig)
{
    static char buf[24];
    const char *a = sig > 0 ? sigabbrev_np(sig) : NULL;
    snprintf(buf, sizeof buf, "SIG%s", a ? a : "?");
    return buf;
}

/* One input; 1 if it crashed or timed out, 0 if not, -1 if it could not
 * be run (the line says why). */
static int replay_one(gb_crash_runner_t *r, const char *raw_path)
{
    /* The name as the terminal gets it: its control bytes escaped. */
    char path[4 * 4096 + 1];
    gb_triage_escape(raw_path, path, sizeof path);
    uint8_t *data;
    size_t len;
    gb_err_t e;
    if (gb_read_file(raw_path, GB_MAX_INPUT, &data, &len, &e) != 0) {
        char msg[4 * sizeof e.msg + 1];
        gb_triage_escape(e.msg, msg, sizeof msg);
        printf("%s: error %s\n", path, msg);
        return -1;
    }
    gb_crash_t c;
    int rc = gb_crash_probe(r, data, len, &c, &e);
    gb_free(data);
    if (rc != 0) {
        char msg[4 * sizeof e.msg + 1];
        gb_triage_escape(e.msg, msg, sizeof msg);
        printf("%s: error %s\n", path, msg);
        return -1;
    }
    char line[700], state[4 * sizeof line + 1], type[4 * sizeof c.type + 1];
    char detail[4 * sizeof c.detail + 16] = "";
    gb_crash_state_line(c.state, line, sizeof line);
    gb_triage_escape(line, state, sizeof state);
    gb_triage_escape(c.type, type, sizeof type);
    if (strcmp(c.detail, c.type) != 0) {
        /* The sizes and address the bucket key leaves out. */
        char d[4 * sizeof c.detail + 1];
        gb_triage_escape(c.detail, d, sizeof d);
        snprintf(detail, sizeof detail, " (%s)", d);
    }
    if (!c.crashed)
        printf("%s: ok exit %d\n", path, c.run.exit_code);
    else if (c.run.status == GB_RUN_TIMEOUT)
        printf("%s: timeout %s %s\n", path, sig_name(c.run.signal), type);
    else if (c.run.status == GB_RUN_CRASH)
        printf("%s: crash %s %s @ %s%s\n", path, sig_name(c.run.signal), type,
               state[0] ? state : "-", detail);
    else
        printf("%s: crash exit %d %s @ %s%s\n", path, c.run.exit_code, type, state[0] ? state : "-",
               detail);
    fflush(stdout);
    rc = c.crashed ? 1 : 0;
    gb_crash_clear(&c);
    return rc;
}

/* A scratch dir for the runner's input file and sanitizer logs. */
static int make_work(char *dir, size_t cap)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, cap, "%s/glassbox-replay.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(dir) ? 0 : -1; /* gb-write-ok: a fresh 0700 dir of our own */
}

/* The scratch dir is ours (mkdtemp); its input goes by descriptor. */
static void remove_work(const char *dir)
{
    gb_err_t e;
    int fd = gb_dir_open(dir, NULL, 0, &e);
    if (fd >= 0) {
        gb_file_remove_at(fd, "input");
        close(fd);
    }
    rmdir(dir); /* gb-write-ok: rmdir never follows a link */
}

gb_exit_t gb_cmd_replay(int argc, char **argv)
{
    const char *symbolizer;
    unsigned long long t, m;
    gb_strlist_t files = {0}; /* every FILE: there may be thousands */
    const gb_opt_t opts[] = {
        GB_OPTION_UINT('t', "timeout", "MS", NULL, GB_TRIAGE_TIMEOUT_MS, &t, "time limit per run"),
        GB_OPTION_UINT('m', "memory", "MB", NULL, 0, &m, "memory limit per run (0 = none)"),
        GB_OPTION_STR(0, "symbolizer", "PATH", "GLASSBOX_SYMBOLIZER", NULL, &symbolizer,
                      "llvm-symbolizer to use (default: llvm-symbolizer on PATH)"),
    };
    const gb_cmd_t cmd = {
        "replay",
        "FILE... -- BIN [ARGS...]",
        "Runs BIN once on each FILE (as @@ in ARGS, or as the only argument) and\n"
        "prints one line per input: 'FILE: ok exit N', 'FILE: crash SIGNAL TYPE @\n"
        "STATE' (the crash state's frames joined with ' < '), 'FILE: timeout ...'\n"
        "or 'FILE: error MESSAGE'. Exit status: 0 when no input crashed, 1 when\n"
        "some crashed, timed out or could not be run, 2 on bad usage.",
        opts,
        GB_N(opts),
        &files};
    gb_args_t a;
    gb_parsed_t parsed = gb_opts_args(&cmd, argc, argv, &a);
    gb_exit_t code = GB_EXIT_OK;
    gb_err_t e;
    char work[4096];
    gb_crash_runner_t *r = NULL;
    if (parsed != GB_PARSED_OK) {
        code = gb_opts_exit(parsed);
    } else if (files.n == 0 || a.nrest < 1) {
        code = gb_cli_error(GB_EXIT_USAGE, "replay",
                            "usage: glassbox replay FILE... -- BIN [ARGS...] (see --help)");
    } else if (make_work(work, sizeof work) != 0) {
        code = gb_cli_error(GB_EXIT_FAIL, "replay", "cannot create a scratch directory");
    } else {
        gb_crash_target_t tg = {.bin = a.rest[0],
                                .args = a.rest + 1,
                                .nargs = (size_t)a.nrest - 1,
                                .work_dir = work,
                                .timeout_ms = (unsigned)t,
                                .mem_limit_mb = (unsigned)m,
                                .symbolizer = symbolizer};
        if (gb_crash_runner_new(&tg, &r, &e) != 0) {
            code = gb_cli_fail("replay", e.msg);
        } else {
            for (size_t i = 0; i < files.n; i++)
                if (replay_one(r, files.v[i]) != 0)
                    code = GB_EXIT_FAIL;
        }
        gb_crash_runner_free(r);
        remove_work(work);
    }
    gb_strlist_free(&files);
    return code;
}
