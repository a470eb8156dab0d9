/* SPDX-License-Identifier: Apache-2.0 */
/* triage/: the corpus and crash jobs users bring besides campaigns:
 * corpus minimisation (cmin), input minimisation (tmin), crash triage into
 * distinct bugs with replayable reports (triage), and replay. */
#ifndef GB_TRIAGE_H
#define GB_TRIAGE_H

#include <signal.h> /* sig_atomic_t */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_bridge.h"
#include "gb_base.h"

/* ==== Crash analysis (crash.c, sanrep.c, symbolize.c, elf.c) =========== */

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
    char type[128];      /* the bucket key's type, without sizes or addresses:
                            "heap-buffer-overflow READ", "SEGV on unknown address WRITE",
                            "abort", "UBSan signed-integer-overflow", "timeout", ... */
    char detail[160];    /* the type with what the key leaves out: "heap-buffer-overflow
                            READ 4 at 0x602000000018", "SEGV on unknown address (null
                            deref) WRITE at 0x10"; = type when there is nothing more */
    char state[600];     /* the crash state: the top frames' functions (3 by default,
                            gb_crash_target_t.state_frames), '\n'-separated */
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
    int detect_leaks;       /* 1: LeakSanitizer on (libFuzzer's leak-* inputs); 0 = off */
    int no_symbolizer;      /* 1: never start one (frames stay module+offset) */
    unsigned state_frames;  /* frames in a crash state; 0 = GB_CRASH_STATE_FRAMES (3) */
} gb_crash_target_t;

/* Runs inputs on one target: through the AFL++ forkserver when the binary
 * has one, else one fork/exec per run. Either way the sanitizers write
 * their reports to log files in work_dir (log_path), read after each run.
 * Frames are symbolized through one long-lived llvm-symbolizer with a
 * cache. The options each run gets: docs/triage.md. */
typedef struct gb_crash_runner gb_crash_runner_t;

/* For a forkserver binary it sets ASAN_OPTIONS / UBSAN_OPTIONS in this
 * process's environment around gb_fsrv_start (which reads them from
 * there) and restores them: do not create runners from several threads
 * at once (triage's --jobs uses processes). A missing llvm-symbolizer is
 * no error (see gb_crash_runner_info). */
int gb_crash_runner_new(const gb_crash_target_t *t, gb_crash_runner_t **out, gb_err_t *e);
void gb_crash_runner_free(gb_crash_runner_t *r); /* NULL is ok */

/* Runs `in` once and fills `c` (clear it with gb_crash_clear). -1 only
 * when the target could not be run at all. */
int gb_crash_probe(gb_crash_runner_t *r, const uint8_t *in, size_t len, gb_crash_t *c,
                   gb_err_t *e);
void gb_crash_clear(gb_crash_t *c);
/* 1 when both crashed with the same (type, state). */
int gb_crash_same(const gb_crash_t *a, const gb_crash_t *b);

/* What a runner found out about its target when it started. */
typedef struct gb_crash_runner_info {
    int forkserver;  /* 1: runs go through the AFL++ forkserver */
    int asan, ubsan; /* the binary carries AddressSanitizer / UBSan */
    int symbolizer;  /* 1: an llvm-symbolizer is running (0: frames stay module+offset) */
    unsigned state_frames;        /* frames in a crash state (gb_crash_target_t's, resolved) */
    const char *sanitizer_env[3]; /* "ASAN_OPTIONS=...", "UBSAN_OPTIONS=...", NULL:
                                     what each run gets (log_path aside) */
} gb_crash_runner_info_t;

/* Valid while the runner lives. */
void gb_crash_runner_info(const gb_crash_runner_t *r, gb_crash_runner_info_t *info);

/* The crash state of frames[0..n): the top `max` frames (0 =
 * GB_CRASH_STATE_FRAMES; at most GB_CRASH_STATE_FRAMES_MAX) left after
 * dropping sanitizer runtime, libc and fuzzing-driver frames
 * (docs/triage.md), '\n'-separated, into state (always NUL-ended). */
void gb_crash_state(const gb_frame_t *frames, size_t n, unsigned max, char *state, size_t cap);
/* The indices (into frames, idx has room for GB_CRASH_STATE_FRAMES_MAX)
 * of the state's frames, top first; how many (at most `max`, as above).
 * Frames below LLVMFuzzerTestOneInput are never in it: they are a
 * fuzzing driver's. */
