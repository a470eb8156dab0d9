/* SPDX-License-Identifier: Apache-2.0 */
/* symbolic/: loads .gbt traces into a hash-consed expression DAG, slices
 * the query for flipping one path-constraint entry, and solves it with Z3.
 * Knows nothing of processes. Every function returns 0 / -1 with gb_err_t,
 * except where noted; nothing here exits or prints (gb_trace_print_smt2
 * writes only to the FILE it is given). */
#ifndef GB_SYMBOLIC_H
#define GB_SYMBOLIC_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "gb_base.h"
#include "gb_config.h" /* GB_SOLVER_TIMEOUT_MS, GB_SOLVER_BUDGET_MS */
#include "gbt.h"       /* the kinds of path-constraint entries and of END records */

/* ---- Traces ---------------------------------------------------------- */

typedef struct gb_trace gb_trace_t;

/* Load flags. By default a truncated file (a block or header cut short) is an
 * error. With GB_TRACE_PREFIX_OK the whole blocks before the cut are kept
 * (the fuzzer uses this for runs that were killed). A file with whole blocks
 * but no END record is always accepted and reported as incomplete. */
enum { GB_TRACE_PREFIX_OK = 1u };

int gb_trace_load(const char *path, unsigned flags, gb_trace_t **out, gb_err_t *e);
int gb_trace_load_mem(const uint8_t *data, size_t len, unsigned flags, gb_trace_t **out,
                      gb_err_t *e);
void gb_trace_free(gb_trace_t *t);

typedef struct gb_trace_info {
    uint64_t input_len;  /* from the header */
    uint64_t input_hash; /* XXH3-64 of the input, from the header */
    int complete;        /* 1 if an END record was read */
    int truncated;       /* 1 if GB_TRACE_PREFIX_OK dropped a cut-off tail */
    int end_kind;        /* enum gbt_end_kind, or -1 when incomplete */
    int end_code;        /* exit status or signal number */
    uint64_t dropped;    /* constraints the tracer pruned (END record) */
    size_t nodes;        /* expression nodes after hash-consing */
    size_t pcs;          /* path-constraint entries, pins included */
    size_t blocks;       /* distinct visited blocks */
    uint64_t read_end;   /* 1 + the highest input offset an expression uses; 0 = none
                            (how far into the input the run's symbolic data went) */
} gb_trace_info_t;

void gb_trace_get_info(const gb_trace_t *t, gb_trace_info_t *info);

typedef struct gb_pc_info {
    enum gbt_pc_kind kind;
    unsigned taken; /* 0 or 1 */
    uint32_t site;
} gb_pc_info_t;

/* Entry i (0 <= i < info.pcs) of the path constraint, in execution order. */
void gb_trace_get_pc(const gb_trace_t *t, size_t i, gb_pc_info_t *pc);

/* Visited block ids, in first-visit order; *n receives the count. */
const uint32_t *gb_trace_blocks(const gb_trace_t *t, size_t *n);

/* Prints the path constraint as an SMT-LIB2 script: one (declare-const bN
 * (_ BitVec 8)) per input byte used, one commented (assert ...) per entry
 * stating what held on this run (";; pc 3 branch site 0x... taken"), pins
 * marked as pins, then (check-sat). Returns 0 or -1 on a write error. */
int gb_trace_print_smt2(const gb_trace_t *t, FILE *out, gb_err_t *e);

/* ---- Solving --------------------------------------------------------- */

typedef struct gb_solver gb_solver_t;

/* Pipeline stages a query may be answered by, cheapest first. Each can be
 * switched off (gb_solver_opts_t.disable); all off is "plain" mode. */
