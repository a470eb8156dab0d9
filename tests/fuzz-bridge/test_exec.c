/* SPDX-License-Identifier: Apache-2.0 */
/* Plain exec with timeout, the executable check and the marker scan.
 * Usage: test_exec T_COV T_PLAIN WORKDIR. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fuzz_bridge.h"

static const char *t_cov, *t_plain, *workdir;

static gb_run_result_t run(char **argv, char **env, unsigned timeout_ms, int *rc, gb_err_t *e)
{
    gb_exec_opts_t o = {argv, env, timeout_ms, 0, 0, NULL, 0};
    gb_run_result_t r;
    *rc = gb_exec_run(&o, &r, e);
    return r;
}

static void test_exec(void)
{
    gb_err_t e = {""};
    int rc;
    char missing_in[4200];
    char *a1[] = {(char *)t_plain, "7", NULL};
    gb_run_result_t r = run(a1, NULL, 1000, &rc, &e);
    CHECK_MSG(rc == 0 && r.status == GB_RUN_OK && r.exit_code == 7, "exit 7: %d/%d", r.status,
          r.exit_code);
    CHECK_MSG(r.time_us > 0 && r.time_us < 1000000, "time %llu", (unsigned long long)r.time_us);

    setenv("GBX_A", "5", 1);
    char *env[] = {"GBX_B=17", "GBX_A=21", "GBX_A=23", NULL};
    char *a2[] = {(char *)t_plain, "env", "GBX_B", NULL};
    r = run(a2, env, 1000, &rc, &e);
    CHECK_MSG(rc == 0 && r.exit_code == 17, "extra env: %d", r.exit_code);
    char *a3[] = {(char *)t_plain, "env", "GBX_A", NULL};
    r = run(a3, env, 1000, &rc, &e);
    CHECK_MSG(rc == 0 && r.exit_code == 23, "override, last wins: %d", r.exit_code);
    char *unset[] = {"GBX_A", NULL};
    r = run(a3, unset, 1000, &rc, &e);
    CHECK_MSG(rc == 0 && r.exit_code == 100, "bare key unsets: %d", r.exit_code);

    char *a4[] = {(char *)t_plain, "grandchild", NULL};
    r = run(a4, NULL, 300, &rc, &e);
    CHECK_MSG(rc == 0 && r.status == GB_RUN_TIMEOUT && r.signal == SIGKILL, "timeout: %d", r.status);
    CHECK_MSG(r.time_us >= 290000 && r.time_us < 2000000, "timeout took %llu us",
          (unsigned long long)r.time_us);

    char in[4200];
    snprintf(in, sizeof in, "%s/exec-input", workdir);
    check_write_file(in, "crash", 5);
    char *a5[] = {(char *)t_cov, in, NULL};
    r = run(a5, NULL, 1000, &rc, &e);
    CHECK_MSG(rc == 0 && r.status == GB_RUN_CRASH && r.signal == SIGABRT, "crash: %d/%d", r.status,
          r.signal);
    check_write_file(in, "exit:9", 6);
    r = run(a5, NULL, 0, &rc, &e);
    CHECK_MSG(rc == 0 && r.status == GB_RUN_OK && r.exit_code == 9, "no timeout: %d", r.exit_code);

    /* stdin_path: the driver reads stdin when it gets no path. */
    char *a7[] = {(char *)t_cov, NULL};
    gb_exec_opts_t so = {.argv = a7, .timeout_ms = 1000, .stdin_path = in};
    rc = gb_exec_run(&so, &r, &e);
    CHECK_MSG(rc == 0 && r.status == GB_RUN_OK && r.exit_code == 9, "stdin_path: %d/%d", r.status,
          r.exit_code);
    so.stdin_path = workdir; /* a directory: reading it fails, the driver sees no input */
    rc = gb_exec_run(&so, &r, &e);
    CHECK_MSG(rc == 0 && r.status == GB_RUN_OK && r.exit_code == 0, "stdin a dir: %d", r.exit_code);
    snprintf(missing_in, sizeof missing_in, "%s/missing-input", workdir);
    so.stdin_path = missing_in;
    rc = gb_exec_run(&so, &r, &e);
    CHECK_MSG(rc == -1 && strstr(e.msg, "as the stdin of"), "missing stdin: %s", e.msg);

    /* fixed_layout: the run has ASLR off, unless the kernel refuses (a
     * seccomp filter: then this process cannot turn it off either). */
    char *a8[] = {(char *)t_plain, "layout", NULL};
    gb_exec_opts_t lo = {.argv = a8, .timeout_ms = 5000};
    rc = gb_exec_run(&lo, &r, &e);
    int inherited = r.exit_code;
    CHECK_MSG(rc == 0 && r.status == GB_RUN_OK, "layout run: %d", r.status);
    lo.fixed_layout = 1;
    rc = gb_exec_run(&lo, &r, &e);
    int cur = personality(0xffffffff);
    if (cur != -1 && personality((unsigned long)cur | ADDR_NO_RANDOMIZE) != -1) {
        personality((unsigned long)cur);
        CHECK_MSG(rc == 0 && r.status == GB_RUN_OK && r.exit_code == 1, "fixed_layout: %d/%d",
                  r.status, r.exit_code);
        CHECK_MSG(inherited == !!(cur & ADDR_NO_RANDOMIZE), "no fixed_layout: %d", inherited);
    } else {
        printf("test_exec: personality refused here, fixed_layout not checked\n");
    }

    char missing[4200];
    snprintf(missing, sizeof missing, "%s/missing-program", workdir);
    char *a6[] = {missing, NULL};
    r = run(a6, NULL, 1000, &rc, &e);
    CHECK_MSG(rc == -1 && r.status == GB_RUN_ERROR && strstr(e.msg, "cannot execute"), "missing: %s",
          e.msg);
}

