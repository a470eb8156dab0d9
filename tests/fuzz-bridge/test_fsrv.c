/* SPDX-License-Identifier: Apache-2.0 */
/* Forkserver client against real AFL++-runtime targets and a scripted fake
 * forkserver. Usage: test_fsrv T_COV T_PLAIN FAKE_FSRV WORKDIR T_SHM
 * T_PERSIST. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fuzz_bridge.h"

static const char *t_cov, *t_plain, *fake, *workdir, *t_shm, *t_persist, *t_lfdrv;
static char input_path[4096];

static gb_fsrv_t *start(char **argv, unsigned timeout_ms, unsigned mem_mb, gb_err_t *e)
{
    gb_fsrv_opts_t o = {argv, input_path, timeout_ms, mem_mb, 0};
    gb_fsrv_t *f = NULL;
    if (gb_fsrv_start(&o, &f, e) != 0)
        return NULL;
    return f;
}

static gb_run_result_t run_str(gb_fsrv_t *f, const char *s)
{
    gb_run_result_t r;
    gb_err_t e = {""};
    if (gb_fsrv_run(f, (const uint8_t *)s, strlen(s), &r, &e) != 0)
        fprintf(stderr, "  run '%s': %s\n", s, e.msg);
    return r;
}

static void test_cov_target(void)
{
    char *argv[] = {(char *)t_cov, input_path, NULL};
    gb_err_t e = {""};
    gb_fsrv_t *f = start(argv, 500, 0, &e);
    CHECK_MSG(f != NULL, "start: %s", e.msg);
    if (!f)
        return;
    CHECK_MSG(gb_fsrv_map_size(f) == 65536, "map size %zu", gb_fsrv_map_size(f));
    const uint8_t *m = gb_fsrv_map(f);
    gb_run_result_t r = run_str(f, "A");
    CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 0, "A: status %d", r.status);
    CHECK_MSG(m[1] == 1 && m[100] == 1 && m[200] == 0, "A map %d %d %d", m[1], m[100], m[200]);
    r = run_str(f, "B");
    CHECK_MSG(m[1] == 1 && m[100] == 0 && m[200] == 2, "B map %d %d %d", m[1], m[100], m[200]);
    r = run_str(f, "xC");
    CHECK_MSG(m[60000] == 7 && m[100] == 0 && m[200] == 0, "xC map %d", m[60000]);
    r = run_str(f, "crash");
    CHECK_MSG(r.status == GB_RUN_CRASH && r.signal == SIGABRT, "crash: %d sig %d", r.status, r.signal);
    r = run_str(f, "segv");
    CHECK_MSG(r.status == GB_RUN_CRASH && r.signal == SIGSEGV, "segv: %d sig %d", r.status, r.signal);
    r = run_str(f, "exit:42");
    CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 42, "exit:42 -> %d/%d", r.status, r.exit_code);
    r = run_str(f, "len");
    CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 3, "shorter input not truncated: %d",
          r.exit_code);

    r = run_str(f, "loop");
    CHECK_MSG(r.status == GB_RUN_TIMEOUT && r.signal == SIGKILL, "loop: status %d", r.status);
    CHECK_MSG(r.time_us >= 490000 && r.time_us < 1500000, "loop took %llu us",
          (unsigned long long)r.time_us);
    r = run_str(f, "A");
    CHECK_MSG(r.status == GB_RUN_OK && m[100] == 1, "run after a timeout: status %d", r.status);
    r = run_str(f, "sleep");
    CHECK_MSG(r.status == GB_RUN_TIMEOUT, "sleep 2 s under 500 ms: status %d", r.status);

    /* Many runs in a row stay consistent (no drift in the protocol). */
    int bad = 0;
    for (int i = 0; i < 2000; i++) {
        char in[16];
        int k = i % 3;
        snprintf(in, sizeof in, k == 0 ? "A" : k == 1 ? "B" : "exit:%d", i % 200);
        r = run_str(f, in);
        int ok = r.status == GB_RUN_OK && m[1] == 1 &&
                 (k == 0 ? m[100] == 1 && m[200] == 0
                         : k == 1 ? m[200] == 2 && m[100] == 0 : r.exit_code == i % 200);
        bad += !ok;
    }
    CHECK_MSG(bad == 0, "%d of 2000 runs inconsistent", bad);
    gb_fsrv_stop(f);
}