enum {
    GB_SOLVER_NO_CLAUSES = 1u,   /* learned conflict clauses (CDSE) */
    GB_SOLVER_NO_INTERVALS = 2u, /* multi-interval prefilter (PARTI) */
    GB_SOLVER_NO_CACHE = 4u,     /* answers of earlier identical queries */
    GB_SOLVER_NO_ADAPT = 8u,     /* adaptive timeouts and the per-trace budget */
    GB_SOLVER_NO_STORED = 16u,   /* stored values (checksum fields) solved after the query */
    GB_SOLVER_NO_NARROW = 32u,   /* arithmetic that fits in fewer bits sent to Z3 narrowed */
    GB_SOLVER_PLAIN = 63u,       /* slicing + Z3 only */
};

typedef struct gb_solver_opts {
    unsigned timeout_ms; /* per Z3 call; 0 = GB_SOLVER_TIMEOUT_MS */
    int optimistic;      /* 1 = pins are soft: drop those in the unsat core; then ¬PC[j] alone
                            (after an UNSAT or a timeout) */
    unsigned disable;    /* GB_SOLVER_NO_* bits; 0 = every stage on */
    unsigned budget_ms;  /* Z3 time per trace before only paying sites are solved;
                            0 = GB_SOLVER_BUDGET_MS */
} gb_solver_opts_t;

typedef enum gb_qstatus {
    GB_Q_SAT = 0,
    GB_Q_UNSAT = 1,
    GB_Q_TIMEOUT = 2, /* Z3 said unknown (timeout or resource limit), or the budget ran out */
    GB_Q_SKIP = 3,    /* entry j is a pin, or nothing to flip */
} gb_qstatus_t;

/* Which stage gave a flip its final answer. */
typedef enum gb_stage {
    GB_STAGE_NONE = 0,     /* skipped (a pin) */
    GB_STAGE_SLICE = 1,    /* the condition depends on no input byte */
    GB_STAGE_CLAUSE = 2,   /* refuted by a learned clause */
    GB_STAGE_INTERVAL = 3, /* refuted or solved by the interval prefilter */
    GB_STAGE_CACHE = 4,    /* the answer of an earlier identical query */
    GB_STAGE_Z3 = 5,
    GB_STAGE_BUDGET = 6,   /* not solved: the trace's budget ran out */
    GB_STAGE_RELAXED = 7,  /* not asked: ¬PC[j] alone goes first at this site (and then
                              did not answer) */
} gb_stage_t;

/* A model: the input bytes it assigns (offsets ascending, each once).
 * Bytes the query does not mention are absent: Combine keeps the parent's. */
typedef struct gb_model {
    size_t n;
    uint64_t *offsets;
    uint8_t *values;
} gb_model_t;

/* The input length a model asks for: the parent's, with the bytes of the
 * length variable (docs/trace-format.md, "Input length") that the model
 * assigns written over it, at most max_len. */
size_t gb_model_length(const gb_model_t *m, size_t parent_len, size_t max_len);

/* Combine: a new buffer (*len bytes, gb_free it) holding the parent with
 * the model's bytes written over it, cut or zero-extended to the length
 * the model asks for. NULL when out of memory. */
uint8_t *gb_model_apply(const uint8_t *parent, size_t parent_len, const gb_model_t *m,
                        size_t max_len, size_t *len);

/* Combine for a model that makes the input longer, with the new bytes
 * inserted at offset `at` (at most parent_len) instead of appended: the
 * parent's bytes from `at` on, and the model's bytes for them, move up by
 * the growth; the model's bytes past the parent's end land in the gap. As
 * gb_model_apply when the model does not make the input longer. */
uint8_t *gb_model_apply_at(const uint8_t *parent, size_t parent_len, const gb_model_t *m,
                           size_t at, size_t max_len, size_t *len);

/* Where gb_model_apply_at puts the model's byte for parent offset `off`
 * when the input grows by `grow` bytes inserted at `at`. */
static inline uint64_t gb_model_place(uint64_t off, size_t parent_len, size_t at, size_t grow)
{
    return off < at ? off : off < parent_len ? off + grow : at + (off - parent_len);
}

