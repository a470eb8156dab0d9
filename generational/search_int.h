/* SPDX-License-Identifier: Apache-2.0 */
/* Private state of the generational search, split by owner: each part is
 * passed on its own to the functions of the file that owns it. */
#ifndef GB_SEARCH_INT_H
#define GB_SEARCH_INT_H

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cfg_int.h"
#include "corpus.h"
#include "fuzz_bridge.h"
#include "gb_abi.h"    /* GB_MAP_SIZE */
#include "gb_config.h" /* the search's intervals and limits */
#include "gb_hmap.h"
#include "generational.h"
#include "symbolic.h"

/* ---- worklist.c: inputs waiting for expansion -------------------------- */

/* The (site, direction) a path constraint entry had: what a child is
 * predicted to follow up to the entry that made it. */
typedef struct gb_step {
    uint32_t site;
    uint8_t kind, taken;
} gb_step_t;

/* One trace's path, shared by every child made from it (refs counts the
 * children and the expansion's cache): a child of flip j is predicted to
 * follow steps 0..j with step j's direction turned. Shared, a parser's
 * children cost one copy of a trace's path per expansion, not one each. */
typedef struct gb_path {
    uint32_t refs;
    uint32_t n;
    gb_step_t step[];
} gb_path_t;

void gb_path_release(gb_path_t *p);

/* The execs at the last once-a-minute sample (report.c). */
typedef struct gb_minute {
    uint64_t at_ms, execs;
    double eps;
} gb_minute_t;

typedef struct gb_item {
    uint8_t *data;       /* NULL while parked: its bytes wait in queue/`file` */
    size_t len;
    char *file;          /* its queue/ file name once stored, or NULL */
    uint64_t hash;       /* gb_hash64 of its bytes while parked */
    size_t bound;        /* first PC position this item may flip */
    uint32_t score;      /* new blocks it covered when it was run */
    uint32_t novelty;    /* new (block, hit-count bucket) pairs: the tie-breaker */
    uint64_t seq;        /* creation order, for newest-first ties */
    int64_t queue_id;    /* id in queue/, or -1 */
    int64_t crash_id;    /* id in crashes/, or -1 */
    int64_t src_id;      /* queue id of the nearest stored ancestor */
    int64_t src_crash;   /* without one: the crashes/ id of the crashing seed it came from */
    uint32_t depth;      /* 1 for seeds and imports, the parent's + 1 for children */
    int optimistic;      /* made by a relaxed query */
    int extra;           /* directed mode: outside the proof (expand.c, flip_directed) */
    gb_path_t *path;     /* its expected path: path->step[0 .. n_predicted), the last */
    size_t n_predicted;  /* turned (gb_item_step); NULL and 0 for seeds and imports */
    uint8_t hint;      /* progress without a new block: a gb_hint_t */
    uint8_t retries;   /* retry rounds it was put back for */
    uint64_t parent_read_end; /* its parent's trace's read_end; 0 without a parent */
    uint32_t *skipped; /* PC positions its last expansion backed off */
    size_t nskipped, skipped_cap;
    uint32_t *pending; /* PC positions a suspended expansion has still to flip */
    size_t npending;
    uint8_t suspended; /* its expansion stopped for a better input: put it back */
    uint32_t *front;   /* blocks of its run with an uncovered successor (frontier.c) */
    uint32_t nfront;   /* how many (at most GB_FRONTIER_MAX): the worklist's tie-breaker */
    uint32_t dist;     /* directed mode: least static distance to a target of the
                          blocks its run covered (0 otherwise: no effect on order) */
} gb_item_t;

/* Step k of the path `it` is predicted to follow (k < it->n_predicted). */
static inline gb_step_t gb_item_step(const gb_item_t *it, size_t k)
{
    gb_step_t st = it->path->step[k];
    if (k + 1 == it->n_predicted)
        st.taken = !st.taken;
    return st;
}

/* Progress a child makes that no block shows, best last: the worklist
 * expands children of a higher hint first among those of equal score. */
typedef enum gb_hint {
    GB_HINT_NONE = 0,
    GB_HINT_PARENT = 1,  /* its parent's trace took a branch direction no trace
                            took before, or used input bytes further on */
    GB_HINT_DEPTH = 2,   /* predicted to take a branch direction for the n-th
                            time (n <= 8) where no trace took it n times */
    GB_HINT_NEW_DIR = 3, /* it is predicted to take a branch direction no
                            trace took before */
} gb_hint_t;