static void test_stdin_and_limits(void)
{
    char *argv[] = {(char *)t_cov, NULL};
    gb_err_t e = {""};
    gb_fsrv_t *f = start(argv, 1000, 0, &e);
    CHECK_MSG(f != NULL, "start without a file argument: %s", e.msg);
    if (f) {
        gb_run_result_t r = run_str(f, "lenXYZ");
        CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 6, "stdin run: %d/%d", r.status, r.exit_code);
        r = run_str(f, "len12");
        CHECK_MSG(r.exit_code == 5, "stdin rewound and truncated: %d", r.exit_code);
        r = run_str(f, "big");
        CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 0, "no mem limit: %d", r.exit_code);
        gb_fsrv_stop(f);
    }
    f = start(argv, 1000, 64, &e);
    CHECK_MSG(f != NULL, "start with a 64 MB limit: %s", e.msg);
    if (f) {
        gb_run_result_t r = run_str(f, "big");
        CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 55, "64 MB limit: %d", r.exit_code);
        gb_fsrv_stop(f);
    }
}

static gb_run_result_t run_buf(gb_fsrv_t *f, const uint8_t *in, size_t len)
{
    gb_run_result_t r;
    gb_err_t e = {""};
    if (gb_fsrv_run(f, in, len, &r, &e) != 0)
        fprintf(stderr, "  run of %zu bytes: %s\n", len, e.msg);
    return r;
}

/* t_shm reads only __afl_fuzz_ptr: exit 90 means shm input was declined,
 * 91 that the input also sat on its stdin (the input file). */
static void shm_target_runs(char **argv)
{
    gb_err_t e = {""};
    gb_fsrv_t *f = start(argv, 1000, 0, &e);
    CHECK_MSG(f != NULL, "start t_shm: %s", e.msg);
    if (!f)
        return;
    const uint8_t *m = gb_fsrv_map(f);
    gb_run_result_t r = run_str(f, "A");
    CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 0 && m[1] == 1 && m[100] == 1,
              "shm A: status %d exit %d map %d %d", r.status, r.exit_code, m[1], m[100]);
    r = run_str(f, "len12");
    CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 5, "shm len12: exit %d", r.exit_code);
    r = run_str(f, "len");
    CHECK_MSG(r.exit_code == 3, "shm length follows a shorter input: exit %d", r.exit_code);
    r = run_str(f, "crash");
    CHECK_MSG(r.status == GB_RUN_CRASH && r.signal == SIGABRT, "shm crash: %d sig %d", r.status,
              r.signal);
    size_t big = (1u << 20) + 100; /* over MAX_FILE: cut to 1 MiB */
    uint8_t *buf = calloc(1, big);
    if (buf) {
        memcpy(buf, "big:", 4);
        r = run_buf(f, buf, 1u << 20);
        CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 0, "shm 1 MiB: exit %d", r.exit_code);
        r = run_buf(f, buf, big);
        CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 0, "shm over 1 MiB: exit %d",
                  r.exit_code);
        free(buf);
    }
    struct stat st;
    CHECK_MSG(stat(input_path, &st) == 0 && st.st_size == 0, "input file written under shm input");
    gb_fsrv_stop(f);
}

static void test_shm_input(void)
{
    char *no_file[] = {(char *)t_shm, NULL};
    shm_target_runs(no_file);
    char *with_file[] = {(char *)t_shm, input_path, NULL}; /* @@ given: still shm */
    shm_target_runs(with_file);

    gb_err_t e = {""};
    char *old[] = {(char *)fake, "oldshm", input_path, NULL};
    gb_fsrv_t *f = start(old, 1000, 0, &e);
    CHECK_MSG(f != NULL, "4.04c shm offer: %s", e.msg);
    if (f) {
        gb_run_result_t r = run_str(f, "xyz");
        CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 3 && gb_fsrv_map(f)[5] == 'x',
                  "oldshm run: %d/%d", r.status, r.exit_code);
        gb_fsrv_stop(f);
    }
    char *magic[] = {(char *)fake, "magicshm", input_path, NULL};
    f = start(magic, 1000, 0, &e);
    CHECK_MSG(f != NULL, ">= 4.20 shm offer: %s", e.msg);
    if (f) {
        gb_run_result_t r = run_str(f, "hi");
        CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 2 && gb_fsrv_map(f)[5] == 'h',
                  "magicshm run: %d/%d", r.status, r.exit_code);
        gb_fsrv_stop(f);
    }
}

