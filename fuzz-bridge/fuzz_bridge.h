/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-bridge/: runs targets. An AFL++ forkserver client (4.04c handshake
 * and the newer magic handshake) with the SysV shared-memory map, timeouts
 * and kill; plain fork/exec runs with a timeout (for trace builds); and a
 * check that a binary carries a Glassbox runtime marker. */
#ifndef GB_FUZZ_BRIDGE_H
#define GB_FUZZ_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#include "gb_base.h"

/* Markers embedded in instrumented binaries by glassbox-cc's runtimes. */
#define GB_MARKER_TRACE "GLASSBOX_TRACE_RUNTIME_V1"
#define GB_MARKER_COV "GLASSBOX_COV_RUNTIME_V1"

typedef enum gb_run_status {
    GB_RUN_OK = 0,      /* exited (any status) */
    GB_RUN_CRASH = 1,   /* killed by a signal other than our timeout kill */
    GB_RUN_TIMEOUT = 2, /* exceeded the time limit and was killed */
    GB_RUN_ERROR = 3,   /* could not run (fork failed, forkserver died) */
} gb_run_status_t;

typedef struct gb_run_result {
    gb_run_status_t status;
    int exit_code; /* when status == GB_RUN_OK */
    int signal;    /* when status == GB_RUN_CRASH (or the kill signal on timeout) */
    uint64_t time_us;
} gb_run_result_t;

/* ---- Forkserver ------------------------------------------------------ */

typedef struct gb_fsrv gb_fsrv_t;

typedef struct gb_fsrv_opts {
    char *const *argv;      /* target argv (argv[0] = path), NULL-terminated */
    const char *input_path; /* each input goes here (argv names it, also stdin), unless
                               the target takes shared-memory input */
    unsigned timeout_ms;    /* per run; 0 = GB_RUN_TIMEOUT_MS */
    unsigned mem_limit_mb;  /* RLIMIT_AS for the target; 0 = none */
    int show_output;        /* 0: target stdout/stderr go to /dev/null */
} gb_fsrv_opts_t;

/* Starts the target under the forkserver protocol with a fresh shm map.
 * Fails with a clear message if the target does not start, exits before the
 * handshake ("not instrumented for AFL++" when no hello arrives), or sends an
 * error hello. */
int gb_fsrv_start(const gb_fsrv_opts_t *opts, gb_fsrv_t **out, gb_err_t *e);

/* Clears the map, writes `input` to input_path, or to the shared-memory
 * input when the target accepted it (then at most 1 MiB, AFL++'s MAX_FILE,
 * is passed, as afl-fuzz does), runs once, classifies. */
int gb_fsrv_run(gb_fsrv_t *f, const uint8_t *input, size_t len, gb_run_result_t *r,
                gb_err_t *e);

/* The coverage map of the last run (size gb_fsrv_map_size bytes). */
const uint8_t *gb_fsrv_map(const gb_fsrv_t *f);
size_t gb_fsrv_map_size(const gb_fsrv_t *f);

/* Kills the forkserver and its child, removes the shm segment, and, when
 * it was the process's last forkserver, kills what the targets left
 * running (gb_targets_reap). NULL is ok. */
void gb_fsrv_stop(gb_fsrv_t *f);

/* Kills (SIGKILL) every process that carries this process's target mark
 * in its environment: what a target of gb_fsrv or gb_exec_run started and
 * left behind, even out of its process group (setsid) or reparented; a
 * process that clears its whole environment escapes. Those handed to us
 * (we are the targets' subreaper) are reaped. Returns how many. */
int gb_targets_reap(void);

/* ---- Plain execution ------------------------------------------------- */

typedef struct gb_exec_opts {
    char *const *argv;      /* argv[0] = path */
    char *const *env_extra; /* "K=V" strings added to the environment, NULL-terminated, or NULL */
    unsigned timeout_ms;    /* 0 = none */
    unsigned mem_limit_mb;  /* 0 = none */
    int show_output;        /* 0: stdout/stderr to /dev/null */
    const char *stdin_path; /* the program's stdin; NULL = /dev/null */
    int fixed_layout;       /* 1: run without address-space randomisation (ASLR), where the
                               kernel allows it, so that the addresses a run sees are the
                               same every time it is run */
} gb_exec_opts_t;

/* fork/exec, wait with timeout (SIGKILL on expiry), classify. Returns -1
 * only when the program could not be started at all. */
int gb_exec_run(const gb_exec_opts_t *opts, gb_run_result_t *r, gb_err_t *e);

/* The argv of a run on `input`: {bin, args...} with the first "@@" in each
 * arg replaced by the input's path (AFL++'s convention; an arg without
 * "@@" is passed as is), or {bin, input} when nargs is 0. NULL-terminated;
 * NULL when out of memory. Free with gb_argv_free (NULL is ok). */
char **gb_argv_build(const char *bin, char *const *args, size_t nargs, const char *input);
void gb_argv_free(char **argv);

/* ---- Trace runs ------------------------------------------------------ */