typedef struct gb_flip {
    gb_qstatus_t status;
    int optimistic;     /* 1 when the model solves a relaxed query */
    size_t slice_size;  /* prefix constraints kept by slicing (pins included) */
    gb_model_t model;   /* valid when status == GB_Q_SAT; owned by gb_flip_t */
    gb_stage_t stage;   /* what answered the last query this flip asked */
    unsigned z3_calls;  /* queries this flip sent to Z3 (0: answered without it) */
} gb_flip_t;

/* Counters since gb_solver_new, for fuzzer_stats (docs/campaign.md). One
 * flip asks one query, and a second one (¬PC[j] alone) when optimistic
 * solving retries; each query is answered by exactly one stage. */
typedef struct gb_solver_stats {
    uint64_t queries_total;   /* gb_solver_flip calls on a flip-able entry */
    uint64_t queries_sat;     /* flips answered SAT (exact or optimistic) */
    uint64_t queries_unsat;   /* flips with no model at all */
    uint64_t queries_timeout; /* flips Z3 could not decide in time (or over budget) */
    uint64_t queries_optimistic; /* SAT only after relaxing the query */
    uint64_t cut_slice_empty;  /* flips whose condition reads no input byte */
    uint64_t cut_clause;       /* queries refuted by a learned clause */
    uint64_t cut_interval_unsat; /* queries refuted by the interval prefilter */
    uint64_t sat_interval;     /* queries solved by the interval prefilter */
    uint64_t ival_enumerated;  /* of the interval stage's answers, by trying every value
                                  of a query's one or two bytes */
    uint64_t ival_swept;       /* ... and models found by trying each byte's values alone */
    uint64_t cache_hit;        /* queries answered from the cache */
    uint64_t queries_z3;       /* queries sent to Z3 */
    uint64_t z3_checks;        /* Z3 check calls (a query that drops pins makes several) */
    uint64_t z3_sat, z3_unsat, z3_timeout; /* their answers */
    uint64_t z3_blasted;                   /* of those, answered by bit-blasting (qfbv) */
    uint64_t z3_varmul;        /* queries to Z3 kept from bit-blasting: they multiply or divide
                                  two input-dependent values (symbolic/README.md) */
    uint64_t budget_skip;      /* queries not sent: the trace's budget ran out */
    uint64_t relax_skip;       /* whole queries not sent: ¬PC[j] alone went first, as at
                                  that site Z3 refuted the whole query in a row before */
    uint64_t stored_dropped;   /* stored-value conjuncts left out of queries (docs/clauses.md) */
    uint64_t stored_fixed;     /* of which a SAT answer's child had set from the other side */
    uint64_t clauses_learned;  /* clauses learned here (not loaded) */
    uint64_t clauses_loaded;   /* clauses read from files */
    uint64_t solver_time_ms;   /* wall time in gb_solver_flip, all stages */
    uint64_t z3_time_ms;       /* of which inside Z3 */
    uint64_t nodes_narrowed;   /* terms given to Z3 narrowed (docs/clauses.md, "Narrowing") */
    uint64_t answers_bytes;    /* memory the answer cache holds (arrays at capacity) */
    uint64_t clauses_bytes;    /* memory the learned clauses hold */
    uint64_t z3_bytes;         /* memory Z3 holds (its estimate, the whole process) */
    uint64_t z3_renewals;      /* Z3 contexts made anew (GB_Z3_GROWTH_MAX_MB) */
    uint64_t z3_memouts;       /* Z3 checks stopped for memory (GB_Z3_QUERY_MAX_MB) */
    uint64_t z3_overruns;      /* Z3 checks the guard stopped at their deadline (GB_Z3_GRACE_MS) */
} gb_solver_stats_t;

int gb_solver_new(const gb_solver_opts_t *opts, gb_solver_t **out, gb_err_t *e);
void gb_solver_free(gb_solver_t *s);

