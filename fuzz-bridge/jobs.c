/* SPDX-License-Identifier: Apache-2.0 */
/* Supervised jobs: a campaign's fuzzers as child processes with logs,
 * restart pauses and an ordered stop (jobs.h says what each call does). */
#include "fuzz_bridge.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_config.h"
#include "gb_files.h"

/* How often gb_jobs_stop_all looks whether every job has ended. */
#define STOP_POLL_MS 50

int gb_jobs_open(gb_jobs_t *t, const char *root, const char *rel, const char *tag, gb_err_t *e)
{
    memset(t, 0, sizeof *t);
    t->tag = tag;
    t->logdir = gb_dir_open(root, rel, 1, e);
    return t->logdir < 0 ? -1 : 0;
}

void gb_jobs_close(gb_jobs_t *t)
{
    if (t->logdir >= 0)
        close(t->logdir);
    t->logdir = -1;
}

/* Job J's log, opened as `how` (GB_OPEN_APPEND, or 0 to read) in the log
 * directory without following a symlink. -1 if not. */
static int log_open(const gb_jobs_t *t, int j, int how, gb_err_t *e)
{
    char file[NAME_MAX + 1];
    if ((size_t)snprintf(file, sizeof file, "%s.log", t->job[j].name) >= sizeof file)
        return gb_err_set(e, "job name too long: %s", t->job[j].name);
    if (how)
        return gb_file_open_at(t->logdir, file, how, e);
    int fd = openat(t->logdir, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        fd = -1;
    }
    return fd;
}

static FILE *log_read(const gb_jobs_t *t, int j)
{
    int fd = log_open(t, j, 0, NULL);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f && fd >= 0)
        close(fd);
    return f;
}

/* Notes the command line at the end of the log, so the log says what ran
 * (and how often, for a restarted job); returns the log's new size. */
static off_t log_command(const gb_jobs_t *t, const gb_job_t *j, int fd, char *const *argv)
{
    int d = dup(fd);
    FILE *f = d >= 0 ? fdopen(d, "a") : NULL;
    if (!f) {
        if (d >= 0)
            close(d);
        return 0;
    }
    if (j->back.restarts)
        fprintf(f, "%s: restart %u of %s after %s\n", t->tag, j->back.restarts, j->name,
                j->policy.why ? j->policy.why : "it ended");
    fprintf(f, "%s: running", t->tag);
    for (int k = 0; argv[k]; k++)
        fprintf(f, " %s", argv[k]);
    fputc('\n', f);
    fflush(f);
    off_t end = ftello(f);
    fclose(f);
    return end < 0 ? 0 : end;
}

/* Child side: its own process group, the log as stdout and stderr,
 * /dev/null as stdin, then argv. Never returns. */
static void child_run(int logfd, char *const *argv) __attribute__((noreturn));
static void child_run(int logfd, char *const *argv)
{
    setpgid(0, 0);
    int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (logfd >= 0) {
        dup2(logfd, 1);
        dup2(logfd, 2);
    }
    if (nul >= 0)
        dup2(nul, 0);
    execvp(argv[0], argv);
    dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Runs job J's next run with argv. 0 or -1 with `e`. */
static int job_start(gb_jobs_t *t, int j, char *const *argv, time_t now, gb_err_t *e)
{
    gb_job_t *job = &t->job[j];
    int fd = log_open(t, j, GB_OPEN_APPEND, e);
    if (fd < 0)
        return -1;
    job->log_start = log_command(t, job, fd, argv);
    job->back.started = now;
    job->status = -1;
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(fd);
        return gb_err_sys(e, "fork for %s", job->name);
    }
    if (pid == 0)
        child_run(fd, argv);
    setpgid(pid, pid); /* as the child does: whichever runs first */
    close(fd);
    job->pid = pid;
    return 0;
}

int gb_jobs_spawn(gb_jobs_t *t, const char *name, const gb_job_policy_t *p, char *const *argv,
                  time_t now, gb_err_t *e)
{
    if (t->n >= GB_JOBS_MAX)
        return gb_err_set(e, "at most %d jobs", GB_JOBS_MAX);
    if (!name[0] || strchr(name, '/') || strlen(name) >= sizeof t->job[0].name)
        return gb_err_set(e, "bad job name '%s'", name);
    gb_job_t *job = &t->job[t->n];
    memset(job, 0, sizeof *job);
    snprintf(job->name, sizeof job->name, "%s", name);
    job->policy = p ? *p : (gb_job_policy_t){.restart_exit = -1};
    if (job_start(t, t->n, argv, now, e) != 0)
        return -1;
    return t->n++;
}

int gb_jobs_respawn(gb_jobs_t *t, int j, char *const *argv, time_t now, gb_err_t *e)
{
    assert(j >= 0 && j < t->n && t->job[j].pid == 0);
    t->job[j].back.restarts++;
    return job_start(t, j, argv, now, e);
}

unsigned gb_backoff_next(gb_backoff_t *b, time_t now)
{
    int quick = now - b->started < GB_LF_QUICK_CRASH_S;
    b->pause_s = !quick || !b->pause_s ? 1 : b->pause_s * 2;
    if (b->pause_s > GB_LF_RESTART_MAX_S)
        b->pause_s = GB_LF_RESTART_MAX_S;
    b->restart_at = now + (time_t)b->pause_s;
    return b->pause_s;
}

/* The rest of the last line holding `tag` that job J's last run logged,
 * into out; 0 when there is none. */
