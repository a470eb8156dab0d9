/* SPDX-License-Identifier: Apache-2.0 */
/* Private state of the generational search. */
#ifndef GB_SEARCH_INT_H
#define GB_SEARCH_INT_H

#include <signal.h>

#include "cfg_int.h"
#include "corpus.h"
#include "fuzz_bridge.h"
#include "gb_hmap.h"
#include "generational.h"
#include "symbolic.h"

#define GB_COV_MAP 65536u

/* The (site, direction) a path constraint entry had: what a child is
 * predicted to follow up to the entry that made it. */
typedef struct gb_step {
    uint32_t site;
    uint8_t kind, taken;
} gb_step_t;

/* An input waiting for expansion. */
typedef struct gb_item {
    uint8_t *data;
    size_t len;
    size_t bound;        /* first PC position this item may flip */
    uint32_t score;      /* new blocks it covered when it was run */
    uint32_t novelty;    /* new (block, hit-count bucket) pairs: the tie-breaker */
    uint64_t seq;        /* creation order, for newest-first ties */
    int64_t queue_id;    /* id in queue/, or -1 */
    int64_t crash_id;    /* id in crashes/, or -1 */
    int64_t src_id;      /* queue id of the nearest stored ancestor */
    int optimistic;      /* made by a relaxed query */
    gb_step_t *predicted; /* expected path prefix, n_predicted entries */
    size_t n_predicted;
} gb_item_t;

/* Max-heap by (score, then novelty, then shorter input, then newer). */
typedef struct gb_worklist {
    gb_item_t **heap;
    size_t n, cap;
} gb_worklist_t;

int gb_worklist_push(gb_worklist_t *w, gb_item_t *it);
gb_item_t *gb_worklist_pop(gb_worklist_t *w);
void gb_worklist_free(gb_worklist_t *w);
gb_item_t *gb_item_new(const uint8_t *data, size_t len, uint64_t seq);
void gb_item_free(gb_item_t *it);

/* A set of 64-bit hashes (inputs already run, crash signatures); a zeroed
 * one is empty. A gb_hmap.h map whose functions live in worklist.c. */
typedef struct gb_hkey {
    uint64_t key; /* 0 = empty slot; the hash 0 is stored as 1 */
} gb_hkey_t;
GB_HMAP_KEYED_TYPE(gb_u64set, gb_hkey_t)
typedef gb_u64set_t gb_hset_t;

int gb_hset_add(gb_hset_t *h, uint64_t key); /* 1 if new, 0 if present, -1 on OOM */
void gb_hset_free(gb_hset_t *h);

/* Per (site, direction) payoff of flipping it, for back-off. */
typedef struct gb_site_stat {
    uint64_t key;       /* site << 1 | new direction; 0 = empty slot */
    uint32_t tries;     /* children made by flipping it */
    uint32_t unpaid;    /* of those, in a row, with nothing new */
    uint32_t paid;      /* of those, children that found something new: tried first */
} gb_site_stat_t;

#define GB_SITE_FREE_TRIES 8 /* unpaid flips of one site before back-off */

/* A peer instance in the sync directory and how far we have read it. */
typedef struct gb_peer {
    char *name;
    uint32_t next_id;  /* first queue id not yet imported */
    char *last_name;   /* name of entry next_id - 1, to notice renumbering */
} gb_peer_t;

#define GB_SYNC_EVERY_MS 5000 /* how often peers' queues are read */

struct gb_search {
    gb_search_opts_t o;
    gb_campaign_t *camp;
    gb_fsrv_t *fsrv;
    gb_solver_t *solver;
    gb_cfg_t *cfg;        /* the targets' static CFG; NULL = none (never skip) */
    gb_worklist_t work;
    gb_hset_t seen;       /* hashes of every input run */
    gb_hset_t crash_sigs; /* coverage signatures of saved crashes */
    gb_hset_t hang_sigs;
    gb_hset_t lf_names;   /* libFuzzer corpus file names already handled */
    uint8_t virgin[GB_COV_MAP]; /* hit-count bucket bits seen per block (0 = never hit) */
    char cur_input[4096], trace_input[4096], trace_file[4096];
    gb_site_stat_t *sites; /* open addressing, cap_sites slots */
    size_t n_sites, cap_sites;
    uint64_t novel_total;  /* sum of novelty over all runs: detects payoff */
    gb_peer_t *peers;      /* sync.c */
    size_t npeers;
    uint64_t last_sync_ms;
    int journal_fd;        /* resume.c: the expansion journal, -1 until opened */
    gb_search_stats_t prev; /* counters of earlier sessions (--resume) */
    uint64_t prev_run_s;
    int sync_failed;       /* a sync step failed inside a tick */
    int claims_ready;      /* the claims directory exists */
    unsigned noticed;      /* GB_NOTE_* already reported */
    uint64_t trace_missing, trace_seen; /* trace runs that wrote no trace / a usable one */
    gb_search_stats_t st;
    uint64_t last_solver_sync_ms; /* gb_search_sync_solver */
    uint64_t start_ms, last_status_ms, last_stats_ms, last_find_ms, seq;
    volatile sig_atomic_t stop;
};