/* Max-heap by (smaller distance in directed mode, then score, then hint,
 * then novelty, then frontier, then shorter input, then newer). */
typedef struct gb_worklist {
    gb_item_t **heap;
    size_t n, cap;
} gb_worklist_t;

int gb_worklist_push(gb_worklist_t *w, gb_item_t *it);
gb_item_t *gb_worklist_pop(gb_worklist_t *w);
const gb_item_t *gb_worklist_peek(const gb_worklist_t *w); /* the next to pop, or NULL */
int gb_worklist_before(const gb_item_t *a, const gb_item_t *b); /* 1: a pops before b */
/* Frees the last inputs in the order until at most `max` wait; how many.
 * Each is in queue/ already, and --resume puts it back. */
size_t gb_worklist_trim(gb_worklist_t *w, size_t max);
/* Memory an input holds (its share of a shared path included), and the
 * worklist with every input in it: fuzzer_stats' mem_worklist_kb. */
size_t gb_item_bytes(const gb_item_t *it);
size_t gb_worklist_bytes(const gb_worklist_t *w);

/* A waiting input stored in queue/ keeps its bytes there, not in memory
 * (a worklist of 10,000 parser inputs held 33 MB): gb_worklist_push and
 * the retry list park it (the bytes freed, their hash kept), and
 * gb_item_unpark reads them back before it is expanded: 0, or 1 when the
 * file cannot be read or no longer holds them (the input is then lost, as
 * one the worklist drops). Items without a file keep their bytes. */
void gb_item_park(gb_item_t *it);
int gb_item_unpark(gb_search_t *s, gb_item_t *it);
void gb_worklist_free(gb_worklist_t *w);
gb_item_t *gb_item_new(const uint8_t *data, size_t len, uint64_t seq);
void gb_item_free(gb_item_t *it);
/* Makes `c` a child of `parent`: its nearest stored ancestor and depth. */
void gb_item_adopt(gb_item_t *c, const gb_item_t *parent);
/* A child's name tail as AFL++ writes one: "src:" and its nearest stored
 * ancestor (queue id `queue_id`, or crashNNNNNN from `crash_id` when only
 * a crashing seed is behind it; none when not even that was stored), then
 * "op:OP,pos:POS" and `tag` (empty, or starting with a comma). */
void gb_src_desc(char *buf, size_t n, int64_t queue_id, int64_t crash_id, const char *op,
                 size_t pos, const char *tag);
/* gb_src_desc for a child of `parent`: the parent itself when stored. */
void gb_item_desc(char *buf, size_t n, const gb_item_t *parent, const char *op, size_t pos,
                  const char *tag);

/* ---- frontier.c: uncovered directions beside a run's path -------------- */

typedef struct gb_frontier gb_frontier_t;

/* NULL without a CFG (or out of memory): every frontier is then 0. */
gb_frontier_t *gb_frontier_new(const gb_cfg_t *cfg);
void gb_frontier_free(gb_frontier_t *f);
/* The blocks a run hit (`map`, n bytes) that have a successor `virgin`
 * never saw, up to `max` of them into `out`; their count. */
uint32_t gb_frontier_measure(const gb_frontier_t *f, const uint8_t *map, size_t n,
                             const uint8_t *virgin, uint32_t *out, uint32_t max);
/* Keeps those of blocks[0..n) that still have one; their count. */
uint32_t gb_frontier_recount(const gb_frontier_t *f, uint32_t *blocks, uint32_t n,
                             const uint8_t *virgin);

/* ---- coverage.c: what all runs covered --------------------------------- */

typedef struct gb_cov {
    uint8_t virgin[GB_MAP_SIZE]; /* hit-count bucket bits seen per block (0 = never hit) */
    uint32_t blocks;            /* blocks covered by any run */
    uint64_t novel_total;       /* new (block, bucket) pairs over all runs: detects payoff */
} gb_cov_t;

/* What one run added to the coverage. */
typedef struct gb_score {
    uint32_t fresh;   /* blocks no run covered before */
    uint32_t novelty; /* new (block, hit-count bucket) pairs */
} gb_score_t;

/* Scores a run's map (n bytes) and merges it into the coverage. */
void gb_cov_score(gb_cov_t *c, const uint8_t *map, size_t n, gb_score_t *out);

/* A hash of the set of blocks a map (n bytes) hit: hangs are told apart
 * by it. */