static int log_find(const gb_jobs_t *t, int j, const char *tag, char *out, size_t cap)
{
    char buf[PATH_MAX + 256];
    FILE *f = log_read(t, j);
    if (!f)
        return 0;
    int found = 0;
    if (fseeko(f, t->job[j].log_start, SEEK_SET) == 0)
        while (fgets(buf, sizeof buf, f)) {
            char *p = strstr(buf, tag);
            if (!p)
                continue;
            p += strlen(tag);
            p[strcspn(p, "\r\n")] = '\0';
            snprintf(out, cap, "%s", p);
            found = 1;
        }
    fclose(f);
    return found;
}

/* Whether job J's run that ended with `status` asks to be started again
 * (fills end->found from the log as it looks). A clean exit never does. */
static int wants_restart(const gb_jobs_t *t, int j, int status, gb_job_end_t *end)
{
    const gb_job_policy_t *p = &t->job[j].policy;
    if (status == -1 || (WIFEXITED(status) && WEXITSTATUS(status) == 0))
        return 0;
    if (p->log_tag && log_find(t, j, p->log_tag, end->found, sizeof end->found))
        return 1;
    return p->restart_exit >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == p->restart_exit;
}

int gb_jobs_reap(gb_jobs_t *t, int allow_restart, time_t now, gb_job_end_t *end)
{
    for (int j = 0; j < t->n; j++) {
        gb_job_t *job = &t->job[j];
        if (job->pid <= 0)
            continue;
        int st = -1;
        pid_t r = waitpid(job->pid, &st, WNOHANG);
        if (r != job->pid && !(r < 0 && errno == ECHILD))
            continue;
        job->pid = 0;
        job->status = r < 0 ? -1 : st;
        memset(end, 0, sizeof *end);
        end->job = j;
        end->status = job->status;
        if (wants_restart(t, j, job->status, end) && allow_restart) {
            gb_backoff_next(&job->back, now);
            end->restart_at = job->back.restart_at;
        }
        return 1;
    }
    return 0;
}

int gb_jobs_due(gb_jobs_t *t, time_t now)
{
    for (int j = 0; j < t->n; j++) {
        gb_backoff_t *b = &t->job[j].back;
        if (b->restart_at && now >= b->restart_at) {
            b->restart_at = 0;
            return j;
        }
    }
    return -1;
}

int gb_jobs_active(const gb_jobs_t *t)
{
    int n = 0;
    for (int j = 0; j < t->n; j++)
        n += t->job[j].pid > 0 || t->job[j].back.restart_at != 0;
    return n;
}

/* Jobs still running, after reaping those that ended. */
static int reap_all(gb_jobs_t *t)
{
    gb_job_end_t *end = malloc(sizeof *end); /* 4 KiB: a caller may be deep */
    if (end)
        while (gb_jobs_reap(t, 0, 0, end) == 1)
            ;
    free(end);
    int n = 0;
    for (int j = 0; j < t->n; j++)
        n += t->job[j].pid > 0;
    return n;
}

int gb_jobs_stop_all(gb_jobs_t *t, int sig, unsigned grace_ms)
{
    for (int j = 0; j < t->n; j++) {
        t->job[j].back.restart_at = 0; /* a job waiting to restart stays ended */
        if (t->job[j].pid > 0) {
            kill(-t->job[j].pid, sig);
            kill(-t->job[j].pid, SIGCONT); /* a job paused with SIGSTOP (core lending) */
        }
    }
    for (unsigned waited = 0; waited < grace_ms && reap_all(t) > 0; waited += STOP_POLL_MS) {
        struct timespec ts = {0, STOP_POLL_MS * 1000000L};
        nanosleep(&ts, NULL);
    }
    int killed = 0;
    for (int j = 0; j < t->n; j++) {
        gb_job_t *job = &t->job[j];
        if (job->pid <= 0 || waitpid(job->pid, &job->status, WNOHANG) == job->pid) {
            job->pid = 0;
            continue;
        }
        kill(-job->pid, SIGKILL);
        if (waitpid(job->pid, &job->status, 0) < 0)
            job->status = -1;
        job->pid = 0;
        killed++;
    }
    return killed;
}

int gb_jobs_subreaper(gb_err_t *e)
{
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        return gb_err_sys(e, "prctl(PR_SET_CHILD_SUBREAPER)");
    return 0;
}

/* The parent pid in /proc/PID/stat ("pid (comm) state ppid ..."; comm
 * may hold spaces and parentheses, so read after the last ')'), or -1. */
static pid_t ppid_of(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    int ppid;
    char state;
    return p && sscanf(p + 1, " %c %d", &state, &ppid) == 2 ? (pid_t)ppid : -1;
}

int gb_jobs_kill_orphans(void)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    pid_t me = getpid();
    int n = 0;
    const struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        char *end;
        long pid = strtol(de->d_name, &end, 10);
        if (*end || pid <= 0 || ppid_of((pid_t)pid) != me)
            continue;
        kill((pid_t)pid, SIGKILL);
        waitpid((pid_t)pid, NULL, 0);
        n++;
    }
    closedir(d);
    return n;
}

void gb_jobs_last_line(const gb_jobs_t *t, int j, char *out, size_t cap)
{
    char buf[4096];
    snprintf(out, cap, "(nothing in its log)");
    FILE *f = log_read(t, j);
    if (!f)
        return;
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        /* status lines may carry terminal escapes; a reason is plain text */
        size_t n = strlen(buf);
        if (n && !strchr(buf, '\033')) {
            n = n < cap ? n : cap - 1;
            memcpy(out, buf, n);
            out[n] = '\0';
        }
    }
    fclose(f);
}