size_t gb_crash_state_frames(const gb_frame_t *frames, size_t n, unsigned max, size_t *idx);
/* `max` as the two above read it: 0 is the default, more than
 * GB_CRASH_STATE_FRAMES_MAX is cut. */
unsigned gb_crash_state_max(unsigned max);
/* The state on one line, frames joined with " < " (innermost first). */
void gb_crash_state_line(const char *state, char *out, size_t cap);
/* 1 when the frame is dropped from the crash state (same rules). */
int gb_frame_ignored(const gb_frame_t *f);

/* ---- Sanitizer reports (sanrep.c) ---------------------------------------- */

/* What a sanitizer report says. Untrusted text: the parser reads at most
 * `len` bytes, needs no NUL, and never fails on garbage (found = 0). */
typedef struct gb_sanrep {
    int found;            /* 1: an ASan / UBSan / LSan / libFuzzer report header was seen */
    char sanitizer[32];   /* "AddressSanitizer", "UndefinedBehaviorSanitizer", ... */
    char type[128];       /* crash type as in gb_crash_t; "" when the report does not say
                             (libFuzzer's "deadly signal": the caller uses the signal) */
    char detail[160];     /* the type with the access size and address, as gb_crash_t's */
    int has_address;      /* the faulting address is known */
    uint64_t address;
    gb_frame_t *frames;   /* the first stack after the header, top first (malloc'd) */
    size_t nframes;
    int symbolized;       /* 1 when some frame came with a function name */
} gb_sanrep_t;

/* 0, or -1 only when out of memory. Free with gb_sanrep_clear. */
int gb_sanrep_parse(const char *text, size_t len, gb_sanrep_t *out, gb_err_t *e);
void gb_sanrep_clear(gb_sanrep_t *r);

/* ---- Symbolizer (symbolize.c) -------------------------------------------- */

/* One long-lived llvm-symbolizer coprocess with a cache of answers. */
typedef struct gb_symbolizer gb_symbolizer_t;

/* `path` NULL = llvm-symbolizer, then llvm-symbolizer-14, on PATH. -1 with a
 * message when none runs. */
int gb_symbolizer_new(const char *path, gb_symbolizer_t **out, gb_err_t *e);
void gb_symbolizer_free(gb_symbolizer_t *s); /* NULL is ok */

/* Replaces each frame that has a module but no function by what the
 * symbolizer says (one frame per inlined function, innermost first).
 * Frames it cannot resolve stay as they are. 0, or -1 when out of memory
 * (the frames are unchanged). A symbolizer that dies or hangs is dropped:
 * later calls change nothing. */
int gb_symbolize_frames(gb_symbolizer_t *s, gb_frame_t **frames, size_t *n, gb_err_t *e);

/* ---- Binaries (elf.c) ---------------------------------------------------- */

/* The GNU build id (NT_GNU_BUILD_ID) of an ELF file as lowercase hex into
 * out (at most 40 bytes of id: 81 chars). 1 found, 0 none, -1 unreadable. */
int gb_elf_build_id(const char *path, char out[81], gb_err_t *e);


/* ==== Input minimisation (tmin.c, tmin_try.c, tmin_pred.c, tmin_crash.c, tmin_solve.c) */

/* Whether a candidate keeps what is being preserved (a crash state, a
 * coverage): 1 yes, 0 no, -1 on a fatal error (set e; the minimisation
 * stops and fails). Must not keep `in` after returning. */
typedef int (*gb_tmin_pred_fn)(void *ctx, const uint8_t *in, size_t len, gb_err_t *e);

typedef struct gb_tmin_opts {
    gb_tmin_pred_fn pred; /* required */
    void *ctx;
    uint64_t max_runs; /* predicate calls before stopping with the best so far; 0 = none */
    /* Checked before each run: once it is non-zero (a SIGINT handler sets
     * it) the minimisation stops and returns the best so far, with
     * st->interrupted = 1. NULL = never. */
    const volatile sig_atomic_t *stop;
    /* The solver-assisted step (docs/tmin.md) runs first when trace_bin is
     * set: a glassbox-cc --mode=trace build of the same program. */
    const char *trace_bin;
    char *const *args; /* its arguments, "@@" = the input (as gb_trace_run) */
    size_t nargs;
    const char *work_dir;      /* scratch space for the trace step's input and trace; required
                                  with trace_bin */
    unsigned trace_timeout_ms; /* 0 = GB_TRACE_TIMEOUT_MS(GB_RUN_TIMEOUT_MS) */
    unsigned mem_limit_mb;     /* of the trace build; 0 = none */
} gb_tmin_opts_t;