/* t_persist counts its iterations in map[2]: persistent mode means one
 * process serves many runs, and a crash or a timeout starts a new one. */
static void test_persistent(void)
{
    char *argv[] = {(char *)t_persist, NULL};
    gb_err_t e = {""};
    gb_fsrv_t *f = start(argv, 500, 0, &e);
    CHECK_MSG(f != NULL, "start t_persist: %s", e.msg);
    if (!f)
        return;
    const uint8_t *m = gb_fsrv_map(f);
    for (int i = 1; i <= 5; i++) {
        gb_run_result_t r = run_str(f, i % 2 ? "A" : "b");
        CHECK_MSG(r.status == GB_RUN_OK && m[2] == i && m[100] == (i % 2),
                  "persistent run %d: status %d, iteration %d, A %d", i, r.status, m[2], m[100]);
    }
    gb_run_result_t r = run_str(f, "crash");
    CHECK_MSG(r.status == GB_RUN_CRASH && r.signal == SIGABRT, "persistent crash: %d", r.status);
    r = run_str(f, "A");
    CHECK_MSG(r.status == GB_RUN_OK && m[2] == 1 && m[100] == 1, "after a crash: %d, iteration %d",
              r.status, m[2]);
    r = run_str(f, "b");
    CHECK_MSG(m[2] == 2, "second iteration after a crash: %d", m[2]);
    r = run_str(f, "loop");
    CHECK_MSG(r.status == GB_RUN_TIMEOUT, "persistent loop: status %d", r.status);
    r = run_str(f, "A");
    CHECK_MSG(r.status == GB_RUN_OK && m[2] == 1 && m[100] == 1,
              "after a timeout: %d, iteration %d", r.status, m[2]);
    int bad = 0;
    for (int i = 0; i < 2500; i++) { /* past the 1000-iteration loop bound */
        r = run_str(f, i % 2 ? "A" : "b");
        bad += r.status != GB_RUN_OK || m[100] != (i % 2) || m[1] != 1;
    }
    CHECK_MSG(bad == 0, "%d of 2500 persistent runs inconsistent", bad);
    gb_fsrv_stop(f);
}

/* Glassbox's cov driver around a libFuzzer harness: inputs come through
 * shared memory (the @@ file is never written), one process serves many of
 * them, a crash costs one fresh process, and coverage follows the input. */