uint64_t gb_cov_sig(const uint8_t *map, size_t n);

/* 1 if a crash's map covers a (block, hit-count bucket) pair no saved
 * crash covered (AFL++'s rule for saving a crash), else 0; merges its
 * pairs into `seen` (GB_MAP_SIZE bucket bits per block). */
int gb_cov_crash_new(uint8_t *seen, const uint8_t *map, size_t n);

/* ---- sites.c: what flipping each (site, direction) paid ----------------- */

typedef struct gb_site_stat {
    uint64_t key;    /* site << 1 | new direction, + 1; 0 = empty slot */
    uint32_t tries;  /* children made by flipping it */
    uint32_t unpaid; /* of those, in a row, with nothing new */
    uint32_t paid;   /* of those, children that found something new: tried first */
    uint32_t timeouts; /* its queries that timed out (GB_SITE_TIMEOUTS) */
    uint32_t consts;   /* constants its flips asked an equality for (gb_sites_new_const) */
} gb_site_stat_t;

GB_HMAP_KEYED_TYPE(gb_sites, gb_site_stat_t)

/* The record of flipping `site` to direction `dir` (NULL when out of memory). */
gb_site_stat_t *gb_sites_get(gb_sites_t *t, uint32_t site, unsigned dir);
/* 1 the first time flip (site, dir) asks for an equality with `value`
 * (gb_trace_pc_const), while the direction has asked for fewer than
 * GB_SITE_CONSTS constants: such a flip is made even when the direction is
 * backed off. Records the constant; 0 for one seen before, past the cap,
 * or out of memory. Moves the table: look records up after it. */
int gb_sites_new_const(gb_sites_t *t, uint32_t site, unsigned dir, uint64_t value);
/* 0 when the direction is backed off: its last GB_SITE_FREE_TRIES children
 * found nothing new and the unpaid count is not a power of two. */
int gb_sites_worth(const gb_site_stat_t *ss);
/* Records one child's outcome. */
void gb_sites_record(gb_site_stat_t *ss, int paid);
/* A retry round: every direction gets GB_SITE_FREE_TRIES tries again. */
void gb_sites_release(gb_sites_t *t);

/* ---- reach.c: directed mode (glassbox reach, docs/reach.md) ------------ */

typedef struct gb_reach_tgt {
    uint32_t *blocks;      /* the line's CFG blocks */
    size_t nblocks;
    int no_path;           /* no CFG path from the entry points */
    int folded;            /* every block of it is DEAD or UNREACHED (constant branches) */
    int shared_id;         /* another block has one of their ids */
    int reached, crashed;
    uint8_t *input;        /* the first input that reached it */
    size_t input_len;
    uint64_t ms, execs;
    uint32_t dist;         /* least distance any run had to it */
} gb_reach_tgt_t;

typedef struct gb_reach {
    int on;
    gb_reach_tgt_t *t;
    size_t n, left;              /* targets; those neither reached nor without a CFG path */
    unsigned unroll;
    uint8_t goal[GB_MAP_SIZE];   /* ids of the blocks of targets still left */
    uint32_t dist[GB_MAP_SIZE];  /* static distance to the goal, per block id */
    /* The proof (docs/reach.md): the bounded path tree, every flip discharged. */
    char dead[256];              /* why no proof can be made at all ("" = none yet) */
    char hole[256];              /* the first flip or trace the argument cannot use */
    uint64_t paths, refuted, cfg_pruned, bound_pruned, children, holes;
    uint64_t kept;               /* inputs put on the worklist (gb_run_keep) */
    int dropped;                 /* a trace's tracer dropped entries (back-off) */
    int finished;                /* the worklist ran dry: every input expanded */
} gb_reach_t;

/* The proof as it stands: 1 while no reason against it was seen. */
static inline int gb_reach_alive(const gb_reach_t *r)
{
    return r->on && !r->dead[0] && !r->hole[0];
}

/* ---- the search --------------------------------------------------------- */

/* Periodic work (pulse.c). */
typedef struct gb_pulse {
    uint64_t start_ms;       /* this session's start */
    uint64_t last_sync_ms;   /* peers read */
    uint64_t last_status_ms; /* fuzzer_stats and plot_data written */
    uint64_t last_solver_ms; /* learned clauses and answers shared */
    int sync_failed;         /* a sync step failed inside a pulse (gb_search_run says it) */
    uint64_t last_pause_ms;  /* the pause file was looked for */
    uint64_t resumed_ms;     /* the last pause ended (the stall clock starts again) */
} gb_pulse_t;