/* Solves slice(PC[0..j-1]) ∧ ¬PC[j] for trace `t` (see ARCHITECTURE.md):
 * the prefix entries, pins included, that share input bytes with PC[j]
 * transitively. Fills *out (call gb_flip_clear on it afterwards). Calls for
 * one trace may come in any order, but ascending j is the fast path.
 * Returns -1 only on an internal error (out of memory, a Z3 error). */
int gb_solver_flip(gb_solver_t *s, const gb_trace_t *t, size_t j, gb_flip_t *out, gb_err_t *e);
void gb_flip_clear(gb_flip_t *f);

void gb_solver_get_stats(const gb_solver_t *s, gb_solver_stats_t *st);

/* The input the next flips' trace was recorded from: the interval stage
 * gives bytes it does not choose these values. Borrowed until the next call;
 * NULL (the default) reads as all zero. */
void gb_solver_set_input(gb_solver_t *s, const uint8_t *data, size_t len);

/* 0 turns off the last resort of optimistic solving (¬PC[j] alone) for the
 * flips that follow, 1 turns it back on (with opts.optimistic): a repair
 * flip must keep the path its child was made for, and ¬PC[j] alone may
 * undo what made that child (a chunk's length put back to 0 to make its
 * checksum easy). Pins stay soft either way. */
void gb_solver_set_last_resort(gb_solver_t *s, int on);
/* For the flips that follow, each Z3 timeout and the per-trace budget are
 * 2^shift times their usual value (shift capped at GB_RETRY_PATIENCE_MAX),
 * and a (site, direction)'s timeouts in a row no longer shorten its limit:
 * the search's retry rounds, when nothing else is left to do. 0 = usual. */
void gb_solver_set_patience(gb_solver_t *s, unsigned shift);
/* Writes one line per Z3 check to f (NULL: none, the default): its wall
 * time, the time limit it was given and its answer, for measuring how far
 * checks run past their limits (glassbox solve --check-times). f stays
 * the caller's. */
void gb_solver_set_check_log(gb_solver_t *s, FILE *f);
/* The caller's stop request, so that stopping does not wait for Z3: once
 * *flag is nonzero (a signal handler may set it) or the monotonic clock
 * (gb_mono_ms) reaches end_ms (a run's time limit; 0 = none), the check in
 * progress is interrupted within a few milliseconds and no further check
 * starts: every flip until then answers GB_Q_TIMEOUT. flag may be NULL;
 * it must outlive the solver or the next call (z3_bridge.c, "The guard"). */
void gb_solver_set_stop(gb_solver_t *s, const volatile sig_atomic_t *flag, uint64_t end_ms);

/* A ceiling on Z3's memory during a check. The guard interrupts a check
 * at GB_Z3_GROWTH_MAX_MB + GB_Z3_QUERY_MAX_MB; one that goes on allocating
 * after that (Z3 reads the interrupt only between steps) cannot be made to
 * give the memory back. Once Z3 holds more than `mb` MiB during a check,
 * the guard's thread writes one line to stderr, "WHAT (MB MiB; it held N)
 * in a check, which only the process's end stops; exiting with status S",
 * and ends the process with _exit(exit_status). No code of the caller's
 * runs then: what must survive such an end is recorded before (a search
 * brackets each expansion in its journal). mb 0: no ceiling (the
 * default). */
void gb_solver_set_ceiling(gb_solver_t *s, unsigned mb, int exit_status, const char *what);

/* Input bytes the flips that follow must leave as they are (n = 0: none):
 * a repair keeps the bytes whose change made its child, which a checksum
 * is cheaper to fix by undoing. Such queries bypass the answer cache and
 * teach no clause. 0, or -1 when out of memory (then none are kept). */
int gb_solver_set_keep(gb_solver_t *s, const uint64_t *offs, const uint8_t *vals, size_t n);

/* Learned clauses on disk (format: docs/clauses.md). A worker keeps its own
 * in OUT/NAME/clauses/clauses.gbc. */