static void test_cov_driver(void)
{
    char log[4200];
    snprintf(log, sizeof log, "%s.lfdrv-log", input_path);
    unlink(log);
    setenv("T_LFDRV_LOG", log, 1);
    char *argv[] = {(char *)t_lfdrv, input_path, NULL};
    gb_err_t e = {""};
    gb_fsrv_t *f = start(argv, 1000, 0, &e);
    unsetenv("T_LFDRV_LOG");
    CHECK_MSG(f != NULL, "start t_lfdrv.cov: %s", e.msg);
    if (!f)
        return;
    /* Read instead of the shared memory, this would show in the log. */
    FILE *in = fopen(input_path, "w");
    CHECK(in != NULL);
    if (in) {
        fputs("SENTINEL", in);
        fclose(in);
    }
    size_t msize = gb_fsrv_map_size(f);
    uint8_t *map_a = malloc(msize), *map_b = malloc(msize);
    CHECK(map_a && map_b);
    enum { RUNS = 40 };
    const char *seq[RUNS + 1];
    for (int i = 0; i < RUNS; i++)
        seq[i] = i % 2 ? "bbb" : "AAAAA";
    seq[RUNS / 2] = "crash";
    int bad = 0;
    for (int i = 0; i < RUNS; i++) {
        gb_run_result_t r = run_str(f, seq[i]);
        int want_crash = !strcmp(seq[i], "crash");
        bad += want_crash ? r.status != GB_RUN_CRASH : r.status != GB_RUN_OK;
        if (i == 2 && map_a)
            memcpy(map_a, gb_fsrv_map(f), msize);
        if (i == 3 && map_b)
            memcpy(map_b, gb_fsrv_map(f), msize);
        if (i == 4 && map_a)
            CHECK_MSG(memcmp(map_a, gb_fsrv_map(f), msize) == 0,
                      "the same input gave a different map");
    }
    CHECK_MSG(bad == 0, "%d of %d runs of t_lfdrv.cov ended unexpectedly", bad, RUNS);
    if (map_a && map_b)
        CHECK_MSG(memcmp(map_a, map_b, msize) != 0, "'A' and 'b' inputs gave the same map");
    free(map_a);
    free(map_b);
    gb_fsrv_stop(f);

    uint8_t *file;
    size_t flen;
    CHECK(gb_read_file(input_path, 64, &file, &flen, &e) == 0);
    if (file) {
        CHECK_MSG(flen == 8 && !memcmp(file, "SENTINEL", 8),
                  "the input file was written: shared-memory input not used");
        free(file);
    }
    FILE *lf = fopen(log, "r");
    CHECK_MSG(lf != NULL, "t_lfdrv wrote no log");
    if (!lf)
        return;
    long pids[RUNS + 1], pid;
    size_t size;
    int first, n = 0, npids = 0;
    while (n < RUNS + 1 && fscanf(lf, "%ld %zu %d", &pid, &size, &first) == 3) {
        CHECK_MSG(size == strlen(seq[n]) && first == seq[n][0], "run %d: got %zu bytes '%c'", n,
                  size, first);
        if (npids == 0 || pids[npids - 1] != pid)
            pids[npids++] = pid;
        n++;
    }
    fclose(lf);
    unlink(log);
    CHECK_MSG(n == RUNS, "the harness ran %d times, want %d", n, RUNS);
    /* One process until the crash, one after it. */
    CHECK_MSG(npids == 2, "%d processes served %d inputs, want 2 (persistent mode)", npids, n);
}

static void expect_start_fails(char **argv, const char *needle)
{
    gb_err_t e = {""};
    gb_fsrv_t *f = start(argv, 300, 0, &e);
    CHECK_MSG(f == NULL, "%s %s started", argv[0], argv[1] ? argv[1] : "");
    CHECK_MSG(strstr(e.msg, needle) != NULL, "message '%s' lacks '%s'", e.msg, needle);
    gb_fsrv_stop(f);
}

static void test_rejections(void)
{
    char *plain[] = {(char *)t_plain, NULL};
    expect_start_fails(plain, "is not instrumented for AFL++ (no forkserver handshake)");
    char missing[4200], noexec[4200];
    snprintf(missing, sizeof missing, "%s/no-such-target", workdir);
    char *a1[] = {missing, NULL};
    expect_start_fails(a1, "no such file");
    snprintf(noexec, sizeof noexec, "%s/not-executable", workdir);
    FILE *fp = fopen(noexec, "w");
    if (fp) {
        fputs("#!/bin/sh\n", fp);
        fclose(fp);
    }
    chmod(noexec, 0644);
    char *a2[] = {noexec, NULL};
    expect_start_fails(a2, "not executable");
    char *a3[] = {(char *)workdir, NULL};
    expect_start_fails(a3, "not a regular file");
    char *e1[] = {(char *)fake, "newerr", input_path, NULL};
    expect_start_fails(e1, "forkserver error 8");
    char *e2[] = {(char *)fake, "olderr", input_path, NULL};
    expect_start_fails(e2, "forkserver error 1");
    char *e3[] = {(char *)fake, "badver", input_path, NULL};
    expect_start_fails(e3, "protocol version 7");
}