/* Expansions whose wall times the median in fuzzer_stats is taken over:
 * the last ones (a ring). */
#define GB_EXP_TIMES 1024

/* What runs on the cov build left behind; written only by run.c (resume.c
 * and expand.c ask gb_run_fresh). */
typedef struct gb_run_state {
    gb_fsrv_t *fsrv;       /* fuzz-bridge/: the cov build */
    char *cur_input;       /* OUT/NAME/.cur_input, the forkserver's input file */
    gb_hset_t seen;        /* hashes of every input run */
    gb_hset_t seen_extra;  /* directed mode: of every extra input run (not in `seen`, so an
                            * exact child equal to one still runs and counts for the proof) */
    uint8_t crash_seen[GB_MAP_SIZE]; /* (block, bucket) pairs of saved crashes */
    gb_hset_t hang_sigs;             /* coverage signatures of saved hangs */
    uint64_t last_find_ms; /* when a run last covered a new block (the start, before one) */
} gb_run_state_t;

/* The expansion's own state; written only by expand.c. */
typedef struct gb_expand_state {
    char *trace_input; /* OUT/NAME/.cur_trace_input: the input being traced */
    char *trace_file;  /* OUT/NAME/.cur_trace.gbt: the trace it writes */
    /* the paths of the traces alive in an expansion (its own, its repairs'),
     * made when their first child is */
    struct {
        const gb_trace_t *t;
        gb_path_t *p;
    } paths[GB_MAX_REPAIRS + 2];
    gb_hset_t dirs;             /* (site, direction) pairs some trace took, + 1 */
    gb_hset_t depths;           /* (site, direction, n) for n >= 2: some trace took it n times */
    int progress_now;           /* the input being expanded made progress (its children's hint) */
    uint64_t trace_missing, trace_seen; /* trace runs that wrote no trace / a usable one */
} gb_expand_state_t;

/* fuzzer_stats' figures that are not counters of gb_search_stats_t;
 * written only by report.c. */
typedef struct gb_report_state {
    char *command_line;            /* o.command_line with newlines made spaces */
    long crash_buckets;            /* the last count o.crash_buckets read */
    gb_minute_t minute;            /* execs_ps_last_min's sample */
    uint32_t exp_ms[GB_EXP_TIMES]; /* wall times of the last expansions (ring) */
    uint64_t nexp_ms;              /* expansions timed; the next goes to % GB_EXP_TIMES */
    gb_search_stats_t prev; /* counters of earlier sessions (--resume) */
    uint64_t prev_run_s;
} gb_report_state_t;

/* The search loop's own state; written only by search.c. */
typedef struct gb_loop {
    gb_item_t **retry; /* expanded with flips backed off: again when dry */
    size_t nretry, retry_cap;
    uint64_t cycle_end_ms; /* when the worklist last ran dry */
    uint64_t stall_ms;     /* when the last retry round for flat coverage began */
    unsigned stall_run;    /* such rounds since the last new block */
    int dry;               /* it is dry now, and that cycle is counted */
} gb_loop_t;

/* The search: the options, the objects of other folders it works with
 * (opened by search.c), and the parts above, each written by one file. */
struct gb_search {
    gb_search_opts_t o;
    gb_campaign_t *camp;      /* corpus/: OUT/NAME */
    gb_journal_t *journal;    /* corpus/: finished expansions */
    gb_peers_t *peers;        /* fuzz-bridge/: the sync dir's other instances */
    gb_solver_t *solver;      /* symbolic/ */
    gb_cfg_t *cfg;            /* the targets' static CFG; NULL = none (never skip) */
    gb_frontier_t *front;     /* NULL without a CFG */
    gb_worklist_t work;       /* worklist.c: run.c and resume.c push, search.c pops */
    gb_cov_t cov;             /* coverage.c, through run.c */
    gb_sites_t sites;         /* sites.c, through expand.c */
    gb_pulse_t pulse;         /* pulse.c */
    gb_run_state_t run;       /* run.c */
    gb_expand_state_t exp;    /* expand.c */
    gb_report_state_t report; /* report.c */
    gb_loop_t loop;           /* search.c */
    gb_reach_t reach;         /* directed mode: reach.c; the proof's counts where they happen */
    gb_search_stats_t st;     /* counters, each bumped where its event happens */
    uint64_t seq;             /* the next input's creation number (gb_item_new) */
    unsigned noticed;         /* notice.c: GB_NOTE_* already reported */
    volatile sig_atomic_t stop;
};

