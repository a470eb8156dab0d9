/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox campaign: one command for a whole campaign on one sync dir:
 * afl-fuzz -M (and -S) on AFL++'s own builds (NAME.afl, NAME.cmplog) where
 * they exist, else on the cov build; libFuzzer jobs on the libFuzzer build;
 * and N Glassbox workers; one combined status; libFuzzer restarted after
 * each crash; everything stopped cleanly on Ctrl-C, after -V or (with
 * --exit-on-crash) at the first crash; a crash summary. Builds nothing. */
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
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "corpus.h"
#include "crashes.h"
#include "fuzz_bridge.h"
#include "gb_files.h"
#include "generational.h" /* GB_SEARCH_EXIT_MEMORY */
#include "live.h"
#include "status.h"

#define MAX_JOBS 64
#define MAX_TARGET_ARGS 32

typedef struct job {
    char name[64];
    pid_t pid;
    int done;
    int failed;        /* ended by itself with a non-zero status or a signal */
    int lf;            /* a libFuzzer job: it ends at each crash and is started again */
    unsigned worker;   /* 1 + K for Glassbox worker K: started again with --resume when it
                          exits at Z3's memory ceiling (GB_SEARCH_EXIT_MEMORY) */
    off_t log_start;   /* its log's size when it last started: what that run wrote follows */
    time_t started;    /* when it last started */
    time_t restart_at; /* when to start it again after a crash, 0 = not pending */
    unsigned backoff_s, restarts;
} job_t;

typedef struct camp {
    const char *in, *out, *tbin, *cbin, *lfbin;
    const char *aflbin, *cmplogbin, *dict; /* AFL++'s builds (NULL: none), -x */
    const char *triage_bin;                /* --triage: live triage into SYNC/triage */
    char aflbuf[PATH_MAX], cmplogbuf[PATH_MAX];
    char **targs; /* the target's arguments (@@ = the input file); none: just @@ */
    int ntargs;
    unsigned long long afl, lf, workers, secs, tmo, mem, zmax;
    int mem_given; /* -m was given: afl-fuzz gets it too */
    int resume, tmo_plus; /* tmo_plus: -t N+, passed on to afl-fuzz */
    int exit_on_crash;
    gb_seed_t *seeds;     /* what -i holds that can be a seed, until the jobs start */
    size_t nseeds, nskipped;
    char seedbuf[PATH_MAX]; /* SYNC/.seeds, when some file of -i was skipped */
    int crashed;   /* --exit-on-crash: a new crash ended the campaign */
    long crashes0; /* crash files on disk when it started */
    uint64_t crash_poll_ms; /* when they were last counted */
    time_t start;
    char lfdir[PATH_MAX], lfart[PATH_MAX + 32], lfdict[PATH_MAX + 8], lftmo[48];
    job_t jobs[MAX_JOBS];
    int njobs;
} camp_t;

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static void setenv_default(const char *k, const char *v)
{
    if (!getenv(k))
        setenv(k, v, 1);
}

/* Opens job J's log OUT/.logs/NAME.log as `how` (GB_OPEN_APPEND, or 0 to
 * read) by descriptor: .logs is in the sync dir peers write to, so
 * neither it nor the log is followed if it is a symlink. -1 if not. */
static int open_log(const camp_t *c, const char *name, int how)
{
    char file[NAME_MAX + 1];
    if ((size_t)snprintf(file, sizeof file, "%s.log", name) >= sizeof file)
        return -1;
    int dfd = gb_dir_open(c->out, ".logs", how != 0, NULL);
    if (dfd < 0)
        return -1;
    int fd = how ? gb_file_open_at(dfd, file, how, NULL)
                 : openat(dfd, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    close(dfd);
    return fd;
}

static FILE *read_log(const camp_t *c, const char *name)
{
    int fd = open_log(c, name, 0);
    struct stat st;
    FILE *f = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "r") : NULL;
    if (!f && fd >= 0)
        close(fd);
    return f;
}

/* Notes the command line at the end of the job's log, so the log says what
 * ran (and how often, for a restarted job); returns the log's new size. */
static off_t log_command(int fd, const job_t *j, char **argv)
{
    FILE *f = fd >= 0 ? fdopen(dup(fd), "a") : NULL;
    if (!f)
        return 0;
    if (j->restarts)
        fprintf(f, "glassbox campaign: restart %u of %s after %s\n", j->restarts, j->name,
                j->worker ? "Z3's memory ceiling (--z3-mem-max)" : "a crash");
    fprintf(f, "glassbox campaign: running");
    for (int k = 0; argv[k]; k++)
        fprintf(f, " %s", argv[k]);
    fputc('\n', f);
    fflush(f);
    off_t end = ftello(f);
    fclose(f);
    return end < 0 ? 0 : end;
}

/* Starts argv as job J with stdout/stderr to OUT/.logs/NAME.log, in its own
 * process group (a terminal's Ctrl-C reaches us only; we stop the jobs in
 * order). */
