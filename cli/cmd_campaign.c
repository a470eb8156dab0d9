/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox campaign: one command for a whole campaign on one sync dir:
 * afl-fuzz -M (and -S) on AFL++'s own builds (NAME.afl, NAME.cmplog) where
 * they exist, else on the cov build; libFuzzer jobs on the libFuzzer build;
 * and N Glassbox workers; one combined status; libFuzzer restarted after
 * each crash; everything stopped cleanly on Ctrl-C, after -V or (with
 * --exit-on-crash) at the first crash; a crash summary. Builds nothing.
 * This file parses the options, builds each peer's command line and says
 * what a job's end means; fuzz-bridge's job table (gb_jobs_*) runs them. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

#define MAX_TARGET_ARGS 32

/* What the command line says. */
typedef struct camp_opts {
    const char *in, *out, *tbin, *cbin, *lfbin;
    const char *aflbin, *cmplogbin, *dict; /* AFL++'s builds (NULL: none), -x */
    const char *triage_bin;                /* --triage: live triage into SYNC/triage */
    char **targs; /* the target's arguments (@@ = the input file); none: just @@ */
    int ntargs;
    unsigned long long afl, lf, workers, secs, tmo, mem, zmax;
    unsigned long long lend_s; /* --lend-after, 0 = the workers keep their cores */
    int mem_given; /* -m was given: afl-fuzz gets it too */
    int resume, tmo_plus; /* tmo_plus: -t N+, passed on to afl-fuzz */
    int exit_on_crash;
} camp_opts_t;

/* Strings the jobs' command lines point into, for the campaign's life. */
typedef struct camp_bufs {
    char afl[PATH_MAX], cmplog[PATH_MAX]; /* NAME.afl, NAME.cmplog found beside NAME.cov */
    char seeds[PATH_MAX];                 /* SYNC/.seeds, when some file of -i was skipped */
    char lfdir[PATH_MAX], lfart[PATH_MAX + 32], lfdict[PATH_MAX + 8], lftmo[48];
} camp_bufs_t;

/* What -i holds that can be a seed, until the jobs start. */
typedef struct camp_seeds {
    gb_seed_t *seeds;
    size_t n, skipped;
} camp_seeds_t;

/* --exit-on-crash: crash files counted against those at the start. */
typedef struct camp_watch {
    int crashed;            /* a new crash ended the campaign */
    long crashes0;          /* crash files on disk when it started */
    uint64_t poll_ms;       /* when they were last counted */
} camp_watch_t;

/* What each job of the table is: the CLI builds its command line again
 * for a restart. */
typedef enum { ROLE_AFL, ROLE_LIBFUZZER, ROLE_WORKER } camp_role_t;

/* --lend-after: worker K's core, lent to afl-fuzz lentK+1 by turns
 * (fuzz-bridge/lend.h decides, lend_poll does it). */
typedef struct camp_lend {
    int on; /* lending for this worker (off again if it cannot go on) */
    gb_lend_t pol;
    int job;     /* lentK's job, -1 = not started yet */
    int stopped; /* lentK is held with SIGSTOP */
} camp_lend_t;