/* What a minimisation did. */
typedef struct gb_tmin_stats {
    size_t len_in, len_out;
    uint64_t runs;            /* predicate calls */
    uint64_t repeats;         /* candidates not run: tried before (same bytes) */
    uint64_t rounds;          /* classic rounds (deletion + normalisation) until nothing changed */
    uint64_t traces;          /* trace-build runs of the solver step */
    uint64_t z3_queries;      /* solver queries of the solver step */
    uint64_t solver_runs;     /* predicate calls of the solver step (counted in runs too) */
    size_t len_after_solver;  /* length after the solver step (len_in without one) */
    size_t zero_after_solver; /* bytes equal to '0' or NUL after it */
    int solver_note;          /* 0, or why the solver step did nothing: GB_TMIN_NOTE_* */
    int interrupted;          /* 1: stopped by opts->stop before the end */
    uint64_t time_ms;
} gb_tmin_stats_t;

enum {
    GB_TMIN_NOTE_NOTRACE = 1, /* the trace build wrote no usable trace */
    GB_TMIN_NOTE_NOGAIN = 2,  /* no candidate of the step kept the property */
};

/* Shrinks `in` while opts->pred keeps returning 1. The result (*out,
 * *out_len; gb_free it) is the smallest kept candidate: never larger than
 * `in`, and `in` itself when nothing could be removed. The caller has
 * checked that pred holds on `in` (it is not asked again). Order: the
 * solver step (with trace_bin), then rounds of block deletion (sizes
 * len/16 down to 1) and normalisation to '0' (whole byte values, then
 * blocks, then single bytes) until a round changes nothing. -1 with e on a
 * fatal predicate error, out of memory, or a trace step that cannot run. */
int gb_tmin(const gb_tmin_opts_t *o, const uint8_t *in, size_t len, uint8_t **out, size_t *out_len,
            gb_tmin_stats_t *st, gb_err_t *e);

/* Coverage predicate: the same AFL++ hit-count-bucketed map as the
 * reference run, and the same way of ending (exit, crash signal). Runs
 * through `f` (not owned). gb_tmin_cov_new runs the reference input once:
 * -1 when it times out or the forkserver fails. */
typedef struct gb_tmin_cov gb_tmin_cov_t;
int gb_tmin_cov_new(gb_fsrv_t *f, const uint8_t *in, size_t len, gb_tmin_cov_t **out, gb_err_t *e);
void gb_tmin_cov_free(gb_tmin_cov_t *c); /* NULL is ok */
int gb_tmin_cov_pred(void *cov, const uint8_t *in, size_t len, gb_err_t *e);
/* The reference run (after gb_tmin_cov_new). */
const gb_run_result_t *gb_tmin_cov_ref(const gb_tmin_cov_t *c);

/* Crash predicate: the same (type, state) as the reference crash
 * (gb_crash_same), through `r` (not owned). gb_tmin_crash_new probes the
 * reference input: -1 with "does not crash" when it does not. */
typedef struct gb_tmin_crash gb_tmin_crash_t;
int gb_tmin_crash_new(gb_crash_runner_t *r, const uint8_t *in, size_t len, gb_tmin_crash_t **out,
                      gb_err_t *e);
/* The same predicate for a crash known already (a triage bucket's type
 * and state): nothing is run, and a flaky reproducer's minimisation still
 * aims at the bucket's crash. */
int gb_tmin_crash_keep(gb_crash_runner_t *r, const char *type, const char *state,
                       gb_tmin_crash_t **out, gb_err_t *e);
void gb_tmin_crash_free(gb_tmin_crash_t *c); /* NULL is ok */
int gb_tmin_crash_pred(void *crash, const uint8_t *in, size_t len, gb_err_t *e);
/* The reference crash (after gb_tmin_crash_new). */
const gb_crash_t *gb_tmin_crash_ref(const gb_tmin_crash_t *c);

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

/* ==== Triage reports (inputs.c, triage.c, report.c, sarif.c) =========== */

/* ---- Inputs (inputs.c) ----------------------------------------------------- */

/* One file found under the -i paths. */
typedef struct gb_triage_input {
    char *path;
    const char *engine; /* whose name it has: "afl" (id:...), "libfuzzer" (crash-...), "plain" */
    const char *skip;   /* NULL: an input; else why it is not one (static text) */
} gb_triage_input_t;