typedef struct gb_trace_run_opts {
    const char *bin;        /* a glassbox-cc --mode=trace build */
    char *const *args;      /* its arguments ("@@" = the input), as for gb_argv_build */
    size_t nargs;
    const char *input;      /* the input file: @@, stdin and GLASSBOX_INPUT */
    const char *trace_out;  /* the trace file: absent or a regular file (else refused) */
    int user_named;         /* trace_out is the user's (-o): a symlink there is refused;
                               0: a file of Glassbox's own, a symlink planted there is
                               removed (the link only) */
    unsigned timeout_ms;    /* 0 = none */
    unsigned mem_limit_mb;  /* 0 = none */
    int show_output;        /* 0: stdout/stderr to /dev/null */
} gb_trace_run_opts_t;

/* Runs the trace build once on the input. The target writes its trace to
 * a fresh private name (GLASSBOX_TRACE_OUT) in trace_out's directory, which
 * is then renamed onto trace_out; a run that writes no trace leaves no file
 * at trace_out (an old one there is removed, so it cannot pass for this
 * run's). A trace_out that is a FIFO, device, directory or the input (or
 * a symlink, when user_named) is refused before the run and left alone.
 * Returns 0 with how it ended in `r` (whether a trace was written is for
 * the caller to check), -1 when it could not be started. */
int gb_trace_run(const gb_trace_run_opts_t *o, gb_run_result_t *r, gb_err_t *e);

/* ---- Peers ----------------------------------------------------------- */

/* The other instances of a sync directory (AFL++, libFuzzer, Glassbox
 * workers) and a libFuzzer corpus directory, seen from one instance: new
 * inputs come in through a callback, what the instance keeps goes out.
 * Everything read is untrusted: a symlink is never followed, only regular
 * files are read, each at most max_input bytes. */
typedef struct gb_peers gb_peers_t;

typedef struct gb_peers_opts {
    const char *sync_dir;      /* -o: every other SYNC/<peer>/queue is read */
    const char *name;          /* this instance (its own dir is skipped) */
    const char *state_dir;     /* SYNC/NAME: read cursors live in its .synced/ */
    const char *tmp_dir;       /* staging dir on the same file system */
    const char *libfuzzer_dir; /* a libFuzzer corpus to trade with, or NULL */
    size_t max_input;          /* 0 = GB_MAX_INPUT */
    /* Told, once each, of an entry skipped for its name (a peer dir or a
     * libFuzzer file whose name holds a line break or a control byte, which
     * no queue file name may carry); NULL = skipped silently. */
    void (*warn)(void *ctx, const char *msg);
    void *warn_ctx;
} gb_peers_opts_t;

/* What the callback did with an input. FATAL is -1 so that a failing
 * gb_err_set(e, ...) can be returned as it is. */
typedef enum gb_take {
    GB_TAKE_FATAL = -1, /* a fatal error (in `e`): the sync stops and fails */
    GB_TAKE_OK = 0,     /* taken: the cursor moves past it */
    GB_TAKE_LATER = 1,  /* not taken: the sync stops before it; it is offered again next time */
} gb_take_t;

/* Takes one new input ("here are new inputs"). The data belong to the
 * caller of the callback. */
typedef gb_take_t (*gb_peer_input_fn)(void *ctx, const uint8_t *data, size_t len, const char *desc,
                                      gb_err_t *e);

/* Creates the libFuzzer dir if given. Nothing is read yet. */
int gb_peers_new(const gb_peers_opts_t *o, gb_peers_t **out, gb_err_t *e);
void gb_peers_free(gb_peers_t *p); /* NULL is ok */

/* Offers every input that appeared since the last sync, peer by peer in id
 * order, then the libFuzzer corpus; cursors are saved as they advance. */
int gb_peers_sync(gb_peers_t *p, gb_peer_input_fn fn, void *ctx, gb_err_t *e);

/* "Here is what I kept": writes it into the libFuzzer corpus (AFL++ peers
 * read the instance's queue/ themselves). On failure -1 with errno kept. */
int gb_peers_kept(gb_peers_t *p, const uint8_t *data, size_t len, gb_err_t *e);

/* 1 once a peer instance was seen or a libFuzzer corpus is traded with:
 * inputs may still arrive when the instance has nothing left to do. */
int gb_peers_active(const gb_peers_t *p);

/* Claims an input for expansion among the Glassbox workers of the sync dir
 * (SYNC/.glassbox-claims/<hash>, O_EXCL): 1 if ours (new, or ours from
 * before a resume), 0 if another worker's, -1 on error. */
int gb_peers_claim(gb_peers_t *p, const uint8_t *data, size_t len, gb_err_t *e);

/* ---- Binary checks --------------------------------------------------- */

/* 0 if `path` is an executable regular file; -1 with a message naming the
 * problem (missing, not a regular file, not executable). */
int gb_check_executable(const char *path, gb_err_t *e);

/* 1 if the file contains the byte string `marker`, 0 if not, -1 on error. */
int gb_binary_has_marker(const char *path, const char *marker, gb_err_t *e);

/* ---- Supervised jobs: a campaign's fuzzers (jobs.h) ------------------- */

#include "jobs.h"

/* ---- Core lending between a worker and an extra afl-fuzz (lend.h) ----- */

#include "lend.h"

#endif