typedef struct camp {
    camp_opts_t o;
    camp_bufs_t b;
    camp_seeds_t s;
    camp_watch_t w;
    time_t start;
    gb_jobs_t jobs; /* fuzz-bridge's: processes, logs, restarts */
    camp_role_t role[GB_JOBS_MAX];
    unsigned worker[GB_JOBS_MAX]; /* ROLE_WORKER: which one (0-based) */
    int wjob[GB_JOBS_MAX];        /* worker K's job */
    camp_lend_t lend[GB_JOBS_MAX]; /* worker K's lending */
    int lenddir;                   /* SYNC/.lend, the pause files; -1 = no lending */
    time_t lend_polled;
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

/* libFuzzer's job ends at each crash, after the line naming its artifact:
 * it is started again (the crashing input is kept, see lf_drop_from_corpus). */
static const gb_job_policy_t lf_policy = {
    .restart_exit = -1, .log_tag = "Test unit written to ", .why = "a crash"};
/* A worker at Z3's memory ceiling journaled the input it was on and saved
 * the rest: it goes on with --resume. */
static const gb_job_policy_t worker_policy = {
    .restart_exit = GB_SEARCH_EXIT_MEMORY, .why = "Z3's memory ceiling (--z3-mem-max)"};

/* Starts a job and notes its role; -1 when it could not start. */
static int spawn(camp_t *c, const char *name, camp_role_t role, unsigned k, char **argv)
{
    const gb_job_policy_t *p =
        role == ROLE_LIBFUZZER ? &lf_policy : role == ROLE_WORKER ? &worker_policy : NULL;
    gb_err_t e;
    int j = gb_jobs_spawn(&c->jobs, name, p, argv, time(NULL), &e);
    if (j < 0) {
        fprintf(stderr, "glassbox campaign: %s: %s\n", name, e.msg);
        return -1;
    }
    c->role[j] = role;
    c->worker[j] = k;
    if (role == ROLE_WORKER && k < GB_JOBS_MAX)
        c->wjob[k] = j;
    return 0;
}

/* afl-fuzz's environment, unless the user set it: no UI (its log is a
 * file), syncs every minute. */
static void afl_env(const camp_opts_t *o)
{
    setenv_default("AFL_NO_UI", "1");
    setenv_default("AFL_SKIP_CPUFREQ", "1");
    setenv_default("AFL_NO_AFFINITY", "1");
    setenv_default("AFL_SYNC_TIME", "1"); /* minutes; the main syncs every half of it */
    setenv_default("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1");
    if (o->resume)
        setenv_default("AFL_AUTORESUME", "1");
}

/* The strings an afl-fuzz command line points into. */
typedef struct abuf {
    char name[32], secs[32], tmo[32], mem[32], lfdir[PATH_MAX];
    char *argv[28 + MAX_TARGET_ARGS];
} abuf_t;

/* afl-fuzz instance K's command line into b->argv: K < --afl is one of
 * the campaign's own, K >= --afl is lentN (N = K - --afl + 1), which gets
 * -V `secs` (what is left) and, with no seeds to start from on --resume,
 * `in`. */
static void afl_argv(const camp_opts_t *o, unsigned long long k, unsigned long long secs,
                     const char *in, abuf_t *b)
{
    snprintf(b->secs, sizeof b->secs, "%llu", secs);
    snprintf(b->tmo, sizeof b->tmo, "%llu%s", o->tmo, o->tmo_plus ? "+" : "");
    snprintf(b->mem, sizeof b->mem, o->mem ? "%llu" : "none", o->mem);
    snprintf(b->lfdir, sizeof b->lfdir, "%s/libfuzzer", o->out);
    if (k == 0)
        snprintf(b->name, sizeof b->name, "main");
    else if (k >= o->afl)
        snprintf(b->name, sizeof b->name, "lent%llu", k - o->afl + 1);
    else
        snprintf(b->name, sizeof b->name, "secondary%llu", k);
    /* The instance that runs cmplog: the only one, else the first
     * secondary (the main keeps the faster plain build). */
    int cmplog = o->cmplogbin && k == (o->afl == 1 ? 0 : 1);
    const char *target = cmplog ? o->cmplogbin : o->aflbin ? o->aflbin : o->cbin;
    char **argv = b->argv;
    int n = 0;
    /* A lone afl-fuzz (--afl 1 without libFuzzer) runs as -S: in AFL++
     * 4.04c -M forces the sequential queue walk (-Z) and turns trimming
     * off, which suits a main among several AFL++ instances, not the only
     * one; AFL++'s own default for a single instance is -S. With no main
     * in the sync dir it makes itself one (is_main_node) at its first sync
     * and from then on imports every peer's queue. -F (the libFuzzer
     * corpus) needs -M, so with --libfuzzer the lone instance stays -M. */
    int main_node = k == 0 && (o->afl > 1 || o->lf);
    argv[n++] = "afl-fuzz";
    argv[n++] = main_node ? "-M" : "-S";
    argv[n++] = b->name;
    argv[n++] = "-i";
    argv[n++] = (char *)in;
    argv[n++] = "-o";
    argv[n++] = (char *)o->out;
    argv[n++] = "-t";
    argv[n++] = b->tmo;
    if (o->mem_given) { /* else AFL++'s own default (no limit) */
        argv[n++] = "-m";
        argv[n++] = b->mem;
    }
    if (secs) {
        argv[n++] = "-V";
        argv[n++] = b->secs;
    }
    if (k == 0 && o->lf) { /* the main also reads libFuzzer's corpus */
        argv[n++] = "-F";
        argv[n++] = b->lfdir;
    }
    if (o->dict) {
        argv[n++] = "-x";
        argv[n++] = (char *)o->dict;
    }
    /* Debian's AFL++ 4.04c logs comparisons only with the cmplog build
     * as the target and -c 0; -c CMPLOG_BIN runs the plain target for
     * the cmplog stage and logs nothing (test e2e.afl_cmplog). */
    if (cmplog) {
        argv[n++] = "-c";
        argv[n++] = "0";
    }
    argv[n++] = "--";
    argv[n++] = (char *)target;
    for (int k2 = 0; k2 < o->ntargs; k2++)
        argv[n++] = o->targs[k2];
    /* A harness without arguments: @@ for Glassbox's cov driver; none
     * for AFL++'s builds, whose libAFLDriver takes shared-memory input
     * and aborts in 4.04c when given the @@ file under afl-fuzz. */
    if (!o->ntargs && target == o->cbin)
        argv[n++] = "@@";
    argv[n] = NULL;
}

static int start_afl(camp_t *c)
{
    afl_env(&c->o);
    for (unsigned long long k = 0; k < c->o.afl; k++) {
        abuf_t b;
        afl_argv(&c->o, k, c->o.secs, c->o.resume ? "-" : c->o.in, &b);
        if (spawn(c, b.name, ROLE_AFL, 0, b.argv) != 0)
            return -1;
    }
    return 0;
}

/* Seconds left of -V (meaningless without one): what a restarted job
 * gets, so that it does not outlive the campaign. */
static long long time_left(const camp_t *c)
{
    return (long long)c->o.secs - (long long)(time(NULL) - c->start);
}

/* A libFuzzer job's command line; -max_total_time is what is left of -V
 * (a restarted job must not outlive the campaign). Returns -1 when no time
 * is left. */
static int lf_argv(const camp_t *c, char **argv, char *secs, size_t cap)
{
    /* libFuzzer at its best: value profiling and the dictionary. */
    int n = 0;
    argv[n++] = (char *)c->o.lfbin;
    argv[n++] = (char *)c->b.lfdir; /* first: libFuzzer writes new inputs to it */
    argv[n++] = "-reload=1";
    argv[n++] = "-use_value_profile=1";
    argv[n++] = (char *)c->b.lfart;
    argv[n++] = (char *)c->b.lftmo;
    if (c->o.in)
        argv[n++] = (char *)c->o.in;
    if (c->o.dict)
        argv[n++] = (char *)c->b.lfdict;
    if (c->o.secs) {
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
    snprintf(c->b.lfdir, sizeof c->b.lfdir, "%s/libfuzzer", c->o.out);
    snprintf(crashes, sizeof crashes, "%s/libfuzzer-crashes", c->o.out);
    snprintf(c->b.lfart, sizeof c->b.lfart, "-artifact_prefix=%s/", crashes);
    snprintf(c->b.lfdict, sizeof c->b.lfdict, "-dict=%s", c->o.dict ? c->o.dict : "");
    /* -t is in ms, libFuzzer's -timeout in whole seconds: rounded up, so
     * libFuzzer never calls a timeout what afl-fuzz and the workers allow */
    unsigned long long tmo_s = (c->o.tmo + 999) / 1000;
    snprintf(c->b.lftmo, sizeof c->b.lftmo, "-timeout=%llu", tmo_s ? tmo_s : 1);
    int d1 = gb_dir_open(c->o.out, "libfuzzer", 1, NULL);
    int d2 = gb_dir_open(c->o.out, "libfuzzer-crashes", 1, NULL);
    if (d1 >= 0)
        close(d1);
    if (d2 >= 0)
        close(d2);
    if (d1 < 0 || d2 < 0)
        return -1;
    for (unsigned long long k = 0; k < c->o.lf; k++) {
        char name[32], secs[64], *argv[12];
        snprintf(name, sizeof name, "libfuzzer%llu", k + 1);
        if (lf_argv(c, argv, secs, sizeof secs) != 0 ||
            spawn(c, name, ROLE_LIBFUZZER, 0, argv) != 0)
            return -1;
    }
    return 0;
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
    int dfd = gb_dir_open(c->o.out, "libfuzzer", 0, NULL);
    if (dfd >= 0) {
        gb_file_remove_at(dfd, dash + 1);
        close(dfd);
    }
}

/* Whether worker NAME of the campaign has run before (its queue/ exists). */
static int worker_exists(const camp_t *c, const char *name)
{
    char path[PATH_MAX];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s/queue", c->o.out, name);
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Worker K's instance name. */
static void worker_name(const camp_opts_t *o, unsigned long long k, char *buf, size_t cap)
{
    if (o->workers == 1)
        snprintf(buf, cap, "glassbox");
    else
        snprintf(buf, cap, "glassbox%llu", k + 1);
}

/* The strings a worker's command line points into. */
typedef struct wbuf {
    char self[PATH_MAX], lfdir[PATH_MAX], triage[PATH_MAX], pause[PATH_MAX + 64];
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
    worker_name(&c->o, k, b->name, sizeof b->name);
    long long left = time_left(c);
    if (c->o.secs && left < 1)
        return -1;
    snprintf(b->every, sizeof b->every, "%u", GB_LOG_STATUS_EVERY_MS);
    snprintf(b->secs, sizeof b->secs, "%lld", left);
    snprintf(b->tmo, sizeof b->tmo, "%llu", c->o.tmo);
    snprintf(b->mem, sizeof b->mem, "%llu", c->o.mem);
    snprintf(b->zmax, sizeof b->zmax, "%llu", c->o.zmax);
    snprintf(b->lfdir, sizeof b->lfdir, "%s/libfuzzer", c->o.out);
    snprintf(b->triage, sizeof b->triage, "%s/triage", c->o.out);
    char **argv = b->argv;
    int i = 0;
    argv[i++] = b->self;
    argv[i++] = "fuzz";
    /* Not -q: its status lines and notes are the worker's log. */
    argv[i++] = "--status-every";
    argv[i++] = b->every;
    if (c->o.in) {
        argv[i++] = "-i";
        argv[i++] = (char *)c->o.in;
    }
    argv[i++] = "-o";
    argv[i++] = (char *)c->o.out;
    argv[i++] = "-n";
    argv[i++] = b->name;
    argv[i++] = "-t";
    argv[i++] = b->tmo;
    argv[i++] = "-m";
    argv[i++] = b->mem;
    argv[i++] = "--z3-mem-max";
    argv[i++] = b->zmax;
    if (c->o.secs) {
        argv[i++] = "-V";
        argv[i++] = b->secs;
    }
    if ((restart || c->o.resume) && worker_exists(c, b->name))
        argv[i++] = "--resume";
    if (c->o.lf) {
        argv[i++] = "--libfuzzer-dir";
        argv[i++] = b->lfdir;
    }
    if (c->o.triage_bin) { /* the campaign triages; workers report its count */
        argv[i++] = "--triage-dir";
        argv[i++] = b->triage;
    }
    if (c->lenddir >= 0) { /* --lend-after: SYNC/.lend/NAME.pause */
        snprintf(b->pause, sizeof b->pause, "%s/.lend/%s.pause", c->o.out, b->name);
        argv[i++] = "--pause-file";
        argv[i++] = b->pause;
    }
    argv[i++] = "--";
    argv[i++] = (char *)c->o.tbin;
    argv[i++] = (char *)c->o.cbin;
    for (int k2 = 0; k2 < c->o.ntargs; k2++)
        argv[i++] = c->o.targs[k2];
    argv[i] = NULL;
    return 0;
}

/* Starts the jobs whose pause is over, while time is left. Returns a job
 * that could not start again, or -1. */
static int restart_due(camp_t *c)
{
    for (int j; (j = gb_jobs_due(&c->jobs, time(NULL))) >= 0;) {
        char secs[64], *argv[12];
        wbuf_t b;
        int worker = c->role[j] == ROLE_WORKER;
        char **run = worker ? b.argv : argv;
        if (worker ? worker_argv(c, c->worker[j], 1, &b) != 0
                   : lf_argv(c, argv, secs, sizeof secs) != 0)
            continue; /* -V is (nearly) over: it stays ended */
        gb_err_t e;
        if (gb_jobs_respawn(&c->jobs, j, run, time(NULL), &e) != 0) {
            fprintf(stderr, "glassbox campaign: %s: %s\n", c->jobs.job[j].name, e.msg);
            return j;
        }
    }
    return -1;
}

static int start_workers(camp_t *c)
{
    for (unsigned long long k = 0; k < c->o.workers; k++) {
        wbuf_t b;
        if (worker_argv(c, k, 0, &b) != 0 || spawn(c, b.name, ROLE_WORKER, (unsigned)k, b.argv) != 0)
            return -1;
    }
    return 0;
}

/* Reaps the jobs that ended. One that failed on its own (a worker refusing
 * to start, afl-fuzz giving up) is returned, else -1; a libFuzzer job that
 * crashed or a worker at Z3's ceiling waits for its restart. */
static int reap_ended(camp_t *c)
{
    gb_job_end_t end;
    while (gb_jobs_reap(&c->jobs, !stop_requested, time(NULL), &end) == 1) {
        int st = end.status;
        if (stop_requested || st == -1 || (WIFEXITED(st) && WEXITSTATUS(st) == 0))
            continue;
        if (!end.restart_at)
            return end.job;
        if (c->role[end.job] == ROLE_LIBFUZZER)
            lf_drop_from_corpus(c, end.found);
    }
    return -1;
}

/* ---- --lend-after: a worker's core lent to an extra afl-fuzz by turns -- */

/* Every AFL++ instance's own finds (the lent ones' too). */
static uint64_t afl_finds(const camp_t *c)
{
    uint64_t n = 0;
    for (int j = 0; j < c->jobs.n; j++) {
        long f = c->role[j] == ROLE_AFL ? gb_lend_afl_finds(c->o.out, c->jobs.job[j].name) : 0;
        n += f > 0 ? (uint64_t)f : 0;
    }
    return n;
}

static uint64_t worker_finds(const camp_t *c, unsigned k)
{
    long f = gb_lend_worker_finds(c->o.out, c->jobs.job[c->wjob[k]].name);
    return f > 0 ? (uint64_t)f : 0;
}

/* Worker K's pause file SYNC/.lend/NAME.pause made (the worker waits
 * while it exists) or removed. 0, or -1. */
static int pause_file(const camp_t *c, unsigned long long k, int on)
{
    char w[32], file[64];
    worker_name(&c->o, k, w, sizeof w);
    snprintf(file, sizeof file, "%s.pause", w);
    gb_err_t e;
    if (!on)
        return gb_file_remove_at(c->lenddir, file);
    return gb_file_write_at(c->lenddir, file, -1, "", 0, &e);
}

/* Worker K's lent afl-fuzz runs: started the first time (-V what is left;
 * on --resume from its own queue when it has one, else from the seeds or
 * main's queue), continued after that. 0, or -1 when it cannot run. */
static int lend_afl(camp_t *c, unsigned k)
{
    camp_lend_t *l = &c->lend[k];
    if (l->job >= 0) {
        pid_t pid = c->jobs.job[l->job].pid;
        if (pid <= 0) /* ended (its -V) */
            return -1;
        if (l->stopped && kill(pid, SIGCONT) != 0)
            return -1;
        l->stopped = 0;
        return 0;
    }
    long long left = time_left(c);
    if (c->o.secs && left < 1)
        return -1;
    abuf_t b;
    char own[64], mainq[PATH_MAX];
    snprintf(own, sizeof own, "lent%u/queue", k + 1);
    snprintf(mainq, sizeof mainq, "%s/main/queue", c->o.out);
    const char *in = c->o.in;
    if (c->o.resume) {
        int fd = gb_dir_open(c->o.out, own, 0, NULL);
        if (fd >= 0)
            close(fd);
        in = fd >= 0 ? "-" : in ? in : mainq;
    }
    afl_argv(&c->o, c->o.afl + k, c->o.secs ? (unsigned long long)left : 0, in, &b);
    if (spawn(c, b.name, ROLE_AFL, 0, b.argv) != 0)
        return -1;
    l->job = c->jobs.n - 1;
    return 0;
}

/* Worker K's lent afl-fuzz held (SIGSTOP to afl-fuzz alone: a run of the
 * target in flight ends and waits for it; gb_jobs_stop_all continues it). */
static void hold_afl(camp_t *c, unsigned k)
{
    camp_lend_t *l = &c->lend[k];
    pid_t pid = l->job >= 0 ? c->jobs.job[l->job].pid : 0;
    if (pid > 0 && !l->stopped && kill(pid, SIGSTOP) == 0)
        l->stopped = 1;
}

/* Every GB_LEND_POLL_S: the finds counted, each worker's core given to
 * whom its policy says, with a line on stderr for each change (and when,
 * in seconds since the campaign began). */
static void lend_poll(camp_t *c)
{
    time_t now = time(NULL);
    if (c->lenddir < 0 || now - c->lend_polled < GB_LEND_POLL_S)
        return;
    c->lend_polled = now;
    uint64_t af = afl_finds(c);
    for (unsigned k = 0; k < c->o.workers && k < GB_JOBS_MAX; k++) {
        camp_lend_t *l = &c->lend[k];
        time_t began = l->pol.since;
        if (!l->on || !gb_lend_step(&l->pol, now, worker_finds(c, k), af))
            continue;
        const char *w = c->jobs.job[c->wjob[k]].name;
        long long at = (long long)(now - c->start);
        if (l->pol.side == GB_LEND_AFL) {
            if (pause_file(c, k, 1) != 0 || lend_afl(c, k) != 0) {
                pause_file(c, k, 0);
                l->on = 0;
                fprintf(stderr,
                        "glassbox campaign: %s keeps its core: its lent afl-fuzz cannot run\n", w);
                continue;
            }
            fprintf(stderr,
                    "glassbox campaign: at %lld s, %s found nothing for %u s: its core goes to "
                    "afl-fuzz lent%u for up to %u s\n",
                    at, w, l->pol.idle_s, k + 1, l->pol.slice_s);
        } else {
            hold_afl(c, k);
            pause_file(c, k, 0);
            fprintf(stderr,
                    "glassbox campaign: at %lld s, lent%u's turn is over (%s): the core goes back "
                    "to %s\n",
                    at, k + 1,
                    now - began >= (time_t)l->pol.slice_s ? "its length" : "AFL++ is stuck", w);
        }
    }
}

/* --lend-after with AFL++ and workers: SYNC/.lend opened, stale pause
 * files (a campaign that was killed) removed. 0, or -1 with `e`. */
static int lend_open(camp_t *c, gb_err_t *e)
{
    c->lenddir = -1;
    for (int k = 0; k < GB_JOBS_MAX; k++)
        c->lend[k].job = -1;
    if (!c->o.lend_s || !c->o.afl || !c->o.workers)
        return 0;
    c->lenddir = gb_dir_open(c->o.out, ".lend", 1, e);
    if (c->lenddir < 0)
        return -1;
    for (unsigned long long k = 0; k < c->o.workers && k < GB_JOBS_MAX; k++)
        pause_file(c, k, 0);
    return 0;
}

/* Once every job runs: each worker's turn starts now. */
static void lend_start(camp_t *c)
{
    if (c->lenddir < 0)
        return;
    time_t now = c->lend_polled = time(NULL);
    uint64_t af = afl_finds(c), s = c->o.lend_s;
    for (unsigned k = 0; k < c->o.workers && k < GB_JOBS_MAX; k++) {
        c->lend[k].on = 1;
        gb_lend_init(&c->lend[k].pol, (unsigned)s, (unsigned)(s * GB_LEND_SLICE_FACTOR),
                     (unsigned)(s * GB_LEND_SLICE_MAX_FACTOR), now, worker_finds(c, k), af);
    }
}

/* At the end: no pause file left behind. */
static void lend_close(camp_t *c)
{
    if (c->lenddir < 0)
        return;
    for (unsigned long long k = 0; k < c->o.workers && k < GB_JOBS_MAX; k++)
        pause_file(c, k, 0);
    close(c->lenddir);
    c->lenddir = -1;
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
    if (!c->o.aflbin)
        c->o.aflbin = beside_cov(c->o.cbin, ".afl", c->b.afl, sizeof c->b.afl);
    if (!c->o.cmplogbin)
        c->o.cmplogbin = beside_cov(c->o.cbin, ".cmplog", c->b.cmplog, sizeof c->b.cmplog);
    if ((c->o.aflbin && gb_check_executable(c->o.aflbin, e) != 0) ||
        (c->o.cmplogbin && gb_check_executable(c->o.cmplogbin, e) != 0))
        return -1;
    if (c->o.aflbin && gb_binary_has_marker(c->o.aflbin, GB_MARKER_COV, e) == 1)
        return gb_err_set(e, "%s is a Glassbox cov build: --afl-bin wants an afl-clang-fast build",
                          c->o.aflbin);
    return 0;
}

/* Warns about a file of -i that is no seed, and counts it. */
static void seed_skipped(void *camp, const char *path, const char *why)
{
    gb_cli_seed_skipped("campaign", path, why);
    ((camp_t *)camp)->s.skipped++;
}

/* afl-fuzz stops at a dangling symlink in its -i directory and takes the
 * head of a too large file: when a file was skipped, every job gets
 * SYNC/.seeds instead, holding just the seeds the workers would load.
 * (Two seeds whose names differ only in '/' and '_' keep one copy.) */
static int clean_seeds(camp_t *c, gb_err_t *e)
{
    snprintf(c->b.seeds, sizeof c->b.seeds, "%s/.seeds", c->o.out);
    int dfd = gb_dir_open(c->o.out, ".seeds", 1, e);
    if (dfd < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < c->s.n && rc == 0; i++)
        rc = gb_file_write_at(dfd, c->s.seeds[i].name, -1, c->s.seeds[i].data, c->s.seeds[i].len, e);
    close(dfd);
    c->o.in = c->b.seeds;
    return rc;
}

static int check_inputs(camp_t *c, gb_err_t *e)
{
    if ((!c->o.resume || c->o.in) &&
        gb_seeds_load(c->o.in, seed_skipped, c, &c->s.seeds, &c->s.n, e) != 0)
        return -1;
    if (gb_check_executable(c->o.tbin, e) != 0 || gb_check_executable(c->o.cbin, e) != 0)
        return -1;
    if (gb_binary_has_marker(c->o.tbin, GB_MARKER_TRACE, e) != 1)
        return gb_err_set(e, "%s is not a Glassbox trace build (glassbox-cc --mode=trace)",
                          c->o.tbin);
    if (gb_binary_has_marker(c->o.cbin, GB_MARKER_COV, e) != 1)
        return gb_err_set(e, "%s is not a Glassbox cov build (glassbox-cc --mode=cov)", c->o.cbin);
    if (c->o.lf && !c->o.lfbin)
        return gb_err_set(e, "--libfuzzer needs LF_BIN after COV_BIN (a -fsanitize=fuzzer build)");
    if (c->o.lf && gb_check_executable(c->o.lfbin, e) != 0)
        return -1;
    if (c->o.afl && system("command -v afl-fuzz >/dev/null 2>&1") != 0)
        return gb_err_set(e, "afl-fuzz is not on PATH (install afl++, or use --afl 0)");
    if (c->o.afl && find_afl_builds(c, e) != 0)
        return -1;
    if (c->o.dict && access(c->o.dict, R_OK) != 0)
        return gb_err_set(e, "cannot read the dictionary %s", c->o.dict);
    if (c->o.afl + c->o.lf + c->o.workers == 0)
        return gb_err_set(e, "nothing to run: --afl, --libfuzzer and --workers are all 0");
    if (c->o.afl + c->o.lf + c->o.workers > GB_JOBS_MAX)
        return gb_err_set(e, "at most %d jobs", GB_JOBS_MAX);
    if (c->s.skipped && clean_seeds(c, e) != 0)
        return -1;
    /* the logs are in the sync dir peers write to: opened by descriptor */
    return gb_jobs_open(&c->jobs, c->o.out, ".logs", "glassbox campaign", e);
}

/* Crash files of every engine now on disk. */
static long count_crashes(const camp_t *c)
{
    gb_crashes_t *cr = malloc(sizeof *cr); /* ~300 KiB: not on the stack */
    if (!cr)
        return -1;
    gb_crashes_scan(c->o.out, NULL, cr);
    long n = cr->total;
    free(cr);
    return n;
}

/* --exit-on-crash: whether a crash file appeared since the start, counted
 * every GB_CRASH_POLL_MS (AFL++ and libFuzzer tell us nothing else). */
static int new_crash(camp_t *c)
{
    uint64_t now = gb_time_ms();
    if (!c->o.exit_on_crash || now - c->w.poll_ms < GB_CRASH_POLL_MS)
        return 0;
    c->w.poll_ms = now;
    return c->w.crashed = count_crashes(c) > c->w.crashes0;
}

/* Runs until every job has ended, -V, Ctrl-C, or (--exit-on-crash) a new
 * crash. A job that fails on its own ends the campaign: returns it, else
 * -1. */
static int wait_loop(camp_t *c, gb_statview_t *v)
{
    time_t last = 0;
    int failed = -1;
    while (!stop_requested) {
        failed = reap_ended(c);
        if (failed < 0)
            failed = restart_due(c);
        if (failed >= 0 || !gb_jobs_active(&c->jobs) || new_crash(c))
            break;
        lend_poll(c);
        /* every job has its own -V; this is only a backstop */
        if (c->o.secs && time(NULL) - c->start > (time_t)c->o.secs + 60)
            break;
        if (time(NULL) - last >= GB_STATUS_EVERY_MS / 1000) {
            gb_status_show_sync(v, c->o.out, 0);
            last = time(NULL);
        }
        struct timespec ts = {0, 200000000L};
        nanosleep(&ts, NULL);
    }
    return failed;
}

/* Every engine's crashes, per directory, and how to replay them. */
static void summarize(const camp_t *c, const char *report)
{
    char where[PATH_MAX * 2 + 64], asan[PATH_MAX];
    if (c->o.lf)
        snprintf(where, sizeof where, "%s/*/crashes/ or %s/libfuzzer-crashes/", c->o.out, c->o.out);
    else
        snprintf(where, sizeof where, "%s/*/crashes/", c->o.out);
    gb_crash_summary_t sum = {.cmd = "campaign", .where = where,
                              .asan_bin = gb_crashes_asan_bin(c->o.triage_bin, c->o.cbin, asan,
                                                              sizeof asan),
                              .triage_dir = c->o.triage_bin ? report : NULL};
    gb_crashes_t *cr = malloc(sizeof *cr);
    if (!cr)
        return;
    gb_crashes_scan(c->o.out, NULL, cr);
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
    for (int i = 0; n >= 0 && i < c->jobs.n; i++) {
        char dir[PATH_MAX], path[PATH_MAX + 16];
        snprintf(dir, sizeof dir, "%s/%s", c->o.out, c->jobs.job[i].name);
        snprintf(path, sizeof path, "%s/fuzzer_stats", dir);
        gb_err_t e;
        if (access(path, F_OK) == 0 && /* libFuzzer's jobs write none */
            gb_stats_raise(dir, "crash_buckets", (uint64_t)n, &e) < 0)
            fprintf(stderr, "glassbox campaign: %s\n", e.msg);
    }
}

/* A usage error, said; parse's "stop" with status 2. */
static int usage(gb_exit_t *rc, const char *msg)
{
    *rc = gb_cli_error(GB_EXIT_USAGE, "campaign", "%s", msg);
    return 0;
}

/* Parses the command line into `o`: 1 to go on, else 0 with the exit
 * status in *rc (after --help, or a usage error already printed). */
static int parse(int argc, char **argv, camp_opts_t *o, gb_exit_t *rc)
{
    const gb_opt_t opts[] = {
        GB_OPTION_STR('i', "input", "DIR", NULL, NULL, &o->in,
                      "seed directory (required unless --resume; - = --resume); seeds of at "
                      "most " GB_OPT_MAX_INPUT
                      ", in subfolders too; others are skipped with a warning"),
        GB_OPTION_STR('o', "output", "DIR", NULL, NULL, &o->out, "sync directory (required)"),
        GB_OPTION_UINT(0, "afl", "N", NULL, 1, &o->afl,
                       "afl-fuzz instances: one -M, then -S (a lone one is -S)"),
        GB_OPTION_UINT(0, "libfuzzer", "N", NULL, 0, &o->lf, "libFuzzer jobs on LF_BIN"),
        GB_OPTION_UINT(0, "workers", "N", NULL, 1, &o->workers, "Glassbox workers"),
        GB_OPTION_UINT(0, "lend-after", "SECONDS", "GLASSBOX_LEND_AFTER", GB_LEND_IDLE_S,
                       &o->lend_s,
                       "a worker without a find for this long lends its core by turns to an "
                       "extra afl-fuzz -S lentN (docs/campaign.md, Core lending); 0 = never"),
        GB_OPTION_UINT('V', "time", "SECONDS", NULL, 0, &o->secs,
                       "stop everything after this long, 0 = never"),
        GB_OPTION_UINT_EX('t', "timeout", "MS", NULL, GB_RUN_TIMEOUT_MS, &o->tmo, GB_OPT_PLUS,
                          &o->tmo_plus,
                          "time limit per run, for afl-fuzz and the workers; MS+ goes to "
                          "afl-fuzz as it is (see afl-fuzz -h), the workers read it as MS and "
                          "always skip seeds that time out"),
        GB_OPTION_UINT_EX('m', "memory", "MB", NULL, GB_MEM_LIMIT_MB, &o->mem, GB_OPT_NONE_IS_0,
                          NULL,
                          "address-space limit per run of the workers, and of afl-fuzz when "
                          "given (else AFL++'s default, none); 0 or none = none"),
        GB_OPTION_UINT_EX(0, "z3-mem-max", "MB", "GLASSBOX_Z3_MEM_MAX", GB_Z3_MEM_MAX_MB, &o->zmax,
                          GB_OPT_NONE_IS_0, NULL,
                          "the workers' ceiling on Z3's memory (glassbox fuzz --help); a "
                          "worker that reaches it is started again with --resume"),
        GB_OPTION_STR(0, "afl-bin", "BIN", NULL, NULL, &o->aflbin,
                      "afl-fuzz's target, an afl-clang-fast build; without it NAME.afl beside "
                      "COV_BIN=NAME.cov, else COV_BIN"),
        GB_OPTION_STR(0, "cmplog-bin", "BIN", NULL, NULL, &o->cmplogbin,
                      "an AFL_LLVM_CMPLOG build, run by one afl-fuzz instance with -c 0; "
                      "without it NAME.cmplog beside NAME.cov, else no cmplog"),
        GB_OPTION_STR('x', "dict", "FILE", NULL, NULL, &o->dict,
                      "a dictionary for afl-fuzz (-x) and libFuzzer (-dict=)"),
        GB_OPTION_STR(0, "triage", "ASAN_BIN", NULL, NULL, &o->triage_bin,
                      "bucket every crash (AFL++'s, libFuzzer's, Glassbox's) into SYNC/triage/ "
                      "as it arrives, replayed on ASAN_BIN; the status shows distinct bugs"),
        GB_OPTION_FLAG(0, "exit-on-crash", &o->exit_on_crash,
                       "stop everything at the first new crash of any engine and exit with "
                       "status " GB_OPT_XSTR(GB_EXIT_CRASH_STATUS) " (libFuzzer's convention); "
                       "without it a campaign that found crashes exits 0"),
        GB_OPTION_FLAG(0, "resume", &o->resume, "continue the campaign in OUT"),
    };
    const gb_cmd_t cmd = {"campaign",
                          "-i SEEDS -o SYNC [options] -- TRACE_BIN COV_BIN [LF_BIN] [-- ARGS...]",
                          "Runs a whole campaign on one sync directory: afl-fuzz -M main (and -S\n"
                          "secondaryN; a lone instance is -S main) on AFL++'s own build\n"
                          "(--afl-bin, or NAME.afl beside NAME.cov as 'glassbox build' makes it;\n"
                          "else COV_BIN), one of them with cmplog (-c 0 on NAME.cmplog);\n"
                          "libFuzzer jobs on LF_BIN with value profiling, -t as -timeout=\n"
                          "(seconds, rounded up) and -x as -dict=, trading through\n"
                          "SYNC/libfuzzer and started again after each crash; and Glassbox\n"
                          "workers, with one combined status. A worker that finds nothing for\n"
                          "--lend-after seconds lends its core to an extra afl-fuzz -S lentN by\n"
                          "turns. Stops them all on Ctrl-C, after\n"
                          "-V or, with --exit-on-crash, at the first crash; then says how many\n"
                          "crashes each engine saved, where, and how to replay them. Logs:\n"
                          "SYNC/.logs/. Builds nothing.\n"
                          "ARGS after a second -- are the target's arguments for whole programs,\n"
                          "with @@ for the input file (as in AFL++); without them the input path\n"
                          "is the only argument.",
                          opts,
                          GB_N(opts),
                          NULL};
    gb_args_t a;
    gb_parsed_t parsed = gb_opts_args(&cmd, argc, argv, &a);
    if (parsed != GB_PARSED_OK) {
        *rc = gb_opts_exit(parsed);
        return 0;
    }
    o->mem_given = gb_opts_given(&o->mem);
    if (o->in && strcmp(o->in, "-") == 0) /* AFL++'s -i - */
        o->in = NULL, o->resume = 1;
    int nbins = a.nrest; /* binaries before a second "--", target arguments after it */
    for (int k = 0; k < a.nrest; k++)
        if (strcmp(a.rest[k], "--") == 0) {
            nbins = k;
            o->targs = a.rest + k + 1;
            o->ntargs = a.nrest - k - 1;
            break;
        }
    if ((!o->in && !o->resume) || !o->out || a.npos || nbins < 2 || nbins > 3)
        return usage(rc, "usage: glassbox campaign -i SEEDS -o SYNC [options] -- TRACE_BIN "
                         "COV_BIN [LF_BIN] [-- ARGS...] (see --help)");
    if (o->zmax > 1u << 20)
        return usage(rc, "--z3-mem-max must be at most 1048576 MB");
    if (o->lend_s > 86400)
        return usage(rc, "--lend-after must be at most a day (86400 s)");
    if (o->ntargs > MAX_TARGET_ARGS)
        return usage(rc, "at most " GB_OPT_XSTR(MAX_TARGET_ARGS)
                         " target arguments after the second --");
    o->tbin = a.rest[0];
    o->cbin = a.rest[1];
    o->lfbin = nbins > 2 ? a.rest[2] : NULL;
    return 1;
}

/* The note under the status when AFL++ runs without its own builds. */
static const char *afl_note(const camp_opts_t *o)
{
    if (o->afl && !o->aflbin)
        return "afl-fuzz runs on the Glassbox cov build, not its own: no edges, no cmplog, "
               "a fork per input ('glassbox build' makes NAME.afl and NAME.cmplog)";
    if (o->afl && !o->cmplogbin)
        return "afl-fuzz runs without cmplog (no NAME.cmplog beside NAME.cov, no --cmplog-bin)";
    return NULL;
}

/* Supervises the started jobs to the end and reports. */
static gb_exit_t run(camp_t *c, gb_live_t *live)
{
    gb_statview_t v;
    gb_status_init(&v, stderr);
    v.note = afl_note(&c->o);
    if (v.note)
        fprintf(stderr, "glassbox campaign: note: %s\n", v.note);
    lend_start(c);
    int failed = wait_loop(c, &v);
    gb_jobs_stop_all(&c->jobs, SIGINT, GB_JOB_STOP_GRACE_MS);
    lend_close(c);
    gb_live_stop(live); /* a last pass over the crashes of the last seconds */
    if (c->o.triage_bin)
        final_buckets(c, live->report);
    gb_jobs_kill_orphans();
    if (failed >= 0) { /* one line, as every fault (no summary: it would bury the reason) */
        char why[512];
        const char *name = c->jobs.job[failed].name;
        gb_jobs_last_line(&c->jobs, failed, why, sizeof why);
        return gb_cli_error(GB_EXIT_FAIL, "campaign", "%s stopped: %s (log: %s/.logs/%s.log)",
                            name, why, c->o.out, name);
    }
    gb_status_show_sync(&v, c->o.out, 1);
    if (c->w.crashed)
        fprintf(stderr, "glassbox campaign: stopped at a new crash (--exit-on-crash)\n");
    summarize(c, live->report);
    return c->w.crashed ? GB_EXIT_CRASH : GB_EXIT_OK;
}

gb_exit_t gb_cmd_campaign(int argc, char **argv)
{
    camp_t c = {0};
    c.lenddir = -1;
    gb_exit_t rc;
    if (!parse(argc, argv, &c.o, &rc))
        return rc;
    gb_err_t e;
    int checked = check_inputs(&c, &e);
    gb_seeds_free(c.s.seeds, c.s.n);
    if (checked != 0)
        return gb_cli_fail("campaign", e.msg);
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    gb_jobs_subreaper(NULL); /* see gb_jobs_kill_orphans; without it they go to init */
    c.start = time(NULL);
    c.w.crashes0 = c.o.exit_on_crash ? count_crashes(&c) : 0; /* --resume: only new ones count */
    gb_live_t live = {0};
    if (lend_open(&c, &e) != 0) {
        rc = gb_cli_error(GB_EXIT_FAIL, "campaign", "--lend-after: %s", e.msg);
    } else if (c.o.triage_bin && gb_live_start(&live, c.o.out, c.o.triage_bin, c.o.targs,
                                               (size_t)c.o.ntargs, GB_TRIAGE_TIMEOUT_MS, &e) != 0) {
        rc = gb_cli_error(GB_EXIT_FAIL, "campaign", "--triage: %s", e.msg);
    } else if ((c.o.workers && start_workers(&c) != 0) || (c.o.afl && start_afl(&c) != 0) ||
               (c.o.lf && start_libfuzzer(&c) != 0)) {
        gb_jobs_stop_all(&c.jobs, SIGINT, GB_JOB_START_FAILED_GRACE_MS);
        lend_close(&c);
        gb_live_stop(&live);
        gb_jobs_kill_orphans();
        rc = gb_cli_fail("campaign", "could not start every job (see OUT/.logs/)");
    } else {
        rc = run(&c, &live);
    }
    gb_jobs_close(&c.jobs);
    return rc;
}