static void test_fake_protocols(void)
{
    gb_err_t e = {""};
    char *magic[] = {(char *)fake, "magic", input_path, NULL};
    gb_fsrv_t *f = start(magic, 1000, 0, &e);
    CHECK_MSG(f != NULL, "magic handshake: %s", e.msg);
    if (f) {
        CHECK_MSG(gb_fsrv_map_size(f) == 1234, "magic map size %zu", gb_fsrv_map_size(f));
        gb_run_result_t r = run_str(f, "hi");
        CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 2 && gb_fsrv_map(f)[5] == 'h',
              "magic run: %d/%d", r.status, r.exit_code);
        r = run_str(f, "crash");
        CHECK_MSG(r.status == GB_RUN_CRASH && r.signal == SIGABRT, "magic crash: %d", r.status);
        gb_fsrv_stop(f);
    }
    char *old[] = {(char *)fake, "oldopts", input_path, NULL};
    f = start(old, 1000, 0, &e);
    CHECK_MSG(f != NULL, "4.04c options hello: %s", e.msg);
    if (f) {
        CHECK_MSG(gb_fsrv_map_size(f) == 4096, "oldopts map size %zu", gb_fsrv_map_size(f));
        gb_run_result_t r = run_str(f, "xyz");
        CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 3, "oldopts run: %d", r.status);
        gb_fsrv_stop(f);
    }
    unsetenv("ASAN_OPTIONS");
    char *chk[] = {(char *)fake, "check", input_path, NULL};
    f = start(chk, 1000, 0, &e);
    CHECK_MSG(f != NULL, "check: %s", e.msg);
    for (int i = 0; f && i < 3; i++) {
        gb_run_result_t r = run_str(f, i == 1 ? "second input" : "first");
        CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 0, "hygiene bits %d (1 fd leak, 2 asan, "
              "4 no shm fuzz id, 8 stdin)", r.exit_code);
    }
    gb_fsrv_stop(f);
}

static void test_restart(void)
{
    gb_err_t e = {""};
    char *die[] = {(char *)fake, "die:3", input_path, NULL};
    gb_fsrv_t *f = start(die, 1000, 0, &e);
    CHECK_MSG(f != NULL, "die:3: %s", e.msg);
    if (!f)
        return;
    for (int i = 0; i < 3; i++) {
        gb_run_result_t r = run_str(f, "ab");
        CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 2, "die:3 run %d: %d", i, r.status);
    }
    gb_run_result_t r;
    int rc = gb_fsrv_run(f, (const uint8_t *)"ab", 2, &r, &e);
    CHECK_MSG(rc == -1 && r.status == GB_RUN_ERROR && strstr(e.msg, "died"), "dead: rc %d '%s'", rc,
          e.msg);
    r = run_str(f, "abc");
    CHECK_MSG(r.status == GB_RUN_OK && r.exit_code == 3, "after restart: %d", r.status);
    gb_fsrv_stop(f);
}

/* Every allocation in start may fail: an error, never a crash or a leak of
 * a running forkserver. */
static void test_alloc_failure(void)
{
    char *argv[] = {(char *)t_cov, input_path, NULL};
    int failed = 0;
    for (long n = 0; n < 40; n++) {
        gb_err_t e = {""};
        gb_alloc_fail_after(n);
        gb_fsrv_t *f = start(argv, 1000, 0, &e);
        gb_alloc_fail_after(-1);
        if (!f) {
            failed++;
            CHECK_MSG(strstr(e.msg, "out of memory") != NULL, "after %ld allocations: %s", n, e.msg);
            continue;
        }
        gb_run_result_t r = run_str(f, "A");
        CHECK_MSG(r.status == GB_RUN_OK, "run after %ld allocations", n);
        gb_fsrv_stop(f);
    }
    CHECK_MSG(failed > 0, "allocation failure never reached gb_fsrv_start");
}

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr,
                "usage: test_fsrv T_COV T_PLAIN FAKE_FSRV WORKDIR T_SHM T_PERSIST T_LFDRV\n");
        return 2;
    }
    t_cov = argv[1];
    t_plain = argv[2];
    fake = argv[3];
    workdir = argv[4];
    t_shm = argv[5];
    t_persist = argv[6];
    t_lfdrv = argv[7];
    snprintf(input_path, sizeof input_path, "%s/fsrv-input.%ld", workdir, (long)getpid());
    test_cov_target();
    test_stdin_and_limits();
    test_shm_input();
    test_persistent();
    test_cov_driver();
    test_rejections();
    test_fake_protocols();
    test_restart();
    test_alloc_failure();
    gb_fsrv_stop(NULL);
    unlink(input_path);
    if (check_failures)
        fprintf(stderr, "test_fsrv: %d failure(s)\n", check_failures);
    else
        printf("test_fsrv: ok\n");
    return check_failures ? 1 : 0;
}