typedef struct gb_triage_inputs {
    gb_triage_input_t *v; /* sorted by path */
    size_t n, cap;
    char **missing;       /* -i paths that do not exist (or cannot be read) */
    size_t nmissing, capm;
    char **empty;         /* -i directories that held no input */
    size_t nempty, cape;
} gb_triage_inputs_t;

/* Gathers the inputs of each path: a file is an input; a directory's
 * files are, except dot files, README*, subdirectories, symbolic links
 * (never followed) and anything but regular files, which are listed with
 * a reason; a campaign instance dir (one with crashes/) stands for its
 * crashes/, a sync dir (subdirs with crashes/) for every SYNC/x/crashes.
 * A missing path is listed, not an error. -1 only when out of memory. */
int gb_triage_collect(const char *const *paths, size_t n, gb_triage_inputs_t *out, gb_err_t *e);
void gb_triage_inputs_free(gb_triage_inputs_t *in);

/* ---- Triage (triage.c, report.c, sarif.c) ---------------------------------- */

/* One input file that fell in a bucket. */
typedef struct gb_bucket_input {
    char *path;
    char sha1[41];
    size_t size;
    int flaky;          /* it did not crash this way in every run */
    uint64_t seen_ms;   /* when triage first ran it */
    char engine[16];    /* whose naming it had: "afl", "libfuzzer", "plain" */
    char detail[160];   /* its crash's gb_crash_t.detail (sizes, address) */
} gb_bucket_input_t;

/* A distinct bug: all crashes with one (type, state). */
typedef struct gb_bucket {
    char id[17];        /* 16 hex digits of a hash of type and state: stable */
    char type[128];
    char state[600];
    unsigned state_frames; /* the rule it was made by: frames in its state */
    char detail[160];      /* the reproducer's gb_crash_t.detail */
    gb_frame_t *frames; /* the reproducer's stack */
    size_t nframes;
    gb_run_result_t run; /* how the reproducer's run ended */
    char *report;       /* the sanitizer's text of that run, or NULL */
    uint64_t first_ms, last_ms;
    int flaky;          /* no input of it crashed this way in every run */
    gb_bucket_input_t *inputs;
    size_t ninputs, cap;
    size_t repro_size, min_size; /* sizes of input and input.min */
    char *repro_path;   /* where the reproducer came from */
    int repro_flaky;    /* the reproducer did not crash in every run */
    int new_repro;      /* repro_path is a new reproducer, to be written as input */
    int is_new, dirty;  /* created / changed by this run */
    size_t likely_bug;  /* its group of gb_triage_clusters, from 1 (gb_triage_group) */
} gb_bucket_t;

typedef struct gb_triage_opts {
    const char *report_dir;   /* REPORT, or where it is below (report_sub) */
    /* NULL, or REPORT's path below report_dir: each of its components is
     * opened without following a symlink (live triage's SYNC/triage,
     * which peers of the sync dir can write to). */
    const char *report_sub;
    gb_crash_target_t target; /* work_dir is ignored: REPORT/.work is used */
    unsigned jobs;            /* parallel runners; 0 = 1 */
    unsigned runs;            /* runs per input; 0 = GB_TRIAGE_RUNS */
    int no_minimise;          /* 1: input.min is a copy of input */
    /* Called in this process as inputs finish (done of total to run);
     * NULL = none. */
    void (*progress)(void *ctx, size_t done, size_t total);
    void *progress_ctx;
} gb_triage_opts_t;

/* An input that could not be triaged, or did not crash. */
typedef struct gb_triage_note {
    char *path;
    char *what; /* "no longer crashes", "skipped: symbolic link", an error message */
} gb_triage_note_t;

/* A bucket directory whose crash.json is missing, unreadable or damaged
 * (or that is a symlink): triage warns and rebuilds it. */
typedef struct gb_damaged {
    char id[17];
    char why[200];
    int retire; /* made by another bucket rule: moved to REPORT/.retired, rebuilt */
} gb_damaged_t;

