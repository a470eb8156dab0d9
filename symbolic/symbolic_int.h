/* SPDX-License-Identifier: Apache-2.0 */
/* Private to symbolic/: the expression DAG of a loaded trace, the concrete
 * semantics shared by folding and evaluation, and the Z3 bridge interface. */
#ifndef GB_SYMBOLIC_INT_H
#define GB_SYMBOLIC_INT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "gb_bv.h"
#include "gb_hmap.h"
#include "gbt.h"
#include "symbolic.h"

#define GB_NONE UINT32_MAX /* "no node" / "no variable" */

/* One DAG node. Arguments always have smaller indices than the node, so the
 * node array is in topological order; walks rely on this instead of
 * recursion, which deep expression chains would overflow. */
typedef struct gb_node {
    uint64_t imm;     /* CONST value, INPUT offset, EXTRACT low bit, else 0 */
    uint64_t hash;    /* XXH3 of op/width/args/imm, for hash-consing */
    uint32_t args[3]; /* DAG indices */
    uint32_t var;     /* INPUT: index into gb_dag_t.vars; else GB_NONE */
    uint8_t op, width, nargs;
} gb_node_t;

/* A constant table a READ node indexes (TABLE record, version 2). */
typedef struct gb_table {
    uint32_t id, len;
    uint8_t *bytes;
} gb_table_t;

/* The hash-consing index (expr.c): a slot holds a node's DAG index + 1 (0 =
 * empty) and the key is read from the node, through the DAG as context. */
GB_HMAP_TYPE(gb_nodeset, uint32_t, const struct gb_dag *)

/* The DAG is the per-trace arena: nodes only ever grow until the load ends,
 * then the hash table is released and the DAG is read-only. It must not
 * move while the table exists (the table points back to it). */
typedef struct gb_dag {
    gb_node_t *nodes;
    size_t n, cap;
    gb_nodeset_t htab; /* every node, for hash-consing */
    uint32_t *vars; /* INPUT nodes, in creation order */
    size_t nvars, vcap;
    gb_table_t *tables; /* READ nodes' tables, in TABLE record order */
    size_t ntables;
} gb_dag_t;

typedef struct gb_pc {
    uint32_t node; /* DAG index, width 1 */
    uint32_t site;
    uint8_t kind, taken;
} gb_pc_t;

struct gb_trace {
    uint64_t serial; /* unique per load: solver caches key on it, not the address */
    gb_dag_t dag;
    gb_pc_t *pcs;
    size_t npcs, pcap;
    uint32_t *blocks;
    size_t nblocks, bcap;
    gb_trace_info_t info; /* nodes/pcs/blocks are filled by gb_trace_get_info */
};

/* ---- DAG (expr.c) ---- */
int gb_dag_init(gb_dag_t *d);
void gb_dag_fini(gb_dag_t *d);
void gb_dag_seal(gb_dag_t *d); /* drop the hash table after loading */
/* Makes (or finds) a node; arguments must be valid and widths consistent
 * (the loader checks). Folds constants and extract/concat patterns. Returns
 * the DAG index or GB_NONE when out of memory. */
uint32_t gb_dag_mk(gb_dag_t *d, unsigned op, unsigned width, unsigned nargs,
                   const uint32_t *args, uint64_t imm);

static inline uint64_t gb_mask(unsigned w) { return gb_bv_mask(w); }

/* Result of `op` on concrete argument values (already masked to their
 * widths); `aw` is the width of argument 0 (and of the low half for CONCAT
 * via aw1). SMT-LIB semantics throughout: gb_bv_apply (tracer/gb_bv.h). */
uint64_t gb_expr_apply(unsigned op, unsigned width, unsigned aw0, unsigned aw1,
                       const uint64_t *a, uint64_t imm);

/* Tables: adds one (copying the bytes; 0, or -1 out of memory); finds one
 * by id (NULL if absent); reads width/8 little-endian bytes at byte offset
 * `off` (bytes past the end read as 0). */
int gb_dag_add_table(gb_dag_t *d, uint32_t id, const uint8_t *bytes, size_t len);
const gb_table_t *gb_dag_table(const gb_dag_t *d, uint32_t id);
uint64_t gb_table_read(const gb_table_t *t, uint64_t off, unsigned width);

/* The value of node x given its arguments' values: gb_expr_apply, plus
 * READ, which needs the DAG's tables. Use this to evaluate DAG nodes. */
uint64_t gb_dag_apply(const gb_dag_t *d, const gb_node_t *x, const uint64_t *a);

/* Collects the nodes reachable from `roots` into `*out` (ascending, so in
 * topological order; free with gb_free). Costs the size of the sub-DAG, not
 * of the whole DAG. Returns the count, or (size_t)-1 when out of memory. */
