/* SPDX-License-Identifier: Apache-2.0 */
/* triage/: the corpus and crash jobs users bring besides campaigns:
 * corpus minimisation (cmin), input minimisation (tmin), crash triage into
 * distinct bugs with replayable reports (triage), and replay. */
#ifndef GB_TRIAGE_H
#define GB_TRIAGE_H

#include <stddef.h>
#include <stdint.h>

#include "fuzz_bridge.h"
#include "gb_base.h"

/* ==== Crash analysis (crash.c, sanrep.c, symbolize.c) ================== */

/* One frame of a crash's stack. */
typedef struct gb_frame {
    char func[192];   /* symbolized function, "" when unknown */
    char file[256];   /* source file, "" when unknown */
    unsigned line;    /* 0 when unknown */
    char module[256]; /* binary or library the pc belongs to */
    uint64_t offset;  /* pc's offset in module */
} gb_frame_t;

/* What one run of an input on a (sanitizer) build showed. */
typedef struct gb_crash {
    gb_run_result_t run; /* how the process ended */
    int crashed;         /* 1: a sanitizer report, a crash signal or a timeout */
    char type[128];      /* "heap-buffer-overflow READ 4", "SEGV on unknown address",
                            "abort", "UBSan signed-integer-overflow", "timeout", ... */
    char state[600];     /* the crash state: the top 3 frames' functions, '\n'-separated */
    gb_frame_t *frames;  /* the whole stack, top first (malloc'd) */
    size_t nframes;
    char *report;        /* the sanitizer's text as printed (malloc'd, NUL-ended), or NULL */
} gb_crash_t;

/* How to run a target on inputs for crash analysis. */
typedef struct gb_crash_target {
    const char *bin;    /* the (ASan/UBSan) build */
    char *const *args;  /* its arguments, "@@" = the input (gb_argv_build) */
    size_t nargs;
    const char *work_dir;   /* scratch space for input files and sanitizer logs */
    unsigned timeout_ms;    /* 0 = GB_RUN_TIMEOUT_MS */
    unsigned mem_limit_mb;  /* 0 = none */
    const char *symbolizer; /* llvm-symbolizer to use; NULL = found on PATH, or none */
} gb_crash_target_t;

/* Runs inputs on one target: through the AFL++ forkserver when the binary
 * has one (sanitizer reports then go to log files in work_dir), else one
 * fork/exec per run with stderr captured. Frames are symbolized through
 * one long-lived llvm-symbolizer with a cache. */
typedef struct gb_crash_runner gb_crash_runner_t;

int gb_crash_runner_new(const gb_crash_target_t *t, gb_crash_runner_t **out, gb_err_t *e);
void gb_crash_runner_free(gb_crash_runner_t *r); /* NULL is ok */

/* Runs `in` once and fills `c` (clear it with gb_crash_clear). -1 only
 * when the target could not be run at all. */
int gb_crash_probe(gb_crash_runner_t *r, const uint8_t *in, size_t len, gb_crash_t *c,
                   gb_err_t *e);
void gb_crash_clear(gb_crash_t *c);
/* 1 when both crashed with the same (type, state). */
int gb_crash_same(const gb_crash_t *a, const gb_crash_t *b);

/* ==== Input minimisation (tmin.c) ====================================== */

/* ==== Corpus minimisation (cmin.c) ===================================== */

/* A coverage element is a (map index, hit-count bucket) pair, AFL's
 * buckets 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+ numbered 0..7; with
 * edges_only every hit is bucket 0. docs/cmin.md has the whole algorithm. */

/* What cmin saw, for the progress line and the summary. Counts are of
 * input files unless said otherwise. */
typedef struct gb_cmin_stats {
    size_t inputs;       /* regular files read from the input dirs */
    uint64_t in_bytes;   /* their total size */
    size_t skipped;      /* not taken: symlinks, special files, larger than GB_MAX_INPUT */
    size_t duplicates;   /* byte-identical to an earlier input (XXH3-128): not run */
    size_t to_run;       /* unique inputs: what the pass runs */
    size_t done;         /* runs finished so far (the progress line's counter) */
    size_t crashes;      /* unique inputs that crashed */
    size_t hangs;        /* unique inputs that hit the time limit */
    size_t elements;     /* distinct coverage elements of the inputs taken part */
    size_t kept;         /* files written to the output dir */
    uint64_t kept_bytes;
    size_t map_size;     /* the target's coverage map, in bytes */
    uint64_t run_ms;     /* time spent in the run pass */
    uint64_t total_ms;   /* wall time of the whole call */
    int verified;        /* 1 when --verify compared input and output and they matched */
    size_t out_elements; /* verify: distinct elements of the output dir's files */
    size_t missing;      /* verify: input elements the output lacks */
    size_t extra;        /* verify: output elements the input lacks */
} gb_cmin_stats_t;

/* Called about every GB_CMIN_PROGRESS_MS from the calling thread while
 * inputs are read and hashed (phase "read") and run ("run", or "verify"
 * for the output). */
typedef void (*gb_cmin_progress_fn)(const gb_cmin_stats_t *s, const char *phase, void *ctx);

typedef struct gb_cmin_opts {
    const char *const *in_dirs; /* input dirs: plain corpora, AFL++ queues, or a sync dir */
    size_t n_in;                /* (whose SYNC/<instance>/queue dirs are all taken) */
    const char *out_dir;        /* created if missing; must be empty unless verify_only */
    const char *bin;            /* any AFL++-instrumented binary */
    char *const *args;          /* its arguments: "@@" = the input's path, else stdin */
    size_t nargs;
    unsigned timeout_ms;        /* per run; 0 = GB_RUN_TIMEOUT_MS */
    unsigned mem_limit_mb;      /* 0 = none */
    unsigned jobs;              /* forkservers run side by side (threads); 0 = 1 */
    int keep_crashes;           /* crashing and hanging inputs take part like others */
    int edges_only;             /* one element per map index, hit counts ignored */
    int verify;                 /* re-run the written output and compare coverage */
    int verify_only;            /* compare in_dirs with the existing out_dir, write nothing */
    int no_affinity;            /* do not pin each worker and its target to one CPU */
    gb_cmin_progress_fn on_progress; /* or NULL */
    void *progress_ctx;
} gb_cmin_opts_t;

/* Minimises the input dirs into out_dir (or, with verify_only, checks an
 * earlier output). Returns 0 on success; -1 with `e` when it could not
 * run or when verification failed (then s->verified is 0 and missing /
 * extra say by how much). `s` is filled either way as far as it got. */
int gb_cmin_run(const gb_cmin_opts_t *o, gb_cmin_stats_t *s, gb_err_t *e);

/* Asks a running gb_cmin_run to stop soon ("interrupted"): nothing is left
 * in out_dir but the files already renamed into it (none before the write
 * step), and the scratch files are removed. Async-signal-safe. */
void gb_cmin_stop(void);

/* ==== Triage reports (report.c, sarif.c) =============================== */

#endif