typedef struct gb_triage_result {
    gb_bucket_t *buckets; /* every bucket of the report, earlier runs' too */
    size_t nbuckets, capb;
    size_t inputs;        /* inputs found by this run */
    size_t ran;           /* of them, new ones that were run */
    size_t duplicates;    /* already triaged (REPORT/.seen) or the same bytes twice */
    size_t crashed, flaky, no_crash, errors, skipped;
    size_t triaged, triaged_no_crash; /* REPORT/.seen after this run: every input triaged
                                         so far, and those that did not crash */
    gb_triage_note_t *notes; /* this run's no-crash, skipped, missing and failed inputs */
    size_t nnotes, capn;
    gb_crash_runner_info_t info;
    char warnings[16][256]; /* no sanitizer, no symbolizer, damage, ... */
    size_t nwarnings;
    gb_damaged_t *damaged; /* bucket dirs gb_report_load could not use */
    size_t ndamaged, capd;
    size_t likely_bugs; /* groups of the buckets (gb_triage_group) */
} gb_triage_result_t;

/* Runs every new input of `in` GB_TRIAGE_RUNS times, buckets the crashes
 * into REPORT (adding to the buckets an earlier run left there), and
 * writes each changed bucket's directory, REPORT/.seen, summary.json and
 * summary.sarif (docs/triage.md). -1 only for what stops the whole
 * triage (the target cannot run at all, REPORT cannot be written); a bad
 * input is a note. */
int gb_triage_run(const gb_triage_opts_t *o, const gb_triage_inputs_t *in, gb_triage_result_t *res,
                  gb_err_t *e);
void gb_triage_result_free(gb_triage_result_t *res);

/* `s` fit for a terminal: control bytes, DEL, bytes that are not valid
 * UTF-8 and the backslash itself written as \xNN and \\, so a name cannot
 * move the cursor or hide part of a line. Cut (never mid-escape) to fit
 * `cap`, always NUL-ended. */
void gb_triage_escape(const char *s, char *out, size_t cap);

/* The bucket id of (type, state). */
void gb_bucket_id(const char *type, const char *state, char id[17]);

/* ---- Likely bugs (cluster.c) ----------------------------------------------- */

/* Why two buckets are probably one bug, or NULL: the same type and top
 * state frame (stacks that differ only below it), or the same fault line
 * (the top state frame's file:line) reached by two call paths
 * (docs/triage.md, "Likely bugs"). */
const char *gb_triage_link(const gb_bucket_t *a, const gb_bucket_t *b);
/* Groups b[0..n) by those links (transitively): cluster[i] is bucket
 * i's group, numbered from 1 in the order of each group's first bucket.
 * Returns the number of groups, the likely bugs. */
size_t gb_triage_clusters(const gb_bucket_t *b, size_t n, size_t *cluster);
/* The same into res: each bucket's likely_bug and res->likely_bugs
 * (out of memory: every bucket its own group). */
void gb_triage_group(gb_triage_result_t *res);

/* ---- Report files (report.c, sarif.c) -------------------------------------- */

/* The report's fixed facts, written into every file. Files are written
 * by descriptor below dirfd, never through a symlink (docs/triage.md). */
typedef struct gb_report_ctx {
    const char *dir;      /* REPORT's path, for the text that names files */
    int dirfd;            /* REPORT, open */
    int tmpfd;            /* REPORT/.tmp, open: staging for atomic writes */
    const char *bin;      /* absolute path of the binary */
    char build_id[81];
    char *const *args;    /* the target's arguments, "@@" = the input */
    size_t nargs;
    unsigned timeout_ms;
    const gb_crash_runner_info_t *info;
} gb_report_ctx_t;

/* Writes REPORT/<id>/: input and input.min when `input` is not NULL (a
 * new reproducer and its minimised form), crash.json, report.txt and
 * repro.sh always. A REPORT/<id> that is a symlink or not a directory is
 * refused (-1, nothing written). */
int gb_report_bucket(const gb_report_ctx_t *c, const gb_bucket_t *b, const uint8_t *input,
                     size_t len, const uint8_t *min, size_t min_len, gb_err_t *e);
/* Reads the buckets an earlier run wrote (REPORT/<id>/crash.json) into
 * res; a bucket dir that cannot be used goes to res->damaged. */
int gb_report_load(const char *dir, gb_triage_result_t *res, gb_err_t *e);
/* The same from REPORT open as `rfd`. */
int gb_report_load_at(int rfd, gb_triage_result_t *res, gb_err_t *e);
/* REPORT/summary.json. */
int gb_report_summary(const gb_report_ctx_t *c, const gb_triage_result_t *res, gb_err_t *e);
/* REPORT/summary.sarif: SARIF 2.1.0, one result per bucket. */
int gb_report_sarif(const gb_report_ctx_t *c, const gb_triage_result_t *res, gb_err_t *e);

#endif