size_t gb_dag_reach(const gb_dag_t *d, const uint32_t *roots, size_t nroots, uint32_t **out);

/* The value of `node` with the input in[0..len) (bytes past it read as
 * 0, the length variable as len): 0, or -1 when out of memory. */
int gb_dag_eval(const gb_dag_t *d, uint32_t node, const uint8_t *input, size_t len,
                uint64_t *value);

/* Position of node x in a sorted list of n nodes that contains it. */
size_t gb_dag_pos(const uint32_t *list, size_t n, uint32_t x);

/* ---- Z3 bridge (z3_bridge.c) ---- */
typedef struct gb_z3 gb_z3_t;

/* One conjunct of a query: DAG node `node` (width 1) equals `value`. */
typedef struct gb_conj {
    uint32_t node;
    uint8_t value;
    uint8_t soft; /* may be dropped when it conflicts (a pin, when optimistic) */
} gb_conj_t;

int gb_z3_new(gb_z3_t **out, gb_err_t *e);
void gb_z3_free(gb_z3_t *z);
/* A query: conjuncts cj[0..nc) over the DAG of trace t. */
typedef struct gb_z3_query {
    const gb_trace_t *t;
    const gb_conj_t *cj;
    size_t nc;
} gb_z3_query_t;

/* The INPUT nodes nodes[0..n) whose values a call reads into vals
 * (gb_z3_check, on SAT) or fixes from vals (gb_z3_holds). */
typedef struct gb_z3_vars {
    const uint32_t *nodes;
    size_t n;
    uint8_t *vals;
} gb_z3_vars_t;

/* What one gb_z3_check call may spend, and how. */
typedef struct gb_z3_limits {
    unsigned timeout_ms; /* every check of the call, together */
    unsigned core_ms;    /* finding a small core (o->core); 0 = none */
    int bitblast;        /* ask the qfbv tactic first (z3_bridge.c, "Bit-blasting") */
} gb_z3_limits_t;

/* What one gb_z3_check call did: its answer, and what else. `core` is the
 * caller's, with room for nc entries. */
typedef struct gb_z3_out {
    gb_qstatus_t status; /* SAT (the model in vars->vals), UNSAT or TIMEOUT */
    size_t dropped;      /* soft conjuncts dropped on the way to the answer */
    unsigned checks;     /* solver calls made */
    uint32_t *core;      /* on UNSAT: indices of hard conjuncts that conflict */
    size_t ncore;
    int core_found; /* core is an unsat core, not every hard conjunct */
    int blasted;    /* the tactic gave the answer */
    int varmul;     /* a product or quotient of two input-dependent values
                       kept the tactic out: the simple solver had the whole limit */
} gb_z3_out_t;

/* Input bytes the next gb_z3_check must keep at given values (offsets
 * ascending; the arrays stay the caller's until it sets n = 0): hard
 * equalities for those of the query's bytes. An UNSAT answer is then no
 * clause: it may owe to the kept bytes. */
void gb_z3_set_keep(gb_z3_t *z, const uint64_t *offs, const uint8_t *vals, size_t n);

/* Bounds on a node's value from its shape alone (z3_bridge.c, narrowing):
 * lo <= value <= hi unsigned, and the value is the sign extension of its
 * low `sbits` bits. */
typedef struct gb_range {
    uint64_t lo, hi;
    uint8_t sbits;
} gb_range_t;
/* Whether the translation narrows arithmetic whose result provably fits in
 * fewer bits (on unless turned off: the equivalence tests compare both). */
void gb_z3_set_narrow(gb_z3_t *z, int on);
/* How many terms were narrowed so far. */
uint64_t gb_z3_narrowed(const gb_z3_t *z);
/* Times the context was made anew (GB_Z3_GROWTH_MAX_MB), and what Z3 holds
 * now in the whole process. */
uint64_t gb_z3_renewals(const gb_z3_t *z);
uint64_t gb_z3_memouts(const gb_z3_t *z);
/* What one check may allocate before the guard stops it; 0 restores
 * GB_Z3_QUERY_MAX_MB (tests set a small cap). */
void gb_z3_set_query_cap(gb_z3_t *z, size_t bytes);
/* While a check runs, once Z3 holds more than `bytes` (its estimate), the
 * memory guard's thread writes one line to stderr, `what` followed by the
 * figures, and ends the process with _exit(exit_status); bytes 0: no
 * ceiling (z3_bridge.c, "The memory guard"). */