/* Loads every *.gbc file in `dir`. Clauses from an own directory (own = 1)
 * are saved again by gb_solver_clauses_save; a peer's are not. A file that
 * fails its checks adds nothing: -1 with a one-line error in e. */
int gb_solver_clauses_load(gb_solver_t *s, const char *dir, int own, size_t *added, gb_err_t *e);

/* Loads SYNC/X/clauses/ for every directory X of the sync dir (X == own_name
 * is own). Bad files are skipped: returns how many there were (e names the
 * last), or -1 when out of memory. */
int gb_solver_clauses_import(gb_solver_t *s, const char *sync_dir, const char *own_name,
                             size_t *added, gb_err_t *e);

/* Writes DIR/clauses.gbc atomically (creating DIR) when clauses were learned
 * since the last save; 0 when there was nothing to do. */
int gb_solver_clauses_save(gb_solver_t *s, const char *dir, gb_err_t *e);

/* The answer cache on disk (one file, written atomically when it grew). */
int gb_solver_cache_load(gb_solver_t *s, const char *path, gb_err_t *e);
int gb_solver_cache_save(gb_solver_t *s, const char *path, gb_err_t *e);

/* For tests: checks with plain Z3 (hard conjuncts of flip j's query only,
 * or ¬PC[j] alone when `relaxed`) whether the query is satisfiable (*st)
 * and, when `m` is given, whether m's bytes (others from the input set by
 * gb_solver_set_input) satisfy it, by Z3 (*z3_ok) and by concrete
 * evaluation (*eval_ok). */
int gb_solver_verify(gb_solver_t *s, const gb_trace_t *t, size_t j, int relaxed,
                     const gb_model_t *m, gb_qstatus_t *st, int *z3_ok, int *eval_ok,
                     gb_err_t *e);

/* The name `show` gives input offset `off`: bK for byte k, len0 (least
 * significant) to len2 for the length variable's bytes. */
void gb_input_name(uint64_t off, char *buf, size_t cap);

/* The input offsets PC entry j's condition depends on, ascending, each
 * once (the length variable's three are among them when it is used):
 * *offs (gb_free it) and *n. 0, or -1 on a bad entry or out of memory. */
int gb_trace_pc_inputs(const gb_trace_t *t, size_t j, uint64_t **offs, size_t *n);

/* 1 + the highest input offset (the length variable aside) that PC entry
 * j's condition depends on; 0 if it depends on none, or out of memory. */
uint64_t gb_trace_pc_read_end(const gb_trace_t *t, size_t j);

/* 1 when PC entry j is a whole-token compare that `input` matched: its
 * condition reads exactly the input bytes [*start, *end), 2 to
 * GB_TOKEN_MAX of them, and changing any one of them alone changes its
 * value (a keyword compare, a 4-byte magic). 0 otherwise, and for big
 * conditions, which it does not walk. */
int gb_trace_pc_token(const gb_trace_t *t, size_t j, const uint8_t *input, size_t len,
                      uint64_t *start, uint64_t *end);

/* 1 when PC entry j's condition is an equality (EQ or NE, a switch case
 * too) between an expression of the input and a constant: *value gets the
 * constant. A table walk (a codec lookup, a keyword list) compares one
 * input value with another constant at each step of one site; the search
 * tells those steps apart by it (generational/sites.c). 0 otherwise. */
int gb_trace_pc_const(const gb_trace_t *t, size_t j, uint64_t *value);

/* Evaluates PC entry j of `t` on a concrete input: returns 1 if the entry's
 * condition equals its recorded direction, 0 if not (bytes past `len` read as
 * 0). Used by tests to check models and by the search to predict paths. */
int gb_trace_eval_pc(const gb_trace_t *t, size_t j, const uint8_t *input, size_t len);

/* The Z3 library's own version string ("4.8.12.0"), for --version and
 * reports. */
const char *gb_z3_version(void);

#endif
