/* SPDX-License-Identifier: Apache-2.0 */
/* Supervised jobs with real processes (/bin/sh scripts): exit statuses
 * and crashes reaped, the log naming each command line, restarts by exit
 * status and by a log line, the pause schedule (a clock passed in),
 * stop_all ending every job within its grace (SIGINT, then SIGKILL for one
 * that ignores it; a job held with SIGSTOP continued), a subreaper's orphans killed, a planted log
 * symlink refused. Usage: test_jobs WORKDIR. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fuzz_bridge.h"
#include "gb_config.h"

static char logs[4096];

/* Reaps the next job to end, waiting up to 10 s. 1, or 0 on timeout. */
static int wait_end(gb_jobs_t *t, time_t now, gb_job_end_t *end)
{
    for (int i = 0; i < 1000; i++) {
        if (gb_jobs_reap(t, 1, now, end) == 1)
            return 1;
        struct timespec ts = {0, 10000000L};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static int spawn_sh(gb_jobs_t *t, const char *name, const gb_job_policy_t *p, const char *script,
                    time_t now)
{
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    gb_err_t e;
    int j = gb_jobs_spawn(t, name, p, argv, now, &e);
    CHECK_MSG(j >= 0, "spawn %s: %s", name, e.msg);
    return j;
}

/* Whether LOGDIR/NAME.log contains `text`. */
static int log_has(const char *name, const char *text)
{
    char path[8192];
    uint8_t *data;
    size_t len;
    snprintf(path, sizeof path, "%s/%s.log", logs, name);
    if (gb_read_file(path, 1u << 20, &data, &len, NULL) != 0)
        return 0;
    int has = memmem(data, len, text, strlen(text)) != NULL;
    gb_free(data);
    return has;
}

static void test_exit_and_crash(gb_jobs_t *t)
{
    gb_job_end_t end;
    int a = spawn_sh(t, "exits", NULL, "echo hello from the job; exit 3", 100);
    CHECK(wait_end(t, 100, &end) && end.job == a);
    CHECK(WIFEXITED(end.status) && WEXITSTATUS(end.status) == 3);
    CHECK(end.restart_at == 0); /* no policy: never started again */
    CHECK(log_has("exits", "test: running /bin/sh -c echo hello from the job; exit 3\n"));
    CHECK(log_has("exits", "hello from the job\n"));
    char why[256];
    gb_jobs_last_line(t, a, why, sizeof why);
    CHECK_MSG(strcmp(why, "hello from the job") == 0, "%s", why);

    int b = spawn_sh(t, "segv", NULL, "kill -SEGV $$", 100);
    CHECK(wait_end(t, 100, &end) && end.job == b);
    CHECK(WIFSIGNALED(end.status) && WTERMSIG(end.status) == SIGSEGV);

    char *argv[] = {"/nonexistent/program", NULL};
    gb_err_t e;
    int c = gb_jobs_spawn(t, "noexec", NULL, argv, 100, &e);
    CHECK(c >= 0 && wait_end(t, 100, &end) && end.job == c);
    CHECK(WIFEXITED(end.status) && WEXITSTATUS(end.status) == 127);
    CHECK(log_has("noexec", "cannot run /nonexistent/program"));
    CHECK(gb_jobs_active(t) == 0);
}

/* A libFuzzer-like job: it crashes after logging its artifact, is started
 * again when its pause is over, and the log says so. */
static void test_restart_by_log(gb_jobs_t *t)
{
    gb_job_policy_t p = {.restart_exit = -1, .log_tag = "Test unit written to ", .why = "a crash"};
    gb_job_end_t end;
    int j = spawn_sh(t, "lf", &p, "echo 'Test unit written to /x/crash-abc'; kill -SEGV $$", 200);
    CHECK(wait_end(t, 201, &end) && end.job == j);
    CHECK_MSG(strcmp(end.found, "/x/crash-abc") == 0, "found '%s'", end.found);
    CHECK(end.restart_at == 202); /* the first pause: 1 s */
    CHECK(gb_jobs_active(t) == 1); /* waiting counts */
    CHECK(gb_jobs_due(t, 201) == -1);
    CHECK(gb_jobs_due(t, 202) == j);
    CHECK(gb_jobs_due(t, 202) == -1); /* taken */
    char *argv[] = {"/bin/sh", "-c", "exit 1", NULL};
    gb_err_t e;
    CHECK(gb_jobs_respawn(t, j, argv, 202, &e) == 0);
    CHECK(log_has("lf", "test: restart 1 of lf after a crash\ntest: running /bin/sh -c exit 1\n"));
    /* This run logged no artifact: a failure, not a restart, though an
     * earlier run's line is in the same log. */
    CHECK(wait_end(t, 203, &end) && end.job == j && end.restart_at == 0 && !end.found[0]);

    /* Reaped while stopping (allow_restart 0): no restart either. */
    CHECK(gb_jobs_respawn(t, j, (char *[]){"/bin/sh", "-c", "echo 'Test unit written to y'; exit 1",
                                           NULL},
                          210, &e) == 0);
    for (int i = 0; i < 1000 && gb_jobs_reap(t, 0, 210, &end) == 0; i++)
        usleep(10000);
    CHECK(end.job == j && end.restart_at == 0 && gb_jobs_active(t) == 0);
}

/* A worker-like job: exit status 3 (Z3's ceiling) restarts, 4 does not. */
static void test_restart_by_status(gb_jobs_t *t)
{
    gb_job_policy_t p = {.restart_exit = 3, .why = "Z3's memory ceiling"};
    gb_job_end_t end;
    int j = spawn_sh(t, "worker", &p, "exit 3", 300);
    CHECK(wait_end(t, 300, &end) && end.job == j && end.restart_at == 301);
    CHECK(gb_jobs_due(t, 305) == j);
    gb_err_t e;
    CHECK(gb_jobs_respawn(t, j, (char *[]){"/bin/sh", "-c", "exit 4", NULL}, 305, &e) == 0);
    CHECK(wait_end(t, 305, &end) && end.job == j && end.restart_at == 0);
    CHECK(log_has("worker", "test: restart 1 of worker after Z3's memory ceiling\n"));
    CHECK(gb_jobs_spawn(t, "bad/name", &p, (char *[]){"/bin/true", NULL}, 0, &e) == -1);
}

/* The pause schedule, with the clock passed in: 1 s doubled on quick
 * crashes up to the cap; a run that lasted starts over at 1 s. */
static void test_backoff(void)
{
    gb_backoff_t b = {0};
    time_t now = 1000;
    unsigned want = 1;
    for (int i = 0; i < 10; i++) {
        b.started = now;
        now += 2; /* crashed 2 s after starting: quick */
        unsigned got = gb_backoff_next(&b, now);
        CHECK_MSG(got == want, "restart %d: pause %u, want %u", i, got, want);
        CHECK(b.restart_at == now + (time_t)want);
        want = want * 2 > GB_LF_RESTART_MAX_S ? GB_LF_RESTART_MAX_S : want * 2;
        now = b.restart_at;
    }
    CHECK(b.pause_s == GB_LF_RESTART_MAX_S);
    b.started = now;
    CHECK(gb_backoff_next(&b, now + GB_LF_QUICK_CRASH_S) == 1); /* ran long enough */
    b.started = now;
    CHECK(gb_backoff_next(&b, now + GB_LF_QUICK_CRASH_S - 1) == 2);
}

/* One job ends on SIGINT, one ignores it and is killed after the grace. */
static void test_stop_all(gb_jobs_t *t)
{
    int a = spawn_sh(t, "polite", NULL, "trap 'exit 0' INT; while :; do sleep 0.05; done", 400);
    int b = spawn_sh(t, "stubborn", NULL, "trap '' INT; sleep 30; sleep 30", 400);
    usleep(300000); /* let both install their traps */
    pid_t pa = t->job[a].pid, pb = t->job[b].pid;
    uint64_t t0 = gb_mono_ms();
    int killed = gb_jobs_stop_all(t, SIGINT, 1000);
    uint64_t took = gb_mono_ms() - t0;
    CHECK_MSG(killed == 1, "%d killed", killed);
    /* the grace, plus slack for a loaded machine */
    CHECK_MSG(took >= 900 && took < 5000, "stop_all took %llu ms", (unsigned long long)took);
    CHECK(t->job[a].pid == 0 && t->job[b].pid == 0 && gb_jobs_active(t) == 0);
    CHECK(WIFSIGNALED(t->job[b].status) && WTERMSIG(t->job[b].status) == SIGKILL);
    CHECK(kill(pa, 0) != 0 && kill(pb, 0) != 0);

    /* Quick when every job ends on the signal. */
    spawn_sh(t, "quick", NULL, "while :; do sleep 0.05; done", 500);
    t0 = gb_mono_ms();
    CHECK(gb_jobs_stop_all(t, SIGINT, 5000) == 0);
    CHECK_MSG(gb_mono_ms() - t0 < 4000, "took %llu ms", (unsigned long long)(gb_mono_ms() - t0));

    /* A job held with SIGSTOP (a lent afl-fuzz between its turns) takes
     * the signal too: stop_all continues it, so it ends within the grace
     * instead of being killed. */
    int h = spawn_sh(t, "held", NULL, "trap 'exit 0' INT; while :; do sleep 0.05; done", 600);
    usleep(300000);
    CHECK(kill(t->job[h].pid, SIGSTOP) == 0);
    usleep(100000);
    t0 = gb_mono_ms();
    CHECK_MSG((killed = gb_jobs_stop_all(t, SIGINT, 3000)) == 0, "%d killed", killed);
    CHECK(t->job[h].pid == 0 && WIFEXITED(t->job[h].status) && WEXITSTATUS(t->job[h].status) == 0);
}

/* A job that leaves a setsid'd grandchild behind: as subreaper we inherit
 * it, and gb_jobs_kill_orphans ends it. */
static void test_orphans(gb_jobs_t *t)
{
    gb_err_t e;
    CHECK_MSG(gb_jobs_subreaper(&e) == 0, "%s", e.msg);
    gb_job_end_t end;
    int j = spawn_sh(t, "parent", NULL,
                     "setsid sleep 60 </dev/null >/dev/null 2>&1 & echo \"orphan $!\"; exit 0", 600);
    CHECK(wait_end(t, 600, &end) && end.job == j && WIFEXITED(end.status));
    usleep(100000);
    int n = gb_jobs_kill_orphans();
    CHECK_MSG(n >= 1, "%d orphans killed", n);
    CHECK(gb_jobs_kill_orphans() == 0);
    char path[8192], line[256];
    snprintf(path, sizeof path, "%s/parent.log", logs);
    FILE *f = fopen(path, "r");
    long pid = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "orphan %ld", &pid) == 1)
            break;
    if (f)
        fclose(f);
    CHECK(pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH);
}