void gb_z3_set_ceiling(gb_z3_t *z, size_t bytes, int exit_status, const char *what);
/* Makes the context anew (every term and cached translation dropped) when
 * Z3 holds more than `growth` bytes above what it held right after the
 * context was made: 1 if it did, 0 if not, -1 with `e`. The bridge calls it
 * between traces with GB_Z3_GROWTH_MAX_MB. */
int gb_z3_renew_if_over(gb_z3_t *z, size_t growth, gb_err_t *e);
uint64_t gb_z3_mem_bytes(void);
/* Writes one line per Z3 check to f (NULL: none): its wall time, the
 * time it was given (its window: its limit cut to the budgets) and its
 * answer (glassbox solve --check-times). */
void gb_z3_set_check_log(gb_z3_t *z, FILE *f);
/* The caller's stop request: once *flag is nonzero, or the monotonic clock
 * (gb_mono_ms) reaches end_ms (0 = never), the check in progress is
 * interrupted by the guard thread and no further check starts (each
 * answers as a timeout). flag may be NULL; it is read from that thread. */
void gb_z3_set_stop(gb_z3_t *z, const volatile sig_atomic_t *flag, uint64_t end_ms);
/* No check starts at or after end_ms (gb_mono_ms; 0 = no end), and a
 * check running then is interrupted (after the grace of
 * GB_Z3_GRACE_DIV): the budget of one query's checks, all its calls. */
void gb_z3_set_query_end(gb_z3_t *z, uint64_t end_ms);
/* Checks the guard interrupted at their deadline (Z3 did not stop itself). */
uint64_t gb_z3_overruns(const gb_z3_t *z);

/* Checks the conjunction; on SAT o->status is SAT and v->vals[i] holds
 * the value of the INPUT node v->nodes[i].
 * Soft conjuncts go in as assumption literals; while the query is UNSAT,
 * those in the unsat core are dropped and it is checked again, so a model
 * keeps every soft conjunct it can. UNSAT means the hard conjuncts alone
 * conflict; o->core (when not NULL) then names a conflicting subset, a
 * learned clause: an unsat core with every hard conjunct as an assumption
 * when one is found within lim->core_ms, else all of them. With variables
 * to read, a bit-vector query gets the simple solver for an eighth of the
 * limit and then the qfbv tactic (lim->bitblast: the tactic first), unless
 * it multiplies or divides two input-dependent values (o->varmul).
 * Caches translations per trace (keyed by its serial). */
int gb_z3_check(gb_z3_t *z, const gb_z3_query_t *q, const gb_z3_vars_t *v,
                const gb_z3_limits_t *lim, gb_z3_out_t *o, gb_err_t *e);

/* ---- Learned clauses (clauses.c) ---- */
#define GB_CLAUSE_MAX 256 /* longer cores are not learned: they rarely recur */
typedef struct gb_clauses gb_clauses_t;
gb_clauses_t *gb_clauses_new(void);
void gb_clauses_free(gb_clauses_t *c);
/* Adds a clause (literals in any order, duplicates allowed); 1 added, 0
 * already known or too long, -1 out of memory. `local`: saved again. */
int gb_clauses_add(gb_clauses_t *c, const uint64_t *lits, size_t n, int local);
/* 1 if some clause's literals are all among lits[0..n), else 0; -1 OOM. */
int gb_clauses_match(const gb_clauses_t *c, const uint64_t *lits, size_t n);
size_t gb_clauses_count(const gb_clauses_t *c, size_t *local);
/* Local clauses ever added (it only grows, across evictions): "learned
 * anything since the last save?" */
uint64_t gb_clauses_local_added(const gb_clauses_t *c);
/* Clauses dropped so far to stay within GB_CLAUSES_MAX. */
/* Bytes the clauses hold (arrays at capacity, indexes included). */
size_t gb_clauses_bytes(const gb_clauses_t *c);
uint64_t gb_clauses_evicted(const gb_clauses_t *c);
int gb_clauses_save(const gb_clauses_t *c, const char *path, const char *tmpdir, gb_err_t *e);
int gb_clauses_load(gb_clauses_t *c, const char *path, int local, size_t *added, gb_err_t *e);
/* The same from a file's bytes already read; `name` only goes into messages.
 * Every check of the file comes first: a bad file adds nothing. */
int gb_clauses_load_mem(gb_clauses_t *c, const uint8_t *data, size_t len, const char *name,
                        int local, size_t *added, gb_err_t *e);

/* ---- Stored values (stored.c) ---- */
#define GB_STORED_MAX 8u    /* bytes of a stored value (a u64 field at most) */
#define GB_STORED_NODES 64u /* nodes of its side: a byte assembly is small */

