/* SPDX-License-Identifier: Apache-2.0 */
/* Supervised jobs (jobs.c): the long-running fuzzers of a campaign
 * (afl-fuzz, libFuzzer, Glassbox workers), each in its own process group
 * with its output in a log, reaped, started again after a pause when its
 * policy says so, stopped in order, and their orphans killed. Included at
 * the end of fuzz_bridge.h; callers include that. */
#ifndef GB_FB_JOBS_H
#define GB_FB_JOBS_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "gb_base.h"

/* A campaign runs at most this many jobs (the CLI's --afl + --libfuzzer +
 * --workers): a fixed table, so no job is ever moved or freed while its
 * index is held. */
#define GB_JOBS_MAX 64

/* When a job that ended by itself is started again. A run that ended
 * otherwise (status 0 included) is the caller's to judge. */
typedef struct gb_job_policy {
    int restart_exit;      /* this exit status means "start me again"; -1 = none */
    const char *log_tag;   /* a line holding it in what the last run logged means
                              "start me again" (e.g. libFuzzer's "Test unit written
                              to "); NULL = none. Borrowed. */
    const char *why;       /* for the log: "restart N of NAME after WHY". Borrowed. */
} gb_job_policy_t;

/* The pauses before restarts: 1 s, doubled at each restart that comes
 * within GB_LF_QUICK_CRASH_S of the run's start, at most
 * GB_LF_RESTART_MAX_S; a run that lasted longer starts over at 1 s. */
typedef struct gb_backoff {
    unsigned pause_s;   /* the last pause, 0 = none yet */
    unsigned restarts;  /* how many times the job was started again */
    time_t started;     /* when the job last started */
    time_t restart_at;  /* when to start it again, 0 = not pending */
} gb_backoff_t;

/* One job. `pid` is 0 once it was reaped (or never ran). */
typedef struct gb_job {
    char name[64];        /* log: LOGDIR/NAME.log */
    pid_t pid;
    off_t log_start;      /* the log's size when the last run started: what it wrote follows */
    gb_job_policy_t policy;
    gb_backoff_t back;
    int status;           /* the last run's waitpid status, -1 = unknown */
} gb_job_t;

/* The table. `tag` starts every line Glassbox writes into a log
 * ("glassbox campaign"). */
typedef struct gb_jobs {
    int logdir;       /* owned descriptor of the log directory */
    const char *tag;  /* borrowed */
    gb_job_t job[GB_JOBS_MAX];
    int n;
} gb_jobs_t;

/* How a run ended, as gb_jobs_reap returns it. */
typedef struct gb_job_end {
    int job;             /* index into the table */
    int status;          /* waitpid status; -1 when the process was gone (ECHILD) */
    time_t restart_at;   /* != 0: the policy starts it again then (gb_jobs_due) */
    char found[4096];    /* with a log_tag: the rest of the last line holding it */
} gb_job_end_t;

/* Opens (creating) the log directory ROOT/REL through gb_dir_open, so no
 * symlink below ROOT is followed: the logs live in a sync dir others write
 * to. 0, or -1 with `e`. */
int gb_jobs_open(gb_jobs_t *t, const char *root, const char *rel, const char *tag, gb_err_t *e);

/* Ends nothing: closes the log directory. */
void gb_jobs_close(gb_jobs_t *t);

/* Starts argv (argv[0] looked up in PATH) as a new job NAME at `now`, in
 * its own process group (a terminal's Ctrl-C reaches the caller only),
 * stdin /dev/null, stdout and stderr appended to its log after a line
 * naming the command. Returns the job's index, or -1 with `e`. */
int gb_jobs_spawn(gb_jobs_t *t, const char *name, const gb_job_policy_t *p, char *const *argv,
                  time_t now, gb_err_t *e);

/* Starts job J again with argv (a restart: the log says which one and
 * why). 0, or -1 with `e` (the job stays ended). */
int gb_jobs_respawn(gb_jobs_t *t, int j, char *const *argv, time_t now, gb_err_t *e);

/* Reaps one job that ended, without blocking: 1 with `end` filled (a
 * restart scheduled when the policy says so and `allow_restart`), 0 when
 * none has ended. */
int gb_jobs_reap(gb_jobs_t *t, int allow_restart, time_t now, gb_job_end_t *end);

/* The next job whose restart is due at `now` (its pending restart is
 * cleared: the caller respawns it or lets it stay ended), or -1. */
int gb_jobs_due(gb_jobs_t *t, time_t now);

/* Jobs running or waiting for a restart. */
int gb_jobs_active(const gb_jobs_t *t);

/* Schedules the next restart of `b` at `now` and returns its pause. */
unsigned gb_backoff_next(gb_backoff_t *b, time_t now);

/* Stops every job in table order: pending restarts are dropped, `sig`
 * (SIGINT: afl-fuzz and glassbox save and exit on it) goes to each
 * running job's process group, followed by SIGCONT (a job paused with
 * SIGSTOP takes it only once continued), then SIGKILL to the groups still running
 * after `grace_ms`. Returns how many needed SIGKILL. */
int gb_jobs_stop_all(gb_jobs_t *t, int sig, unsigned grace_ms);

/* Makes the caller the subreaper of its descendants (prctl): a process
 * whose parent dies is handed to it, not to init, so gb_jobs_kill_orphans
 * can find it. 0 or -1 with `e`. */
int gb_jobs_subreaper(gb_err_t *e);

/* Kills (SIGKILL, which ends a stopped process too) and reaps every child
 * of the caller, found through /proc: called once every job has ended,
 * each one left is an orphan of a job, e.g. AFL++ 4.04c's cmplog child,
 * stopped between persistent runs when afl-fuzz exits by its -V. Returns
 * how many. */
int gb_jobs_kill_orphans(void);

/* The last non-empty line without terminal escapes of job J's log into
 * `out` ("(nothing in its log)" when none): why it failed. */
void gb_jobs_last_line(const gb_jobs_t *t, int j, char *out, size_t cap);

#endif
