/* SPDX-License-Identifier: Apache-2.0 */
/* generational/: SAGE's generational search. Pops the best-scoring input,
 * traces it, flips each path-constraint entry from its bound on, runs every
 * child on the coverage build, scores it by new blocks and pushes it.
 * Uses symbolic/ (solving), fuzz-bridge/ (running) and corpus/ (storing). */
#ifndef GB_GENERATIONAL_H
#define GB_GENERATIONAL_H

#include <stddef.h>
#include <stdint.h>

#include "gb_base.h"
#include "gb_config.h"

/* Directed mode (`glassbox reach`, docs/reach.md): a source line to reach. */
typedef struct gb_reach_target {
    const char *file; /* matched against the debug info's paths by their tail */
    unsigned line;
    uint32_t block;   /* 0: the line's blocks; else 1 + the index of one block of the
                         cov build's CFG (gb_reach_asserts) */
} gb_reach_target_t;

/* The exit status of a search that ended at Z3's memory ceiling
 * (gb_search_opts_t.z3_mem_max_mb). */
#define GB_SEARCH_EXIT_MEMORY 3

typedef struct gb_search_opts {
    const char *trace_bin;      /* --mode=trace build */
    const char *cov_bin;        /* --mode=cov build */
    /* Arguments for both builds after the binary; "@@" in them becomes the
     * input file's path (for the trace build GLASSBOX_INPUT names it too).
     * None: the path is the only argument. The input is always stdin too. */
    char *const *target_args;
    size_t n_target_args;
    const char *out;            /* campaign root (-o) */
    const char *name;           /* instance name (-n), default "glassbox" */
    /* Defaults (taken for 0) are in base/gb_config.h. */
    unsigned timeout_ms;        /* per cov run (-t), default GB_RUN_TIMEOUT_MS */
    unsigned trace_timeout_ms;  /* per trace run, default GB_TRACE_TIMEOUT_MS(timeout_ms) */
    unsigned solver_timeout_ms; /* per Z3 query, default GB_SOLVER_TIMEOUT_MS */
    unsigned solver_budget_ms;  /* Z3 time per trace before only paying sites are
                                   solved (--solver-budget), default GB_SOLVER_BUDGET_MS */
    uint64_t max_seconds;       /* stop after this long (-V), 0 = until done */
    uint64_t max_execs;         /* stop after about this many cov runs (-E), 0 = until done */
    int optimistic;             /* relax UNSAT queries (QSYM), default on */
    /* Called after fuzzer_stats is rewritten (every status_every_ms, and
     * once more with final = 1 at the end) with the campaign directory:
     * status views render that file. NULL = none. */
    void (*on_status)(const char *campaign_dir, int final, void *ctx);
    void *status_ctx;
    /* Called once per kind of trouble worth a person's attention (the first
     * hang, a full disk, a trace that saw no block), with what to do. */
    void (*on_notice)(const char *msg, void *ctx);
    unsigned mem_limit_mb;      /* address-space limit for cov runs, 0 = none; trace
                                   runs get GB_TRACE_MEM_FACTOR times as much */
    /* Z3's memory ceiling (--z3-mem-max), 0 = none: a Z3 check that holds
     * more goes on past the interrupt it was sent (GB_Z3_QUERY_MAX_MB), and
     * only the process's end takes the memory back. The process then exits
     * at once with GB_SEARCH_EXIT_MEMORY and one line; what it saved is
     * whole, as after a kill -9, and --resume goes on without the input
     * it was expanding (the journal's open begin record). */
    unsigned z3_mem_max_mb;
    unsigned status_every_ms;   /* default GB_STATUS_EVERY_MS */
    /* An expansion part that ran this long stops when any input waits
     * (--slice-seconds); 0 = never. */
    unsigned slice_ms;
    /* A part of an input expanded again (a suspended expansion's rest, a
     * retry round's flips) that ran this long stops when an input waits
     * for its first expansion, and beside active peers a retry's timeouts
     * grow for one round only (--again-seconds); 0 = never. */
    unsigned again_ms;
    /* While this file exists the search waits between two steps (a flip,
     * an expansion), writing fuzzer_stats as it waits: a campaign lends
     * the worker's core to AFL++ (--pause-file). NULL = never. */
    const char *pause_file;
    /* Distinct bugs among the crashes so far (live triage, which the
     * caller runs), for fuzzer_stats' crash_buckets: a count, or -1 when
     * unknown. NULL = no live triage, no key. */
    long (*crash_buckets)(void *ctx);
    void *crash_buckets_ctx;
    const char *command_line;   /* for fuzzer_stats */
    int resume;                 /* continue the campaign in OUT/NAME (--resume) */
    const char *libfuzzer_dir;  /* a libFuzzer corpus dir to trade with, or NULL */
    int no_cfg;                 /* solve every flip, even those the static CFG shows
                                   cannot reach an uncovered block (--no-cfg) */
    int stop_on_crash;          /* stop once a new crash is saved (--exit-on-crash) */
    /* Directed mode when ntargets > 0: the worklist ordered by static
     * distance to the targets, flips that cannot reach one skipped, flips
     * past the unroll bound skipped, no back-off; the search stops when
     * every target is reached. Each target must have blocks
     * (gb_reach_lookup). */
    const gb_reach_target_t *targets;
    size_t ntargets;
    unsigned unroll;            /* K: no branch site more than K times on a path
                                   (default GB_REACH_UNROLL, at most GB_REACH_UNROLL_MAX) */
} gb_search_opts_t;