/* "@@" anywhere in an argument becomes the input path; no args = {bin, path}. */
static void test_argv(void)
{
    char **v = gb_argv_build("/bin/t", NULL, 0, "/in");
    CHECK_MSG(v && !strcmp(v[0], "/bin/t") && !strcmp(v[1], "/in") && !v[2], "no args");
    gb_argv_free(v);
    char *args[] = {"-x", "@@", "--file=@@.bak", "@", "@@@@"};
    v = gb_argv_build("/bin/t", args, 5, "/in");
    CHECK_MSG(v && !strcmp(v[1], "-x") && !strcmp(v[2], "/in") && !strcmp(v[3], "--file=/in.bak") &&
              !strcmp(v[4], "@") && !strcmp(v[5], "/in@@") && !v[6],
          "substitution");
    gb_argv_free(v);
    v = gb_argv_build("/bin/t", args, 1, "/in");
    CHECK_MSG(v && !strcmp(v[1], "-x") && !v[2], "args without @@ are kept and nothing is added");
    gb_argv_free(v);
    gb_argv_free(NULL);
    gb_alloc_fail_after(2);
    CHECK_MSG(gb_argv_build("/bin/t", args, 5, "/in") == NULL, "alloc failure");
    gb_alloc_fail_after(-1);
}

static void test_checks(void)
{
    gb_err_t e = {""};
    CHECK_MSG(gb_check_executable(t_plain, &e) == 0, "%s", e.msg);
    char path[4200];
    snprintf(path, sizeof path, "%s/missing-program", workdir);
    CHECK_MSG(gb_check_executable(path, &e) == -1 && strstr(e.msg, "no such file"), "%s", e.msg);
    CHECK_MSG(gb_check_executable(workdir, &e) == -1 && strstr(e.msg, "not a regular file"), "%s",
          e.msg);
    snprintf(path, sizeof path, "%s/plain-data", workdir);
    check_write_file(path, "data", 4);
    chmod(path, 0644);
    CHECK_MSG(gb_check_executable(path, &e) == -1 && strstr(e.msg, "not executable"), "%s", e.msg);

    /* Markers at a chunk boundary, at the very end, and absent. */
    size_t n = 300000, mlen = strlen(GB_MARKER_TRACE);
    char *buf = malloc(n);
    if (!buf)
        return;
    memset(buf, 'G', n);
    size_t offs[] = {65536 - 7, n - mlen, 0, 131072 - 1};
    for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
        memset(buf, 'G', n);
        memcpy(buf + offs[i], GB_MARKER_TRACE, mlen);
        check_write_file(path, buf, n);
        int has = gb_binary_has_marker(path, GB_MARKER_TRACE, &e);
        CHECK_MSG(has == 1, "marker at %zu: %d", offs[i], has);
        CHECK_MSG(gb_binary_has_marker(path, GB_MARKER_COV, &e) == 0, "cov marker absent");
    }
    memset(buf, 'G', n);
    memcpy(buf + 65536 - 7, GB_MARKER_TRACE, mlen - 1); /* truncated marker */
    check_write_file(path, buf, n);
    CHECK_MSG(gb_binary_has_marker(path, GB_MARKER_TRACE, &e) == 0, "partial marker matched");
    check_write_file(path, "", 0);
    CHECK_MSG(gb_binary_has_marker(path, GB_MARKER_TRACE, &e) == 0, "empty file");
    free(buf);
    CHECK_MSG(gb_binary_has_marker(t_plain, GB_MARKER_TRACE, &e) == 0, "t_plain has no marker");
    snprintf(path, sizeof path, "%s/missing-program", workdir);
    CHECK_MSG(gb_binary_has_marker(path, GB_MARKER_TRACE, &e) == -1, "missing file");
    gb_alloc_fail_after(0);
    CHECK_MSG(gb_binary_has_marker(t_plain, GB_MARKER_TRACE, &e) == -1, "alloc failure");
    char *a[] = {(char *)t_plain, NULL};
    gb_exec_opts_t o = {a, NULL, 1000, 0, 0, NULL, 0};
    gb_run_result_t r;
    CHECK_MSG(gb_exec_run(&o, &r, &e) == -1 && r.status == GB_RUN_ERROR, "exec alloc failure");
    gb_alloc_fail_after(-1);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_exec T_COV T_PLAIN WORKDIR\n");
        return 2;
    }
    t_cov = argv[1];
    t_plain = argv[2];
    workdir = argv[3];
    test_exec();
    test_argv();
    test_checks();
    if (check_failures)
        fprintf(stderr, "test_exec: %d failure(s)\n", check_failures);
    else
        printf("test_exec: ok\n");
    return check_failures ? 1 : 0;
}
