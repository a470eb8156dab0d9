/* SPDX-License-Identifier: Apache-2.0 */
/* Live triage: a child process that runs the triage library over the sync
 * dir every GB_LIVE_TRIAGE_EVERY_MS, until its parent stops it or dies.
 * Each pass triages only inputs it has not seen (REPORT/.seen), so a pass
 * costs little once the crashes are known. */
#include "live.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gb_config.h"
#include "gb_files.h"
#include "triage.h"

static volatile sig_atomic_t live_stop;

static void on_term(int sig)
{
    (void)sig;
    live_stop = 1;
}

/* One pass: the crashes present now, bucketed into the report. */
static void pass(const char *sync_dir, const gb_triage_opts_t *o)
{
    char lf[4300];
    snprintf(lf, sizeof lf, "%s/libfuzzer-crashes", sync_dir);
    const char *paths[2] = {sync_dir, lf};
    size_t np = access(lf, F_OK) == 0 ? 2 : 1;
    gb_triage_inputs_t in = {0};
    gb_triage_result_t res = {0};
    gb_err_t e;
    if (gb_triage_collect(paths, np, &in, &e) == 0 && gb_triage_run(o, &in, &res, &e) != 0)
        fprintf(stderr, "glassbox live triage: %s\n", e.msg); /* the child's own log line */
    gb_triage_result_free(&res);
    gb_triage_inputs_free(&in);
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void child(const char *sync_dir, const gb_triage_opts_t *o, pid_t parent)
{
    signal(SIGINT, SIG_IGN); /* a terminal's Ctrl-C: the parent stops us */
    signal(SIGTERM, on_term);
    while (!live_stop && getppid() == parent) {
        pass(sync_dir, o);
        for (unsigned t = 0; t < GB_LIVE_TRIAGE_EVERY_MS && !live_stop; t += 100)
            sleep_ms(100);
    }
    if (live_stop)
        pass(sync_dir, o); /* the crashes of the last seconds */
    _exit(0);
}

int gb_live_start(gb_live_t *lt, const char *sync_dir, const char *asan_bin, char *const *args,
                  size_t nargs, unsigned timeout_ms, gb_err_t *e)
{
    lt->pid = 0;
    if (gb_check_executable(asan_bin, e) != 0)
        return -1;
    snprintf(lt->report, sizeof lt->report, "%s/triage", sync_dir);
    /* SYNC/triage lives where peers write: opened below SYNC without
     * following a symlink, here and by every pass (report_sub). */
    int fd = gb_dir_open(sync_dir, "triage", 1, e);
    if (fd < 0)
        return -1;
    close(fd);
    gb_triage_opts_t o = {
        .report_dir = sync_dir,
        .report_sub = "triage",
        .target = {.bin = asan_bin, .args = args, .nargs = nargs, .timeout_ms = timeout_ms},
        .jobs = 1,
    };
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return gb_err_sys(e, "cannot start live triage");
    if (pid == 0)
        child(sync_dir, &o, parent);
    lt->pid = pid;
    return 0;
}

void gb_live_stop(gb_live_t *lt)
{
    if (lt->pid <= 0)
        return;
    kill(lt->pid, SIGTERM);
    for (unsigned t = 0; t < GB_LIVE_TRIAGE_GRACE_S * 10; t++) {
        pid_t r = waitpid(lt->pid, NULL, WNOHANG);
        if (r == lt->pid || (r < 0 && errno == ECHILD)) {
            lt->pid = 0;
            return;
        }
        sleep_ms(100);
    }
    kill(lt->pid, SIGKILL);
    waitpid(lt->pid, NULL, 0);
    lt->pid = 0;
}

long gb_live_buckets(const char *report_dir)
{
    gb_triage_result_t res = {0};
    gb_err_t e;
    char summary[4300];
    snprintf(summary, sizeof summary, "%s/summary.json", report_dir);
    if (access(summary, F_OK) != 0)
        return -1;
    long n = gb_report_load(report_dir, &res, &e) == 0 ? (long)res.nbuckets : -1;
    gb_triage_result_free(&res);
    return n;
}