/* Counters, also written to fuzzer_stats. */
typedef struct gb_search_stats {
    uint64_t execs;        /* runs of the cov build */
    uint64_t traces;       /* runs of the trace build */
    uint64_t expanded;     /* inputs expanded */
    uint64_t children;     /* models turned into new inputs */
    uint64_t inserted;     /* of those, with a longer input's new bytes inserted, not appended */
    uint64_t tokens;       /* of those, repeating a token the run matched (tokens.c) */
    uint64_t duplicates;   /* models that gave an input already run */
    uint64_t divergent;    /* children whose path left the predicted prefix */
    uint64_t repaired;     /* optimistic children repaired by a further flip */
    uint64_t flips_backoff; /* flips skipped: their site kept producing nothing new */
    uint64_t flips_new_const; /* flips made past the back-off: an equality's first ask for
                                 that constant at that site (sites.c) */
    uint64_t flips_timed_out; /* flips Z3 or the budget did not decide: retried when dry */
    uint64_t flips_deferred;  /* flips not asked: their direction timed out GB_SITE_TIMEOUTS times
                                 (retried when dry) */
    uint64_t flips_skipped_cfg; /* flips skipped: the static CFG shows their new direction
                                   reaches no uncovered block */
    uint64_t imported;     /* new inputs read from peers' queues */
    uint64_t claimed_elsewhere; /* inputs another worker expands instead */
    uint64_t own_finds;    /* inputs this worker made (children) that covered a new block */
    uint64_t own_blocks;   /* the new blocks they covered */
    uint64_t own_last_find_ms; /* wall clock of the last of them; 0 = none */
    uint64_t crashes_seen; /* crashing runs, saved or not */
    uint64_t hangs_seen;
    uint32_t queue;        /* entries in queue/ */
    uint32_t crashes;      /* saved (distinct) crashes */
    uint32_t hangs;        /* saved (distinct) hangs */
    uint32_t blocks;       /* blocks covered by any run */
    size_t pending;        /* inputs waiting in the worklist */
    uint64_t first_crash_ms; /* since start; 0 = none yet */
    uint64_t last_crash_ms;  /* wall clock of the last saved crash; 0 = none */
    uint64_t last_hang_ms;   /* wall clock of the last saved hang; 0 = none */
    uint64_t execs_at_crash; /* execs when the last crash was saved */
    uint32_t slowest_exec_ms; /* the slowest run of the cov build that did not time out */
    uint64_t cycles;         /* times the worklist ran dry: every input expanded */
    uint64_t cycles_wo_finds; /* such cycles since the last new block */
    int64_t cur_item;        /* queue id of the input being expanded, -1 = none */
    uint32_t max_depth;      /* generations from a seed or import (1) to the deepest input */
    uint64_t progress;        /* traces that took a new branch direction or used input
                                 bytes further on than any before (docs/campaign.md) */
    uint64_t branch_dirs;     /* distinct (site, direction) pairs the traces took */
    uint64_t retry_rounds;    /* times backed-off flips were retried: the worklist ran dry, or */
    uint64_t retry_flat;      /* no block was new for a while (GB_STALL_RETRY_MS) */
    uint64_t suspended;       /* expansions stopped early (resumed later): for an input with
                                 new blocks, or after --slice-seconds */
    uint64_t sliced;          /* of those, stopped after --slice-seconds (any input waited) */
    uint64_t yielded;         /* of those, parts of inputs expanded again stopped after
                                 --again-seconds (a first expansion waited) */
    uint32_t expansion_ms_median; /* median wall time of the last GB_EXP_TIMES expansions
                                     (a suspended one counts each part); 0 = none yet */
    size_t retry_pending;     /* inputs with backed-off flips, waiting for the next round */
    uint64_t worklist_dropped; /* inputs dropped from a full worklist (GB_WORKLIST_MAX) */
    uint64_t worklist_bytes;   /* memory the waiting inputs hold (retry round's included) */
    uint64_t pauses;           /* times the search waited for its pause file to go */
    uint64_t paused_ms;        /* the time it waited */
    const char *state;         /* what the search is doing: "expanding", "retrying backed-off
                                  flips", "waiting for peers", "paused" or "done" */
} gb_search_stats_t;

typedef struct gb_search gb_search_t;

/* Checks both binaries (executable, carrying the right Glassbox runtime
 * marker), opens the campaign directory and starts the forkserver. With
 * opts->resume, reloads the campaign: coverage, the unexpanded inputs and
 * the counters come back. */
