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

/* ==== Triage reports (report.c, sarif.c) =============================== */

#endif