/* A log planted as a symlink in the log directory is never written
 * through: the job does not start. */
static void test_log_symlink(gb_jobs_t *t, const char *root)
{
    char link[8192], target[8192];
    snprintf(target, sizeof target, "%s/outside", root);
    snprintf(link, sizeof link, "%s/evil.log", logs);
    CHECK(symlink(target, link) == 0);
    gb_err_t e;
    CHECK(gb_jobs_spawn(t, "evil", NULL, (char *[]){"/bin/true", NULL}, 0, &e) == -1);
    struct stat st;
    CHECK(lstat(target, &st) != 0);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return fprintf(stderr, "usage: test_jobs WORKDIR\n"), 2;
    char root[2048], cmd[4200];
    snprintf(root, sizeof root, "%s/jobs", argv[1]);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        return 2;
    snprintf(logs, sizeof logs, "%s/.logs", root);
    gb_jobs_t *t = malloc(sizeof *t);
    gb_err_t e;
    if (!t || gb_jobs_open(t, root, ".logs", "test", &e) != 0)
        return fprintf(stderr, "gb_jobs_open: %s\n", t ? e.msg : "no memory"), 2;
    test_backoff();
    test_exit_and_crash(t);
    test_restart_by_log(t);
    test_restart_by_status(t);
    test_stop_all(t);
    test_orphans(t);
    test_log_symlink(t, root);
    gb_jobs_close(t);
    free(t);
    return check_exit("test_jobs");
}