#define GB_MAX_REPAIRS 4 /* rounds of repairing one optimistic child */

/* Run&Check: runs `it` on the cov build and scores it; saves it to crashes/
 * or hangs/ when it crashes or hangs. Returns 1 (ran normally), 2 (crashed:
 * still worth expanding), 0 (hung: dropped) or -1 on a fatal error. */
int gb_search_run_check(gb_search_t *s, gb_item_t *it, const char *desc, gb_err_t *e);

/* Runs a stored input again (resume): scores it into the coverage map and
 * notes a crash's signature; stores nothing. Returns like run_check. */
int gb_search_rerun(gb_search_t *s, gb_item_t *it, int is_crash, gb_err_t *e);

/* Notices, each reported once (search.c). */
enum { GB_NOTE_HANG = 1, GB_NOTE_DISK = 2, GB_NOTE_NOBLOCK = 4, GB_NOTE_TRACE = 8,
       GB_NOTE_NOCFG = 16, GB_NOTE_CFG_PART = 32 };
void gb_notice(gb_search_t *s, unsigned kind, const char *msg);

/* On a full disk (errno ENOSPC or EDQUOT after a failed write): reports it
 * once, waits 2 s and returns 1 so the caller retries; 0 for any other
 * failure or when the search is being stopped. */
int gb_wait_for_space(gb_search_t *s, int err);

/* Flip selection from the static CFG (search.c): 1 when flipping `pc`
 * cannot reach a block no run has covered, so the flip is skipped (and
 * counted in flips_skipped_cfg); 0 when it is worth a query. */
int gb_search_cfg_skip(gb_search_t *s, const gb_pc_info_t *pc);

/* Starts the forkserver on the cov build (search.c). */
int gb_search_start_fsrv(gb_search_t *s, gb_err_t *e);

/* resume.c */
int gb_journal_expanded(gb_search_t *s, const gb_item_t *it, gb_err_t *e);
int gb_resume_load(gb_search_t *s, gb_err_t *e);

/* Stores `it` in queue/ when kind == 1 and pushes it on the worklist (which
 * then owns it). Returns 0 or -1. */
int gb_search_keep(gb_search_t *s, gb_item_t *it, int kind, const char *desc, gb_err_t *e);

/* sync.c: import from the other instances of the sync directory. */
int gb_sync_run(gb_search_t *s, gb_err_t *e);
/* Imports one file (a peer's entry, a libFuzzer corpus file) unless its
 * content already ran: run, score, queue, worklist. */
int gb_sync_import(gb_search_t *s, const char *path, const char *desc, gb_err_t *e);
void gb_sync_load_cursor(gb_search_t *s, gb_peer_t *p);
void gb_sync_free(gb_search_t *s);
int gb_claim(gb_search_t *s, const gb_item_t *it, gb_err_t *e);

/* libfuzzer.c: exchange with a libFuzzer corpus directory. */
int gb_lf_export(gb_search_t *s, const gb_item_t *it, gb_err_t *e);
int gb_lf_import(gb_search_t *s, gb_err_t *e);

/* search.c: loads (final 2), saves and re-reads (0, every GB_SOLVER_SYNC_MS;
 * 1 at the end) the solver's learned clauses and answers. */
#define GB_SOLVER_SYNC_MS 30000u
void gb_search_sync_solver(gb_search_t *s, int final);

/* report.c: fuzzer_stats and plot_data. */
int gb_report_write(gb_search_t *s, int final, gb_err_t *e);

#endif