/* A conjunct S == F of a query (EQ held, or NE not held) whose side S is a
 * bit permutation of input bytes that no other conjunct reads, and whose
 * side F reads other bytes only: a checksum, hash or length stored in the
 * input and compared with one computed from the rest. The query is solved
 * without it, and S's bytes are then set from F's value on the child. */
typedef struct gb_stored {
    size_t conj;                     /* its index in the query */
    uint32_t side, other;            /* S and F */
    uint64_t offs[GB_STORED_MAX];    /* S's input bytes, ascending */
    size_t n;
    uint64_t base;                   /* S with every byte 0 */
    uint64_t bit[GB_STORED_MAX * 8]; /* the one bit of S that bit i of byte k moves */
} gb_stored_t;

/* The stored-value conjuncts among cj[0..nc-1) (the flipped one, last, is
 * never one), at most cap: out[0..*nout). `counts` holds every input offset
 * each conjunct of the query reads, once per conjunct, sorted. 0, or -1
 * when out of memory. */
int gb_stored_find(const gb_trace_t *t, const gb_conj_t *cj, size_t nc, const uint64_t *counts,
                   size_t ncounts, gb_stored_t *out, size_t cap, size_t *nout);

/* S's bytes y[0..sv->n) that make S equal F's value on in[0..len):
 * 1 when they exist, 0 when no such bytes do (bits S cannot set differ),
 * -1 when out of memory. */
int gb_stored_fix(const gb_trace_t *t, const gb_stored_t *sv, uint8_t *in, size_t len,
                  uint8_t *y);

/* ---- Interval prefilter (intervals.c) ---- */
/* On the query cj[0..nc) (the flipped condition last) over the input bytes
 * offs[0..noffs) (ascending): *st = GB_Q_UNSAT with the hard conjuncts
 * whose sets conflict in conf[0..*nconf); GB_Q_SAT with vals[i] for offs[i]
 * (every hard conjunct checked by concrete evaluation; *broken soft ones
 * do not hold, 0 when all do); or GB_Q_SKIP (unknown). Bytes it does not
 * choose come from in[0..len). A query over one or two bytes is decided by
 * trying their values (*enumerated = 1 then); a wider one may get a model
 * from trying each byte's values alone (*enumerated = 2). Returns -1 only
 * when out of memory. */
int gb_ival_solve(const gb_trace_t *t, const gb_conj_t *cj, size_t nc, const uint64_t *offs,
                  size_t noffs, const uint8_t *in, size_t len, gb_qstatus_t *st, uint8_t *vals,
                  uint32_t *conf, size_t *nconf, size_t *broken, int *enumerated);

/* ---- Answer cache (cache.c) ---- */
typedef struct gb_answer {
    gb_qstatus_t status;
    unsigned optimistic;
    uint32_t tmo; /* the time limit a timeout ran out of */
    size_t n;
    uint32_t *offs;
    uint8_t *vals;
} gb_answer_t;
typedef struct gb_cache gb_cache_t;
gb_cache_t *gb_cache_new(void);
void gb_cache_free(gb_cache_t *c);
/* 1 and *a (pointing into the cache) if `key` is known, else 0. */
int gb_cache_get(const gb_cache_t *c, const uint64_t key[2], gb_answer_t *a);
/* Copies a; 1 stored, 0 kept the older answer, -1 OOM. */
int gb_cache_put(gb_cache_t *c, const uint64_t key[2], const gb_answer_t *a);
size_t gb_cache_count(const gb_cache_t *c);
/* Bytes the cache holds (its arrays at capacity, the index included). */
size_t gb_cache_bytes(const gb_cache_t *c);
/* Entries dropped so far to stay within GB_CACHE_MAX. */
uint64_t gb_cache_evicted(const gb_cache_t *c);
int gb_cache_dirty(const gb_cache_t *c);
int gb_cache_save(gb_cache_t *c, const char *path, const char *tmpdir, gb_err_t *e);
int gb_cache_load(gb_cache_t *c, const char *path, gb_err_t *e);
/* The same from a file's bytes already read; `name` only goes into messages. */
int gb_cache_load_mem(gb_cache_t *c, const uint8_t *data, size_t len, const char *name,
                      gb_err_t *e);

/* ---- Z3, for gb_solver_verify (z3_bridge.c) ---- */
/* Whether the conjuncts (all hard) hold with the INPUT nodes v->nodes[i]
 * fixed to v->vals[i]: *st = SAT, UNSAT or TIMEOUT. */
int gb_z3_holds(gb_z3_t *z, const gb_z3_query_t *q, const gb_z3_vars_t *v, unsigned timeout_ms,
                gb_qstatus_t *st, gb_err_t *e);

#endif