/* OUT/NAME/`name`, allocated with its exact length (gb_free it), or NULL
 * when out of memory: the per-run files are named once, at the start.
 * gb_campaign_open refuses an OUT/NAME within 64 bytes of PATH_MAX, so
 * the kernel takes these names whole. */
static inline char *gb_search_file(const gb_search_t *s, const char *name)
{
    const char *dir = gb_campaign_dir(s->camp);
    size_t n = strlen(dir) + 1 + strlen(name) + 1;
    char *p = gb_malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static inline int gb_search_out_of_time(const gb_search_t *s)
{
    return s->stop || (s->reach.on && s->reach.left == 0) ||
           (s->o.max_execs && s->st.execs >= s->o.max_execs) ||
           (s->o.max_seconds && gb_time_ms() - s->pulse.start_ms >= s->o.max_seconds * 1000);
}

/* run.c: Run&Check. How a run on the cov build ended. */
typedef enum gb_run_kind {
    GB_KIND_FATAL = -1,  /* the campaign cannot go on (e says why) */
    GB_KIND_SKIPPED = 0, /* killed the forkserver twice in a row (noticed once): dropped */
    GB_KIND_HUNG = 1,    /* ran past the time limit: saved in hangs/, dropped */
    GB_KIND_RAN = 2,     /* ran normally: worth keeping in queue/ */
    GB_KIND_CRASHED = 3  /* crashed: saved in crashes/, still worth expanding */
} gb_run_kind_t;

/* Names .cur_input and starts the forkserver: once, at the start. */
int gb_run_start(gb_search_t *s, gb_err_t *e);
void gb_run_free(gb_run_state_t *r); /* stops the forkserver, frees the rest */
/* 1 when an input of these bytes never ran, and notes it; 0 when one did;
 * -1 out of memory. An extra input (directed mode) is new only if in
 * neither set, and goes into seen_extra. */
int gb_run_fresh(gb_run_state_t *r, const uint8_t *data, size_t len, int extra);
/* Runs `it` on the cov build, scores it, saves a crash or hang. */
gb_run_kind_t gb_run_check(gb_search_t *s, gb_item_t *it, const char *desc, gb_err_t *e);
/* Runs a stored input again (resume): scores it, notes a crash's signature;
 * stores nothing. */
gb_run_kind_t gb_run_again(gb_search_t *s, gb_item_t *it, int is_crash, gb_err_t *e);
/* Stores `it` in queue/ when it ran normally (and hands it to the peers),
 * then pushes it on the worklist, which owns it from then on; on failure
 * `it` is freed. */
int gb_run_keep(gb_search_t *s, gb_item_t *it, gb_run_kind_t kind, const char *desc, gb_err_t *e);
/* Run&Check and keep for a new input from outside (a seed; a peer's when
 * `imported`, which counts it), unless its content ran before. */
int gb_run_input(gb_search_t *s, const uint8_t *data, size_t len, const char *desc, int imported,
                 gb_err_t *e);
/* gb_run_input for a peer's input: fuzz-bridge's gb_peer_input_fn. */
gb_take_t gb_run_import(void *search, const uint8_t *data, size_t len, const char *desc,
                        gb_err_t *e);
/* gb_peers_opts_t.warn: a peer entry skipped for its name, as a notice. */
void gb_run_warn(void *search, const char *msg);

/* expand.c: ExpandExecution of one input. The flips it backs off are left
 * in it->skipped (a retry round tries them again). After GB_EXPAND_SLICE
 * flips it stops for an input that covered new blocks, if one waits:
 * it->suspended is then set and the flips left are in it->pending. */
int gb_expand(gb_search_t *s, gb_item_t *it, gb_err_t *e);
/* Names the trace's files: once, at the start. */
int gb_expand_start(gb_search_t *s, gb_err_t *e);
void gb_expand_free(gb_expand_state_t *x);
/* tokens.c: children of `it` (traced as `t`) that repeat a token its run
 * matched (GB_TOKEN_REPS of each of the last GB_TOKENS_PER_RUN tokens),
 * run and kept when they find something: 0, or -1 on a fatal error. */
int gb_tokens_repeat(gb_search_t *s, const gb_item_t *it, const gb_trace_t *t, gb_err_t *e);
/* reach.c: directed mode. Resolves the targets, the goal set, the
 * distances and what rules a proof out from the start (after the CFG is
 * loaded). */
int gb_reach_init(gb_search_t *s, gb_err_t *e);
void gb_reach_free(gb_reach_t *r);
/* Inputs of the proof's exact tree (not extra) waiting in the worklist:
 * once none does and the proof stands, the targets left are out of reach
 * within the bound, and the extra inputs need not be expanded. */
size_t gb_reach_exact_waiting(const gb_search_t *s);

/* A run's coverage map: sets it->dist, records targets it reached. */
void gb_reach_on_run(gb_search_t *s, gb_item_t *it, const uint8_t *map, size_t n, int crashed);
/* A trace about to be expanded (divergent: it left its predicted path):
 * notes what makes it unusable for the proof. */
void gb_reach_on_trace(gb_search_t *s, const gb_trace_t *t, int divergent);
/* over[j] = 1 when flipping entry j asks for a path that evaluates some
 * site more than K times up to j; NULL on OOM (then nothing is pruned). */
uint8_t *gb_reach_over_bound(const gb_search_t *s, const gb_trace_t *t, size_t pcs);
/* A flip or trace the argument cannot use: counted, the first one kept. */
void gb_reach_hole(gb_reach_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* pulse.c: the periodic work between steps: reading peers, fuzzer_stats and
 * plot_data, sharing learned clauses. */
void gb_pulse(gb_search_t *s);
int gb_pulse_sync(gb_search_t *s, gb_err_t *e); /* reads the peers now */
/* Learned clauses and answers: loads (GB_SHARE_LOAD), saves and re-reads
 * (GB_SHARE_EVERY, when due), saves (GB_SHARE_FINAL). */
typedef enum gb_share { GB_SHARE_EVERY, GB_SHARE_FINAL, GB_SHARE_LOAD } gb_share_t;
void gb_pulse_share(gb_search_t *s, gb_share_t when);

/* report.c: fuzzer_stats and plot_data; the counters of an earlier
 * session's fuzzer_stats (resume). */
int gb_report_write(gb_search_t *s, gb_err_t *e);
void gb_report_restore(gb_search_t *s);
/* Keeps the command line for fuzzer_stats (NULL: none): -1 when out of
 * memory. */
int gb_report_start(gb_report_state_t *r, const char *command_line);
void gb_report_free(gb_report_state_t *r);
/* The counters as an expansion starts (gb_report_mark), for its row in
 * expansions.tsv (gb_report_expansion). */
typedef struct gb_exp_mark {
    uint64_t mono_ms, wall_ms;
    gb_search_stats_t st;
    gb_solver_stats_t q;
    char part;      /* 'f' first expansion, 's' a suspended one going on, 'r' a retry */
    uint8_t retries;
} gb_exp_mark_t;
void gb_report_mark(const gb_search_t *s, const gb_item_t *it, gb_exp_mark_t *m);
/* One expansion of `it` (begun at `m`) ended: expansion_ms_median's ring,
 * and a row of expansions.tsv (docs/campaign.md): what it cost and what it
 * yielded. A row that cannot be written is noticed once and dropped: a
 * profile is not worth stopping the search for. */
void gb_report_expansion(gb_search_t *s, const gb_item_t *it, const gb_exp_mark_t *m);

/* resume.c: re-runs the stored inputs, puts the unexpanded ones back. */
int gb_resume_load(gb_search_t *s, gb_err_t *e);

/* notice.c: notices, each reported once. */
typedef enum gb_note {
    GB_NOTE_HANG = 1,
    GB_NOTE_DISK = 2,
    GB_NOTE_NOBLOCK = 4,
    GB_NOTE_TRACE = 8,
    GB_NOTE_NOCFG = 16,
    GB_NOTE_CFG_PART = 32,
    GB_NOTE_FSRV_KILLED = 64,
    GB_NOTE_PROFILE = 128
} gb_note_t;
void gb_notice(gb_search_t *s, gb_note_t kind, const char *msg);

/* On a full disk (errno ENOSPC or EDQUOT after a failed write): reports it
 * once, waits 2 s and returns 1 so the caller retries; 0 for any other
 * failure or when the search is being stopped. */
int gb_wait_for_space(gb_search_t *s, int err);

#endif
