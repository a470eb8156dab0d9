/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox cmin's parts (cmin.c: the job and its forkservers; cmin_list.c:
 * reading the input dirs; cmin_trace.c: coverage as element lists;
 * cmin_select.c: choosing the files to keep). Private to triage/. */
#ifndef GB_CMIN_INT_H
#define GB_CMIN_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <xxhash.h>

#include "gb_config.h"
#include "triage.h"

/* An element id is index * 8 + bucket: 8 buckets per map byte. */
#define CMIN_BUCKETS 8u

/* What happened to one input. */
enum cmin_status {
    CMIN_PENDING = 0,
    CMIN_SKIP,  /* unreadable, or it changed into something not to read */
    CMIN_DUP,   /* byte-identical to an earlier input: not run */
    CMIN_OK,    /* ran; its coverage takes part */
    CMIN_CRASH, /* crashed (its coverage takes part only with keep_crashes) */
    CMIN_HANG,
};

/* One input directory, open for the whole call (files are read by openat,
 * so a path swapped under us cannot redirect the reads). */
typedef struct cmin_dir {
    int fd;
    char *path; /* for messages */
    char *tag;  /* what a clashing name gets: the instance of a queue, else the basename */
} cmin_dir_t;

/* One input file: kept small, since corpora of 100,000 files must fit.
 * Its coverage is a delta-varint list of element ids, not a map. */
typedef struct cmin_in {
    char *name;
    uint32_t dir;
    uint32_t size;
    XXH128_hash_t hash;
    uint8_t status;
    uint8_t *trace; /* ascending element ids as varint deltas, or NULL */
    uint32_t tlen;
} cmin_in_t;

/* The files of some directories, sorted by (directory, name): an input's
 * index is its place in that order, the tie-break after size. */
typedef struct cmin_set {
    cmin_dir_t *dirs;
    size_t ndirs, capd;
    cmin_in_t *in;
    size_t n, cap;
    size_t skipped;
} cmin_set_t;

typedef enum cmin_pass { PASS_HASH, PASS_RUN } cmin_pass_t;

typedef struct cmin_ctx cmin_ctx_t;

/* One forkserver and its buffers, owned by one thread during a pass. */
typedef struct cmin_worker {
    cmin_ctx_t *c;
    gb_fsrv_t *f;
    int cpu; /* the CPU this worker and its target share, or -1 */
    uint32_t *elems;
    uint8_t *enc;
    pthread_t th;
    char path[4200];
} cmin_worker_t;

struct cmin_ctx {
    const gb_cmin_opts_t *o;
    gb_cmin_stats_t *s;
    uint8_t bk[256];
    char scratch[4096];
    cmin_worker_t *w;
    unsigned nw;
    size_t map_size;
    /* the pass in progress */
    cmin_set_t *set;
    const size_t *todo;
    size_t ntodo;
    cmin_pass_t pass;
    atomic_size_t next, done, crashes, hangs, skipped;
    atomic_int stop;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned finished;
    int failed;
    gb_err_t err;
};

/* The first error of a pass wins; the others stop. */

typedef struct cmin_sel {
    uint32_t *count; /* inputs covering each element id */
    uint32_t *best;  /* the best input covering it, + 1 (0 = none) */
    uint8_t *covered;
    uint8_t *kept; /* per input */
    size_t space;
} cmin_sel_t;

/* Whether an input's coverage takes part: it ran (or crashed, with
 * --keep-crashes) and has a trace. */
static inline int cmin_counts(const cmin_ctx_t *c, const cmin_in_t *in)
{
    return in->trace && (in->status == CMIN_OK || c->o->keep_crashes);
}

/* cmin_list.c */
void cmin_set_free(cmin_set_t *s);
int cmin_list_arg(cmin_set_t *s, const char *path, gb_err_t *e);
int cmin_in_cmp(const void *a, const void *b);

/* cmin_trace.c */
uint8_t cmin_bucket_of(uint8_t hits);
size_t cmin_scan_map(const uint8_t *map, size_t size, int edges_only, const uint8_t *bk,
                     uint32_t *out);
size_t cmin_encode(const uint32_t *el, size_t n, uint8_t *out);
int cmin_decode_next(const uint8_t *t, size_t len, size_t *pos, uint32_t *el);

/* cmin_select.c */
void cmin_sel_free(cmin_sel_t *s);
int cmin_select_inputs(cmin_ctx_t *c, const cmin_set_t *set, cmin_sel_t *sl, gb_err_t *e);

#endif