int gb_search_new(const gb_search_opts_t *opts, gb_search_t **out, gb_err_t *e);

/* Runs a seed on the cov build, stores it in queue/ and puts it on the
 * worklist with bound 0. A seed that crashes is kept in crashes/ and still
 * expanded. Duplicate seeds are skipped. */
int gb_search_add_seed(gb_search_t *s, const uint8_t *data, size_t len, const char *name,
                       gb_err_t *e);

/* The search loop: until the worklist is empty, max_seconds pass, max_execs
 * runs were made (checked between runs: a run in flight finishes), or
 * gb_search_stop is called. Returns -1 only on a fatal error (the campaign
 * directory stopped being writable, the target stopped running). */
int gb_search_run(gb_search_t *s, gb_err_t *e);

/* Async-signal-safe: asks the loop to stop after the current step. */
void gb_search_stop(gb_search_t *s);

void gb_search_get_stats(const gb_search_t *s, gb_search_stats_t *st);

/* ---- directed mode -------------------------------------------------- */

/* Where a target's line stands in the CFG of `bin` (the cov build). */
typedef struct gb_reach_where {
    size_t blocks;          /* blocks with code from the line */
    size_t files;           /* recorded source files the FILE matches */
    size_t line_modules;    /* modules built with source lines (-g) */
    uint32_t before, after; /* the nearest lines of those files with blocks (0: none) */
    int has_cfg;            /* the binary carries a .gb_cfg section */
} gb_reach_where_t;

/* Looks a target up: 0 with *w filled, -1 with e (unreadable binary,
 * malformed section). */
int gb_reach_lookup(const char *bin, const gb_reach_target_t *t, gb_reach_where_t *w,
                    gb_err_t *e);

/* --target asserts: every block of `bin`'s CFG that calls __assert_fail
 * (a failing assert) or traps (__builtin_trap), as a target of that block
 * alone, named by its first source line (file "?" and line 0 without
 * one). *out and its file names are gb_malloc'd: gb_reach_targets_free.
 * 0 (possibly with *n = 0), or -1 with e. */
int gb_reach_asserts(const char *bin, gb_reach_target_t **out, size_t *n, gb_err_t *e);
void gb_reach_targets_free(gb_reach_target_t *t, size_t n);

typedef enum gb_reach_verdict {
    GB_REACH_UNKNOWN = 0,     /* neither reached nor proved out of reach */
    GB_REACH_REACHED = 1,     /* a run executed one of the line's blocks */
    GB_REACH_UNREACHABLE = 2, /* proved out of reach within the bound (gb_reach_proof_t) */
    GB_REACH_NO_CFG_PATH = 3, /* no CFG path leads there from the entry points */
} gb_reach_verdict_t;

typedef struct gb_reach_result {
    gb_reach_verdict_t verdict;
    size_t nblocks;         /* blocks of the line */
    int shared_id;          /* another block shares a target block's id: a hit may be its */
    int folded;             /* NO_CFG_PATH because only branches on constants (or nothing)
                               lead into its blocks (docs/cfg-format.md, UNREACHED) */
    const uint8_t *input;   /* REACHED: the input that first reached it (owned by the search) */
    size_t input_len;
    int crashed;            /* REACHED: that input crashed the cov build */
    uint64_t ms, execs;     /* REACHED: when, since the start */
    uint32_t dist;          /* the least static distance to the target any run had
                               (UINT32_MAX: none came near) */
} gb_reach_result_t;

/* What the search proved (docs/reach.md): with `complete`, no input of at
 * most `max_len` bytes whose run evaluates every input-dependent branch
 * site at most `unroll` times reaches an unreached target. */
typedef struct gb_reach_proof {
    int complete;
    const char *why_not;    /* when not complete: the first reason */
    unsigned unroll;
    uint64_t max_len;
    uint64_t paths;         /* traces expanded (distinct paths of the tree) */
    uint64_t refuted;       /* flips whose prefix is infeasible (exact UNSAT, constant condition) */
    uint64_t cfg_pruned;    /* flips whose new direction cannot reach a target in the CFG */
    uint64_t bound_pruned;  /* flips whose prefix evaluates a site more than unroll times */
    uint64_t children;      /* flips answered with an input that followed the prefix */
    uint64_t holes;         /* flips or traces the argument cannot use */
    size_t pending;         /* inputs not yet expanded */
    int bound_cut;          /* a flip was pruned by the bound, or a trace dropped entries
                               (back-off): the claim needs the bound */
} gb_reach_proof_t;

/* Target i's result (after gb_search_run); the proof. */
void gb_search_get_reach(const gb_search_t *s, size_t i, gb_reach_result_t *r);
void gb_search_get_proof(const gb_search_t *s, gb_reach_proof_t *p);

/* Writes final stats and frees everything. NULL is ok. */
void gb_search_free(gb_search_t *s);

#endif