static int spawn_job(camp_t *c, job_t *j, char **argv)
{
    int fd = open_log(c, j->name, GB_OPEN_APPEND);
    j->log_start = log_command(fd, j, argv);
    j->started = time(NULL);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        int nul = open("/dev/null", O_RDONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (nul >= 0)
            dup2(nul, 0);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    if (fd >= 0)
        close(fd);
    j->pid = pid;
    j->done = 0;
    return 0;
}

static int spawn(camp_t *c, const char *name, char **argv)
{
    if (c->njobs >= MAX_JOBS)
        return -1;
    job_t *j = &c->jobs[c->njobs];
    memset(j, 0, sizeof *j);
    snprintf(j->name, sizeof j->name, "%s", name);
    if (spawn_job(c, j, argv) != 0)
        return -1;
    c->njobs++;
    return 0;
}

static int start_afl(camp_t *c)
{
    setenv_default("AFL_NO_UI", "1");
    setenv_default("AFL_SKIP_CPUFREQ", "1");
    setenv_default("AFL_NO_AFFINITY", "1");
    setenv_default("AFL_SYNC_TIME", "1"); /* minutes; the main syncs every half of it */
    setenv_default("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1");
    if (c->resume)
        setenv_default("AFL_AUTORESUME", "1");
    char secs[32], tmo[32], mem[32], lfdir[PATH_MAX];
    snprintf(secs, sizeof secs, "%llu", c->secs);
    snprintf(tmo, sizeof tmo, "%llu%s", c->tmo, c->tmo_plus ? "+" : "");
    snprintf(mem, sizeof mem, c->mem ? "%llu" : "none", c->mem);
    snprintf(lfdir, sizeof lfdir, "%s/libfuzzer", c->out);
    /* The instance that runs cmplog: the only one, else the first
     * secondary (the main keeps the faster plain build). */
    unsigned long long cmplog_k = c->afl == 1 ? 0 : 1;
    for (unsigned long long k = 0; k < c->afl; k++) {
        char name[32];
        if (k == 0)
            snprintf(name, sizeof name, "main");
        else
            snprintf(name, sizeof name, "secondary%llu", k);
        const char *target = c->aflbin ? c->aflbin : c->cbin;
        char *argv[28 + MAX_TARGET_ARGS];
        int n = 0;
        argv[n++] = "afl-fuzz";
        argv[n++] = k == 0 ? "-M" : "-S";
        argv[n++] = name;
        argv[n++] = "-i";
        argv[n++] = c->resume ? "-" : (char *)c->in;
        argv[n++] = "-o";
        argv[n++] = (char *)c->out;
        argv[n++] = "-t";
        argv[n++] = tmo;
        if (c->mem_given) { /* else AFL++'s own default (no limit) */
            argv[n++] = "-m";
            argv[n++] = mem;
        }
        if (c->secs) {
            argv[n++] = "-V";
            argv[n++] = secs;
        }
        if (k == 0 && c->lf) { /* the main also reads libFuzzer's corpus */
            argv[n++] = "-F";
            argv[n++] = lfdir;
        }
        if (c->dict) {
            argv[n++] = "-x";
            argv[n++] = (char *)c->dict;
        }
        /* Debian's AFL++ 4.04c logs comparisons only with the cmplog build
         * as the target and -c 0; -c CMPLOG_BIN runs the plain target for
         * the cmplog stage and logs nothing (test e2e.afl_cmplog). */
        if (c->cmplogbin && k == cmplog_k) {
            argv[n++] = "-c";
            argv[n++] = "0";
            target = c->cmplogbin;
        }
        argv[n++] = "--";
        argv[n++] = (char *)target;
        for (int k2 = 0; k2 < c->ntargs; k2++)
            argv[n++] = c->targs[k2];
        /* A harness without arguments: @@ for Glassbox's cov driver; none
         * for AFL++'s builds, whose libAFLDriver takes shared-memory input
         * and aborts in 4.04c when given the @@ file under afl-fuzz. */
        if (!c->ntargs && target == c->cbin)
            argv[n++] = "@@";
        argv[n] = NULL;
        if (spawn(c, name, argv) != 0)
            return -1;
    }
    return 0;
}

/* Seconds left of -V (meaningless without one): what a restarted job
 * gets, so that it does not outlive the campaign. */
static long long time_left(const camp_t *c)
{
    return (long long)c->secs - (long long)(time(NULL) - c->start);
}

/* A libFuzzer job's command line; -max_total_time is what is left of -V
 * (a restarted job must not outlive the campaign). Returns -1 when no time
 * is left. */
static int lf_argv(const camp_t *c, char **argv, char *secs, size_t cap)
{
    /* libFuzzer at its best: value profiling and the dictionary. */
    int n = 0;
    argv[n++] = (char *)c->lfbin;
    argv[n++] = (char *)c->lfdir; /* first: libFuzzer writes new inputs to it */
    argv[n++] = "-reload=1";
    argv[n++] = "-use_value_profile=1";
    argv[n++] = (char *)c->lfart;
    argv[n++] = (char *)c->lftmo;
    if (c->in)
        argv[n++] = (char *)c->in;
    if (c->dict)
        argv[n++] = (char *)c->lfdict;
    if (c->secs) {
        long long left = time_left(c);
        if (left < 1)
            return -1;
        snprintf(secs, cap, "-max_total_time=%lld", left);
        argv[n++] = secs;
    }
    argv[n] = NULL;
    return 0;
}

static int start_libfuzzer(camp_t *c)
{
    char crashes[PATH_MAX];
    snprintf(c->lfdir, sizeof c->lfdir, "%s/libfuzzer", c->out);
    snprintf(crashes, sizeof crashes, "%s/libfuzzer-crashes", c->out);
    snprintf(c->lfart, sizeof c->lfart, "-artifact_prefix=%s/", crashes);
    snprintf(c->lfdict, sizeof c->lfdict, "-dict=%s", c->dict ? c->dict : "");
    /* -t is in ms, libFuzzer's -timeout in whole seconds: rounded up, so
     * libFuzzer never calls a timeout what afl-fuzz and the workers allow */
    unsigned long long tmo_s = (c->tmo + 999) / 1000;
    snprintf(c->lftmo, sizeof c->lftmo, "-timeout=%llu", tmo_s ? tmo_s : 1);
    int d1 = gb_dir_open(c->out, "libfuzzer", 1, NULL);
    int d2 = gb_dir_open(c->out, "libfuzzer-crashes", 1, NULL);
    if (d1 >= 0)
        close(d1);
    if (d2 >= 0)
        close(d2);
    if (d1 < 0 || d2 < 0)
        return -1;
    for (unsigned long long k = 0; k < c->lf; k++) {
        char name[32], secs[64], *argv[12];
        snprintf(name, sizeof name, "libfuzzer%llu", k + 1);
        if (lf_argv(c, argv, secs, sizeof secs) != 0 || spawn(c, name, argv) != 0)
            return -1;
        c->jobs[c->njobs - 1].lf = 1;
    }
    return 0;
}

/* The artifact libFuzzer's last run of J saved ("Test unit written to PATH"
 * in what it added to its log), into path; 0 when it saved none. */
static int lf_artifact(const camp_t *c, const job_t *j, char *path, size_t cap)
{
    static const char tag[] = "Test unit written to ";
    char buf[PATH_MAX + 256];
    FILE *f = read_log(c, j->name);
    if (!f)
        return 0;
    int found = 0;
    if (fseeko(f, j->log_start, SEEK_SET) == 0)
        while (fgets(buf, sizeof buf, f)) {
            char *p = strstr(buf, tag);
            if (!p)
                continue;
            p += sizeof tag - 1;
            p[strcspn(p, "\r\n")] = '\0';
            snprintf(path, cap, "%s", p);
            found = 1;
        }
    fclose(f);
    return found;
}

/* The crashing input's copy in the libFuzzer corpus, if there is one (a
 * peer's file that -reload=1 ran), goes: it would crash every restart at
 * once. Artifacts are named KIND-SHA1 and corpus files SHA1; the input
 * itself stays in libfuzzer-crashes/. */
static void lf_drop_from_corpus(const camp_t *c, const char *artifact)
{
    const char *dash = strrchr(artifact, '-');
    if (!dash || strlen(dash + 1) != 40 || strchr(dash, '/'))
        return;
    int dfd = gb_dir_open(c->out, "libfuzzer", 0, NULL);
    if (dfd >= 0) {
        gb_file_remove_at(dfd, dash + 1);
        close(dfd);
    }
}

/* J starts again after its backoff: 1 s, doubled at each restart that
 * comes within GB_LF_QUICK_CRASH_S of the last start, at most
 * GB_LF_RESTART_MAX_S. */
static void schedule_restart(job_t *j)
{
    time_t now = time(NULL);
    unsigned quick = now - j->started < GB_LF_QUICK_CRASH_S;
    j->backoff_s = !quick || !j->backoff_s ? 1 : j->backoff_s * 2;
    if (j->backoff_s > GB_LF_RESTART_MAX_S)
        j->backoff_s = GB_LF_RESTART_MAX_S;
    j->restart_at = now + j->backoff_s;
}

/* A libFuzzer job that ended with an artifact crashed (it stops at the
 * first): it is started again after its backoff. Returns 0 when it ended
 * for another reason. */
static int lf_schedule_restart(camp_t *c, job_t *j)
{
    char artifact[PATH_MAX];
    if (!lf_artifact(c, j, artifact, sizeof artifact))
        return 0;
    lf_drop_from_corpus(c, artifact);
    schedule_restart(j);
    return 1;
}

/* A worker that ended at Z3's memory ceiling journaled the input it was on
 * and saved the rest: it goes on with --resume after its backoff. Returns
 * 0 when it ended otherwise. */
static int worker_schedule_restart(job_t *j, int status)
{
    if (!WIFEXITED(status) || WEXITSTATUS(status) != GB_SEARCH_EXIT_MEMORY)
        return 0;
    schedule_restart(j);
    return 1;
}

/* Whether worker NAME of the campaign has run before (its queue/ exists). */
static int worker_exists(const camp_t *c, const char *name)
{
    char path[PATH_MAX];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s/queue", c->out, name);
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The strings a worker's command line points into. */
typedef struct wbuf {
    char self[PATH_MAX], lfdir[PATH_MAX], triage[PATH_MAX];
    char name[32], secs[32], tmo[32], mem[32], zmax[32], every[32];
    char *argv[28 + MAX_TARGET_ARGS];
} wbuf_t;

/* Worker K's command line into b->argv; -V is what is left of the
 * campaign's (a restarted worker must not outlive it). --resume when it
 * ran before, on a restart or the campaign's --resume (a worker added on
 * resume starts from the seeds). Returns -1
 * when no time is left or /proc/self/exe cannot be read. */
static int worker_argv(const camp_t *c, unsigned long long k, int restart, wbuf_t *b)
{
    ssize_t n = readlink("/proc/self/exe", b->self, sizeof b->self - 1);
    if (n <= 0)
        return -1;
    b->self[n] = '\0';
    if (c->workers == 1)
        snprintf(b->name, sizeof b->name, "glassbox");
    else
        snprintf(b->name, sizeof b->name, "glassbox%llu", k + 1);
    long long left = time_left(c);
    if (c->secs && left < 1)
        return -1;
    snprintf(b->every, sizeof b->every, "%u", GB_LOG_STATUS_EVERY_MS);
    snprintf(b->secs, sizeof b->secs, "%lld", left);
    snprintf(b->tmo, sizeof b->tmo, "%llu", c->tmo);
    snprintf(b->mem, sizeof b->mem, "%llu", c->mem);
    snprintf(b->zmax, sizeof b->zmax, "%llu", c->zmax);
    snprintf(b->lfdir, sizeof b->lfdir, "%s/libfuzzer", c->out);
    snprintf(b->triage, sizeof b->triage, "%s/triage", c->out);
    char **argv = b->argv;
    int i = 0;
    argv[i++] = b->self;
    argv[i++] = "fuzz";
    /* Not -q: its status lines and notes are the worker's log. */
    argv[i++] = "--status-every";
    argv[i++] = b->every;
    if (c->in) {
        argv[i++] = "-i";
        argv[i++] = (char *)c->in;
    }
    argv[i++] = "-o";
    argv[i++] = (char *)c->out;
    argv[i++] = "-n";
    argv[i++] = b->name;
    argv[i++] = "-t";
    argv[i++] = b->tmo;
    argv[i++] = "-m";
    argv[i++] = b->mem;
    argv[i++] = "--z3-mem-max";
    argv[i++] = b->zmax;
    if (c->secs) {
        argv[i++] = "-V";
        argv[i++] = b->secs;
    }
    if ((restart || c->resume) && worker_exists(c, b->name))
        argv[i++] = "--resume";
    if (c->lf) {
        argv[i++] = "--libfuzzer-dir";
        argv[i++] = b->lfdir;
    }
    if (c->triage_bin) { /* the campaign triages; workers report its count */
        argv[i++] = "--triage-dir";
        argv[i++] = b->triage;
    }
    argv[i++] = "--";
    argv[i++] = (char *)c->tbin;
    argv[i++] = (char *)c->cbin;
    for (int k2 = 0; k2 < c->ntargs; k2++)
        argv[i++] = c->targs[k2];
    argv[i] = NULL;
    return 0;
}

/* Starts the jobs whose backoff is over, while time is left. */
static void restart_due(camp_t *c)
{
    for (int i = 0; i < c->njobs; i++) {
        job_t *j = &c->jobs[i];
        if (!j->restart_at || time(NULL) < j->restart_at)
            continue;
        j->restart_at = 0;
        char secs[64], *argv[12];
        wbuf_t b;
        char **run = j->worker ? b.argv : argv;
        if (j->worker ? worker_argv(c, j->worker - 1, 1, &b) != 0
                      : lf_argv(c, argv, secs, sizeof secs) != 0)
            continue; /* -V is (nearly) over: it stays ended */
        j->restarts++;
        if (spawn_job(c, j, run) != 0)
            j->failed = 1;
    }
}

static int start_workers(camp_t *c)
{
    for (unsigned long long k = 0; k < c->workers; k++) {
        wbuf_t b;
        if (worker_argv(c, k, 0, &b) != 0 || spawn(c, b.name, b.argv) != 0)
            return -1;
        c->jobs[c->njobs - 1].worker = (unsigned)k + 1;
    }
    return 0;
}

static int reap(camp_t *c)
{
    int running = 0;
    for (int i = 0; i < c->njobs; i++) {
        job_t *j = &c->jobs[i];
        if (j->done)
            continue;
        int st;
        pid_t r = waitpid(j->pid, &st, WNOHANG);
        if (r == j->pid || (r < 0 && errno == ECHILD)) {
            j->done = 1;
            int bad = r == j->pid && !stop_requested && !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
            j->failed = bad && !(j->lf && lf_schedule_restart(c, j)) &&
                        !(j->worker && worker_schedule_restart(j, st));
        } else {
            running++;
        }
    }
    for (int i = 0; i < c->njobs; i++)
        running += c->jobs[i].restart_at != 0 && !stop_requested;
    return running;
}

/* SIGINT to every job (afl-fuzz and glassbox save and exit on it), then
 * SIGKILL to whatever is left after a grace period. */
static void stop_all(camp_t *c, unsigned grace_s)
{
    for (int i = 0; i < c->njobs; i++) {
        c->jobs[i].restart_at = 0; /* a libFuzzer job waiting to restart stays ended */
        if (!c->jobs[i].done)
            kill(-c->jobs[i].pid, SIGINT);
    }
    for (unsigned t = 0; t < grace_s * 10 && reap(c) > 0; t++) {
        struct timespec ts = {0, 100000000L};
        nanosleep(&ts, NULL);
    }
    for (int i = 0; i < c->njobs; i++)
        if (!c->jobs[i].done) {
            kill(-c->jobs[i].pid, SIGKILL);
            waitpid(c->jobs[i].pid, NULL, 0);
            c->jobs[i].done = 1;
        }
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

/* The campaign is the subreaper of everything its jobs start: a process
 * whose parent dies is handed to it, not to init. Called once every job
 * and the live triage have ended, so each child left is such an orphan,
 * e.g. AFL++ 4.04c's cmplog child, stopped between persistent runs when
 * afl-fuzz exits by its -V, which would otherwise stay for good. Killed
 * (SIGKILL ends a stopped process too) and reaped. */
static void kill_orphans(void)
{
    DIR *d = opendir("/proc");
    if (!d)
        return;
    pid_t me = getpid();
    const struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        char *end;
        long pid = strtol(de->d_name, &end, 10);
        if (*end || pid <= 0 || ppid_of((pid_t)pid) != me)
            continue;
        kill((pid_t)pid, SIGKILL);
        waitpid((pid_t)pid, NULL, 0);
    }
    closedir(d);
}

/* AFL++'s own builds: given, or NAME.afl and NAME.cmplog beside a
 * NAME.cov (what 'glassbox build' makes). Without them afl-fuzz runs on the
 * cov build, as campaigns did before, and the status says so. */
/* NAME.EXT beside COV_BIN = NAME.cov into buf, if it is executable. */
static const char *beside_cov(const char *cbin, const char *ext, char *buf, size_t cap)
{
    size_t n = strlen(cbin), k = strlen(ext);
    if (n <= 4 || strcmp(cbin + n - 4, ".cov") != 0 || n - 4 + k + 1 > cap)
        return NULL;
    memcpy(buf, cbin, n - 4);
    memcpy(buf + n - 4, ext, k + 1);
    return access(buf, X_OK) == 0 ? buf : NULL;
}

static int find_afl_builds(camp_t *c, gb_err_t *e)
{
    if (!c->aflbin)
        c->aflbin = beside_cov(c->cbin, ".afl", c->aflbuf, sizeof c->aflbuf);
    if (!c->cmplogbin)
        c->cmplogbin = beside_cov(c->cbin, ".cmplog", c->cmplogbuf, sizeof c->cmplogbuf);
    if ((c->aflbin && gb_check_executable(c->aflbin, e) != 0) ||
        (c->cmplogbin && gb_check_executable(c->cmplogbin, e) != 0))
        return -1;
    if (c->aflbin && gb_binary_has_marker(c->aflbin, GB_MARKER_COV, e) == 1)
        return gb_err_set(e, "%s is a Glassbox cov build: --afl-bin wants an afl-clang-fast build",
                          c->aflbin);
    return 0;
}

/* Warns about a file of -i that is no seed, and counts it. */
static void seed_skipped(void *camp, const char *path, const char *why)
{
    gb_cli_seed_skipped("campaign", path, why);
    ((camp_t *)camp)->nskipped++;
}

/* afl-fuzz stops at a dangling symlink in its -i directory and takes the
 * head of a too large file: when a file was skipped, every job gets
 * SYNC/.seeds instead, holding just the seeds the workers would load.
 * (Two seeds whose names differ only in '/' and '_' keep one copy.) */
static int clean_seeds(camp_t *c, gb_err_t *e)
{
    snprintf(c->seedbuf, sizeof c->seedbuf, "%s/.seeds", c->out);
    int dfd = gb_dir_open(c->out, ".seeds", 1, e);
    if (dfd < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < c->nseeds && rc == 0; i++)
        rc = gb_file_write_at(dfd, c->seeds[i].name, -1, c->seeds[i].data, c->seeds[i].len, e);
    close(dfd);
    c->in = c->seedbuf;
    return rc;
}

static int check_inputs(camp_t *c, gb_err_t *e)
{
    if ((!c->resume || c->in) &&
        gb_seeds_load(c->in, seed_skipped, c, &c->seeds, &c->nseeds, e) != 0)
        return -1;
    if (gb_check_executable(c->tbin, e) != 0 || gb_check_executable(c->cbin, e) != 0)
        return -1;
    if (gb_binary_has_marker(c->tbin, GB_MARKER_TRACE, e) != 1)
        return gb_err_set(e, "%s is not a Glassbox trace build (glassbox-cc --mode=trace)",
                          c->tbin);
    if (gb_binary_has_marker(c->cbin, GB_MARKER_COV, e) != 1)
        return gb_err_set(e, "%s is not a Glassbox cov build (glassbox-cc --mode=cov)", c->cbin);
    if (c->lf && !c->lfbin)
        return gb_err_set(e, "--libfuzzer needs LF_BIN after COV_BIN (a -fsanitize=fuzzer build)");
    if (c->lf && gb_check_executable(c->lfbin, e) != 0)
        return -1;
    if (c->afl && system("command -v afl-fuzz >/dev/null 2>&1") != 0)
        return gb_err_set(e, "afl-fuzz is not on PATH (install afl++, or use --afl 0)");
    if (c->afl && find_afl_builds(c, e) != 0)
        return -1;
    if (c->dict && access(c->dict, R_OK) != 0)
        return gb_err_set(e, "cannot read the dictionary %s", c->dict);
    if (c->afl + c->lf + c->workers == 0)
        return gb_err_set(e, "nothing to run: --afl, --libfuzzer and --workers are all 0");
    if (c->afl + c->lf + c->workers > MAX_JOBS)
        return gb_err_set(e, "at most %d jobs", MAX_JOBS);
    if (c->nskipped && clean_seeds(c, e) != 0)
        return -1;
    int logs = gb_dir_open(c->out, ".logs", 1, e);
    if (logs < 0)
        return -1;
    close(logs);
    return 0;
}

/* The last non-empty line of a job's log: why it failed. */
static void last_log_line(const camp_t *c, const job_t *j, char *out, size_t cap)
{
    char buf[4096];
    snprintf(out, cap, "(nothing in its log)");
    FILE *f = read_log(c, j->name);
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

/* Crash files of every engine now on disk. */
static long count_crashes(const camp_t *c)
{
    gb_crashes_t *cr = malloc(sizeof *cr); /* ~300 KiB: not on the stack */
    if (!cr)
        return -1;
    gb_crashes_scan(c->out, NULL, cr);
    long n = cr->total;
    free(cr);
    return n;
}

/* --exit-on-crash: whether a crash file appeared since the start, counted
 * every GB_CRASH_POLL_MS (AFL++ and libFuzzer tell us nothing else). */
static int new_crash(camp_t *c)
{
    uint64_t now = gb_time_ms();
    if (!c->exit_on_crash || now - c->crash_poll_ms < GB_CRASH_POLL_MS)
        return 0;
    c->crash_poll_ms = now;
    return c->crashed = count_crashes(c) > c->crashes0;
}

/* Runs until every job has ended, -V, Ctrl-C, or (--exit-on-crash) a new
 * crash. A job that fails on its own (a worker refusing to start, afl-fuzz
 * giving up) ends the campaign: returns it, else NULL. */
static const job_t *wait_loop(camp_t *c, gb_statview_t *v)
{
    time_t last = 0;
    while (!stop_requested && reap(c) > 0 && !new_crash(c)) {
        for (int i = 0; i < c->njobs; i++)
            if (c->jobs[i].failed)
                return &c->jobs[i];
        restart_due(c);
        /* every job has its own -V; this is only a backstop */
        if (c->secs && time(NULL) - c->start > (time_t)c->secs + 60)
            break;
        if (time(NULL) - last >= GB_STATUS_EVERY_MS / 1000) {
            gb_status_show_sync(v, c->out, 0);
            last = time(NULL);
        }
        struct timespec ts = {0, 200000000L};
        nanosleep(&ts, NULL);
    }
    for (int i = 0; i < c->njobs; i++)
        if (c->jobs[i].failed)
            return &c->jobs[i];
    return NULL;
}

/* Every engine's crashes, per directory, and how to replay them. */
static void summarize(const camp_t *c, const char *report)
{
    char where[PATH_MAX * 2 + 64], asan[PATH_MAX];
    if (c->lf)
        snprintf(where, sizeof where, "%s/*/crashes/ or %s/libfuzzer-crashes/", c->out, c->out);
    else
        snprintf(where, sizeof where, "%s/*/crashes/", c->out);
    gb_crash_summary_t sum = {.cmd = "campaign", .where = where,
                              .asan_bin = gb_crashes_asan_bin(c->triage_bin, c->cbin, asan,
                                                              sizeof asan),
                              .triage_dir = c->triage_bin ? report : NULL};
    gb_crashes_t *cr = malloc(sizeof *cr);
    if (!cr)
        return;
    gb_crashes_scan(c->out, NULL, cr);
    gb_crashes_print(stderr, &sum, cr);
    free(cr);
}

/* The live triage's last pass runs after the workers have stopped, so a
 * worker's fuzzer_stats may hold an older crash_buckets (under load a pass
 * can take longer than the campaign's last seconds): each one that has
 * the key gets the final count, atomically. The count only grows. */
static void final_buckets(const camp_t *c, const char *report)
{
    long n = gb_live_buckets(report);
    for (int i = 0; n >= 0 && i < c->njobs; i++) {
        char dir[PATH_MAX], path[PATH_MAX + 16];
        snprintf(dir, sizeof dir, "%s/%s", c->out, c->jobs[i].name);
        snprintf(path, sizeof path, "%s/fuzzer_stats", dir);
        gb_err_t e;
        if (access(path, F_OK) == 0 && /* libFuzzer's jobs write none */
            gb_stats_raise(dir, "crash_buckets", (uint64_t)n, &e) < 0)
            fprintf(stderr, "glassbox campaign: %s\n", e.msg);
    }
}

gb_exit_t gb_cmd_campaign(int argc, char **argv)
{
    camp_t c = {0};
    const gb_opt_t opts[] = {
        GB_OPTION_STR('i', "input", "DIR", NULL, NULL, &c.in,
                      "seed directory (required unless --resume; - = --resume); seeds of at "
                      "most " GB_OPT_MAX_INPUT
                      ", in subfolders too; others are skipped with a warning"),
        GB_OPTION_STR('o', "output", "DIR", NULL, NULL, &c.out, "sync directory (required)"),
        GB_OPTION_UINT(0, "afl", "N", NULL, 1, &c.afl, "afl-fuzz instances: one -M, then -S"),
        GB_OPTION_UINT(0, "libfuzzer", "N", NULL, 0, &c.lf, "libFuzzer jobs on LF_BIN"),
        GB_OPTION_UINT(0, "workers", "N", NULL, 1, &c.workers, "Glassbox workers"),
        GB_OPTION_UINT('V', "time", "SECONDS", NULL, 0, &c.secs,
                       "stop everything after this long, 0 = never"),
        GB_OPTION_UINT_EX('t', "timeout", "MS", NULL, GB_RUN_TIMEOUT_MS, &c.tmo, GB_OPT_PLUS,
                          &c.tmo_plus,
                          "time limit per run, for afl-fuzz and the workers; MS+ goes to "
                          "afl-fuzz as it is (see afl-fuzz -h), the workers read it as MS and "
                          "always skip seeds that time out"),
        GB_OPTION_UINT_EX('m', "memory", "MB", NULL, GB_MEM_LIMIT_MB, &c.mem, GB_OPT_NONE_IS_0,
                          NULL,
                          "address-space limit per run of the workers, and of afl-fuzz when "
                          "given (else AFL++'s default, none); 0 or none = none"),
        GB_OPTION_UINT_EX(0, "z3-mem-max", "MB", "GLASSBOX_Z3_MEM_MAX", GB_Z3_MEM_MAX_MB, &c.zmax,
                          GB_OPT_NONE_IS_0, NULL,
                          "the workers' ceiling on Z3's memory (glassbox fuzz --help); a "
                          "worker that reaches it is started again with --resume"),
        GB_OPTION_STR(0, "afl-bin", "BIN", NULL, NULL, &c.aflbin,
                      "afl-fuzz's target, an afl-clang-fast build; without it NAME.afl beside "
                      "COV_BIN=NAME.cov, else COV_BIN"),
        GB_OPTION_STR(0, "cmplog-bin", "BIN", NULL, NULL, &c.cmplogbin,
                      "an AFL_LLVM_CMPLOG build, run by one afl-fuzz instance with -c 0; "
                      "without it NAME.cmplog beside NAME.cov, else no cmplog"),
        GB_OPTION_STR('x', "dict", "FILE", NULL, NULL, &c.dict,
                      "a dictionary for afl-fuzz (-x) and libFuzzer (-dict=)"),
        GB_OPTION_STR(0, "triage", "ASAN_BIN", NULL, NULL, &c.triage_bin,
                      "bucket every crash (AFL++'s, libFuzzer's, Glassbox's) into SYNC/triage/ "
                      "as it arrives, replayed on ASAN_BIN; the status shows distinct bugs"),
        GB_OPTION_FLAG(0, "exit-on-crash", &c.exit_on_crash,
                       "stop everything at the first new crash of any engine and exit with "
                       "status " GB_OPT_XSTR(GB_EXIT_CRASH_STATUS) " (libFuzzer's convention); "
                       "without it a campaign that found crashes exits 0"),
        GB_OPTION_FLAG(0, "resume", &c.resume, "continue the campaign in OUT"),
    };
    const gb_cmd_t cmd = {"campaign",
                          "-i SEEDS -o SYNC [options] -- TRACE_BIN COV_BIN [LF_BIN] [-- ARGS...]",
                          "Runs a whole campaign on one sync directory: afl-fuzz -M main (and -S\n"
                          "secondaryN) on AFL++'s own build (--afl-bin, or NAME.afl beside\n"
                          "NAME.cov as 'glassbox build' makes it; else COV_BIN), one of them\n"
                          "with cmplog (-c 0 on NAME.cmplog); libFuzzer jobs on LF_BIN with\n"
                          "value profiling, -t as -timeout= (seconds, rounded up) and -x as\n"
                          "-dict=, trading through SYNC/libfuzzer and started again after each\n"
                          "crash; and Glassbox workers, with one combined status. Stops them\n"
                          "all on Ctrl-C, after -V or, with --exit-on-crash, at the first\n"
                          "crash; then says how many crashes each engine saved, where, and how\n"
                          "to replay them. Logs: SYNC/.logs/. Builds nothing.\n"
                          "ARGS after a second -- are the target's arguments for whole programs,\n"
                          "with @@ for the input file (as in AFL++); without them the input path\n"
                          "is the only argument.",
                          opts, GB_N(opts), NULL};
    gb_args_t a;
    gb_parsed_t parsed = gb_opts_args(&cmd, argc, argv, &a);
    if (parsed != GB_PARSED_OK)
        return gb_opts_exit(parsed);
    c.mem_given = gb_opts_given(&c.mem);
    if (c.in && strcmp(c.in, "-") == 0) /* AFL++'s -i - */
        c.in = NULL, c.resume = 1;
    int nbins = a.nrest; /* binaries before a second "--", target arguments after it */
    for (int k = 0; k < a.nrest; k++)
        if (strcmp(a.rest[k], "--") == 0) {
            nbins = k;
            c.targs = a.rest + k + 1;
            c.ntargs = a.nrest - k - 1;
            break;
        }
    if ((!c.in && !c.resume) || !c.out || a.npos || nbins < 2 || nbins > 3)
        return gb_cli_error(GB_EXIT_USAGE, "campaign",
                            "usage: glassbox campaign -i SEEDS -o SYNC "
                            "[options] -- TRACE_BIN COV_BIN [LF_BIN] [-- ARGS...] "
                            "(see --help)");
    if (c.zmax > 1u << 20)
        return gb_cli_error(GB_EXIT_USAGE, "campaign", "--z3-mem-max must be at most 1048576 MB");
    if (c.ntargs > MAX_TARGET_ARGS)
        return gb_cli_error(GB_EXIT_USAGE, "campaign",
                            "at most %d target arguments after the second --", MAX_TARGET_ARGS);
    c.tbin = a.rest[0];
    c.cbin = a.rest[1];
    c.lfbin = nbins > 2 ? a.rest[2] : NULL;
    gb_err_t e;
    int checked = check_inputs(&c, &e);
    gb_seeds_free(c.seeds, c.nseeds);
    if (checked != 0)
        return gb_cli_fail("campaign", e.msg);
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    prctl(PR_SET_CHILD_SUBREAPER, 1); /* see kill_orphans; without it they go to init */
    c.start = time(NULL);
    c.crashes0 = c.exit_on_crash ? count_crashes(&c) : 0; /* --resume: only new ones count */
    gb_live_t live = {0};
    if (c.triage_bin && gb_live_start(&live, c.out, c.triage_bin, c.targs, (size_t)c.ntargs,
                                      GB_TRIAGE_TIMEOUT_MS, &e) != 0)
        return gb_cli_error(GB_EXIT_FAIL, "campaign", "--triage: %s", e.msg);
    if ((c.workers && start_workers(&c) != 0) || (c.afl && start_afl(&c) != 0) ||
        (c.lf && start_libfuzzer(&c) != 0)) {
        stop_all(&c, 5);
        gb_live_stop(&live);
        kill_orphans();
        return gb_cli_fail("campaign", "could not start every job (see OUT/.logs/)");
    }
    gb_statview_t v;
    gb_status_init(&v, stderr);
    if (c.afl && !c.aflbin)
        v.note = "afl-fuzz runs on the Glassbox cov build, not its own: no edges, no cmplog, "
                 "a fork per input ('glassbox build' makes NAME.afl and NAME.cmplog)";
    else if (c.afl && !c.cmplogbin)
        v.note = "afl-fuzz runs without cmplog (no NAME.cmplog beside NAME.cov, no --cmplog-bin)";
    if (v.note)
        fprintf(stderr, "glassbox campaign: note: %s\n", v.note);
    const job_t *failed = wait_loop(&c, &v);
    stop_all(&c, 15);
    gb_live_stop(&live); /* a last pass over the crashes of the last seconds */
    if (c.triage_bin)
        final_buckets(&c, live.report);
    kill_orphans();
    if (failed) { /* one line, as every fault (no summary: it would bury the reason) */
        char why[512];
        last_log_line(&c, failed, why, sizeof why);
        return gb_cli_error(GB_EXIT_FAIL, "campaign", "%s stopped: %s (log: %s/.logs/%s.log)",
                            failed->name, why, c.out, failed->name);
    }
    gb_status_show_sync(&v, c.out, 1);
    if (c.crashed)
        fprintf(stderr, "glassbox campaign: stopped at a new crash (--exit-on-crash)\n");
    summarize(&c, live.report);
    return c.crashed ? GB_EXIT_CRASH : GB_EXIT_OK;
}
