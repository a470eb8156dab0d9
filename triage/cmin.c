/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox cmin: corpus minimisation over AFL-style coverage elements
 * (map index, hit-count bucket), every input through a forkserver, N of
 * them side by side. docs/cmin.md describes the algorithm and the naming. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "cmin_int.h"
#include "gb_files.h"

static void worker_fail(cmin_ctx_t *c, const gb_err_t *e)
{
    pthread_mutex_lock(&c->mu);
    if (!c->failed) {
        c->failed = 1;
        c->err = *e;
    }
    pthread_mutex_unlock(&c->mu);
    atomic_store(&c->stop, 1);
}

static int read_input(const cmin_set_t *set, size_t i, uint8_t **data, size_t *len, gb_err_t *e)
{
    cmin_in_t *in = &set->in[i];
    return gb_read_file_at(set->dirs[in->dir].fd, in->name, GB_MAX_INPUT, data, len, e);
}

static int hash_one(cmin_ctx_t *c, size_t i, gb_err_t *e)
{
    (void)e;
    uint8_t *data;
    size_t len;
    cmin_in_t *in = &c->set->in[i];
    gb_err_t ignored;
    if (read_input(c->set, i, &data, &len, &ignored) != 0) {
        in->status = CMIN_SKIP; /* vanished or replaced since the listing */
        atomic_fetch_add(&c->skipped, 1);
        return 0;
    }
    in->size = (uint32_t)len;
    in->hash = XXH3_128bits(data, len);
    gb_free(data);
    return 0;
}

/* One run: the forkserver is restarted once if it died. */
static int run_fsrv(cmin_worker_t *w, const uint8_t *data, size_t len, gb_run_result_t *r,
                    gb_err_t *e)
{
    if (gb_fsrv_run(w->f, data, len, r, e) == 0)
        return 0;
    return gb_fsrv_run(w->f, data, len, r, e);
}

/* Keeps the coverage of the last run as the input's trace. */
static int save_trace(cmin_worker_t *w, cmin_in_t *in, gb_err_t *e)
{
    cmin_ctx_t *c = w->c;
    size_t n =
        cmin_scan_map(gb_fsrv_map(w->f), gb_fsrv_map_size(w->f), c->o->edges_only, c->bk, w->elems);
    size_t k = cmin_encode(w->elems, n, w->enc);
    in->trace = gb_malloc(k);
    if (!in->trace)
        return gb_err_set(e, "out of memory keeping coverage");
    memcpy(in->trace, w->enc, k);
    in->tlen = (uint32_t)k;
    return 0;
}

static int run_one(cmin_worker_t *w, size_t i, gb_err_t *e)
{
    cmin_ctx_t *c = w->c;
    cmin_in_t *in = &c->set->in[i];
    uint8_t *data;
    size_t len;
    gb_err_t ignored;
    if (read_input(c->set, i, &data, &len, &ignored) != 0) {
        in->status = CMIN_SKIP;
        atomic_fetch_add(&c->skipped, 1);
        return 0;
    }
    gb_run_result_t r;
    int rc = run_fsrv(w, data, len, &r, e);
    gb_free(data);
    if (rc != 0)
        return -1;
    in->status = r.status == GB_RUN_CRASH     ? CMIN_CRASH
                 : r.status == GB_RUN_TIMEOUT ? CMIN_HANG
                                              : CMIN_OK;
    if (in->status == CMIN_CRASH)
        atomic_fetch_add(&c->crashes, 1);
    if (in->status == CMIN_HANG)
        atomic_fetch_add(&c->hangs, 1);
    if (in->status == CMIN_OK || c->o->keep_crashes)
        return save_trace(w, in, e);
    return 0;
}

/* Set by gb_cmin_stop (a signal handler may call it): every pass ends
 * after the runs under way. */
static atomic_int cmin_interrupted;

void gb_cmin_stop(void)
{
    atomic_store(&cmin_interrupted, 1);
}

static void *worker_main(void *arg)
{
    cmin_worker_t *w = arg;
    cmin_ctx_t *c = w->c;
    gb_err_t e;
    for (;;) {
        if (atomic_load(&c->stop))
            break;
        if (atomic_load(&cmin_interrupted)) {
            gb_err_set(&e, "interrupted");
            worker_fail(c, &e);
            break;
        }
        size_t k = atomic_fetch_add(&c->next, 1);
        if (k >= c->ntodo)
            break;
        int rc = c->pass == PASS_HASH ? hash_one(c, c->todo[k], &e) : run_one(w, c->todo[k], &e);
        if (rc != 0) {
            worker_fail(c, &e);
            break;
        }
        atomic_fetch_add(&c->done, 1);
    }
    pthread_mutex_lock(&c->mu);
    c->finished++;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

/* One CPU set holding `cpu`. */
static void one_cpu(int cpu, cpu_set_t *set)
{
    CPU_ZERO(set);
    CPU_SET(cpu, set);
}

static int start_worker(cmin_worker_t *w)
{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return -1;
    if (w->cpu >= 0) {
        cpu_set_t set;
        one_cpu(w->cpu, &set);
        pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    }
    int rc = pthread_create(&w->th, &attr, worker_main, w);
    pthread_attr_destroy(&attr);
    return rc;
}

/* Pins worker k and its target to one CPU of those allowed, as afl-fuzz
 * binds itself: a run is a ping-pong between two processes, and on a
 * loaded machine a wake-up on another, idle CPU costs more than the run
 * (measured: 5-27 k runs/s unpinned, 34-42 k pinned, bench/RESULTS.md).
 * The offset comes from the pid, so two cmin jobs on one machine rarely
 * pick the same CPUs; with more workers than CPUs nothing is pinned. */
static void plan_cpus(cmin_ctx_t *c)
{
    cpu_set_t allowed;
    int cpus[CPU_SETSIZE], n = 0;
    for (unsigned i = 0; i < c->nw; i++)
        c->w[i].cpu = -1;
    if (c->o->no_affinity || sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return;
    for (int k = 0; k < CPU_SETSIZE; k++)
        if (CPU_ISSET(k, &allowed))
            cpus[n++] = k;
    if (n < 2 || c->nw > (unsigned)n)
        return;
    unsigned off = (unsigned)getpid() % (unsigned)n;
    for (unsigned i = 0; i < c->nw; i++)
        c->w[i].cpu = cpus[(off + i) % (unsigned)n];
}

static void progress(cmin_ctx_t *c, const char *phase)
{
    if (!c->o->on_progress)
        return;
    gb_cmin_stats_t snap = *c->s;
    snap.done = atomic_load(&c->done);
    snap.to_run = c->ntodo;
    snap.crashes += atomic_load(&c->crashes);
    snap.hangs += atomic_load(&c->hangs);
    c->o->on_progress(&snap, phase, c->o->progress_ctx);
}

/* Runs one pass over `todo` (indices into set) on every worker, reporting
 * progress from this thread while it waits. */
static int run_pass(cmin_ctx_t *c, cmin_set_t *set, const size_t *todo, size_t ntodo,
                    cmin_pass_t pass, const char *phase, gb_err_t *e)
{
    c->set = set;
    c->todo = todo;
    c->ntodo = ntodo;
    c->pass = pass;
    atomic_store(&c->next, 0);
    atomic_store(&c->done, 0);
    atomic_store(&c->crashes, 0);
    atomic_store(&c->hangs, 0);
    atomic_store(&c->skipped, 0);
    atomic_store(&c->stop, 0);
    c->finished = 0;
    c->failed = 0;
    unsigned started = 0;
    for (; started < c->nw; started++)
        if (start_worker(&c->w[started]) != 0)
            break;
    if (started == 0)
        return gb_err_set(e, "cannot start a worker thread");
    pthread_mutex_lock(&c->mu);
    while (c->finished < started) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += (long)GB_CMIN_PROGRESS_MS * 1000000L;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        if (pthread_cond_timedwait(&c->cv, &c->mu, &ts) == ETIMEDOUT) {
            pthread_mutex_unlock(&c->mu);
            progress(c, phase);
            pthread_mutex_lock(&c->mu);
        }
    }
    pthread_mutex_unlock(&c->mu);
    for (unsigned i = 0; i < started; i++)
        pthread_join(c->w[i].th, NULL);
    c->s->skipped += atomic_load(&c->skipped);
    if (c->failed) {
        *e = c->err;
        return -1;
    }
    return 0;
}

/* ---- Setup ------------------------------------------------------------- */

/* Starts worker w's forkserver, from this thread pinned to w's CPU. */
static int worker_start_fsrv(cmin_ctx_t *c, cmin_worker_t *w, gb_err_t *e)
{
    const gb_cmin_opts_t *o = c->o;
    w->c = c;
    snprintf(w->path, sizeof w->path, "%s/input.%u", c->scratch, (unsigned)(w - c->w));
    if (w->cpu >= 0) {
        cpu_set_t set;
        one_cpu(w->cpu, &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    char *plain[2] = {(char *)o->bin, NULL};
    char **argv = o->nargs ? gb_argv_build(o->bin, o->args, o->nargs, w->path) : plain;
    if (!argv)
        return gb_err_set(e, "out of memory starting %s", o->bin);
    gb_fsrv_opts_t fo = {.argv = argv,
                         .input_path = w->path,
                         .timeout_ms = o->timeout_ms,
                         .mem_limit_mb = o->mem_limit_mb};
    int rc = gb_fsrv_start(&fo, &w->f, e);
    if (argv != plain)
        gb_argv_free(argv);
    if (rc != 0)
        return -1;
    size_t ms = gb_fsrv_map_size(w->f);
    if (ms > c->map_size)
        c->map_size = ms;
    w->elems = gb_malloc(ms * sizeof *w->elems);
    w->enc = gb_malloc(ms * 5);
    if (!w->elems || !w->enc)
        return gb_err_set(e, "out of memory for a %zu-byte coverage map", ms);
    return 0;
}

static int workers_start(cmin_ctx_t *c, gb_err_t *e)
{
    c->nw = c->o->jobs ? c->o->jobs : 1;
    c->w = gb_calloc(c->nw, sizeof *c->w);
    if (!c->w)
        return gb_err_set(e, "out of memory starting %u forkservers", c->nw);
    plan_cpus(c);
    /* A forkserver inherits the CPU mask of the thread that starts it:
     * this one, pinned for the moment to each worker's CPU, then set back. */
    cpu_set_t mine;
    int have_mask = sched_getaffinity(0, sizeof mine, &mine) == 0;
    int rc = 0;
    for (unsigned i = 0; i < c->nw && rc == 0; i++)
        rc = worker_start_fsrv(c, &c->w[i], e);
    if (have_mask)
        sched_setaffinity(0, sizeof mine, &mine);
    c->s->map_size = c->map_size;
    return rc;
}

static void workers_stop(cmin_ctx_t *c)
{
    for (unsigned i = 0; c->w && i < c->nw; i++) {
        gb_fsrv_stop(c->w[i].f);
        gb_remove_path(c->w[i].path);
        gb_free(c->w[i].elems);
        gb_free(c->w[i].enc);
    }
    gb_free(c->w);
    c->w = NULL;
    if (c->scratch[0])
        rmdir(c->scratch); /* gb-write-ok: rmdir never follows a link */
}

static int make_scratch(cmin_ctx_t *c, gb_err_t *e)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(c->scratch, sizeof c->scratch, "%s/glassbox-cmin.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(c->scratch)) { /* gb-write-ok: a fresh 0700 dir of our own */
        gb_err_sys(e, "cannot create a scratch directory %s", c->scratch);
        c->scratch[0] = '\0';
        return -1;
    }
    return 0;
}

/* ---- Reading and running a set of dirs -------------------------------- */

/* Sort key for duplicates: the content hash, then the index. */
static int order_cmp(const void *a, const void *b, void *ctx)
{
    const cmin_in_t *order_base = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const XXH128_hash_t *x = &order_base[i].hash, *y = &order_base[j].hash;
    if (x->high64 != y->high64)
        return x->high64 < y->high64 ? -1 : 1;
    if (x->low64 != y->low64)
        return x->low64 < y->low64 ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* Marks every input byte-identical to an earlier one (in set order) as a
 * duplicate and returns the rest, the ones to run, in set order. */
static int dedupe(cmin_set_t *set, size_t **run, size_t *nrun, size_t *dups, gb_err_t *e)
{
    size_t *idx = gb_malloc((set->n ? set->n : 1) * sizeof *idx), m = 0;
    if (!idx)
        return gb_err_set(e, "out of memory sorting inputs");
    for (size_t i = 0; i < set->n; i++)
        if (set->in[i].status != CMIN_SKIP)
            idx[m++] = i;
    qsort_r(idx, m, sizeof *idx, order_cmp, set->in);
    *dups = 0;
    for (size_t k = 1; k < m; k++) {
        const XXH128_hash_t *a = &set->in[idx[k - 1]].hash, *b = &set->in[idx[k]].hash;
        if (a->high64 == b->high64 && a->low64 == b->low64) {
            set->in[idx[k]].status = CMIN_DUP;
            (*dups)++;
        }
    }
    size_t r = 0;
    for (size_t i = 0; i < set->n; i++)
        if (set->in[i].status == CMIN_PENDING)
            idx[r++] = i;
    *run = idx;
    *nrun = r;
    return 0;
}

/* Hashes, dedupes and runs the inputs of `set` (already listed and sorted). */
static int take_set(cmin_ctx_t *c, cmin_set_t *set, const char *phase, size_t *ndup,
                    size_t *nrun_out, gb_err_t *e)
{
    size_t *all = gb_malloc((set->n ? set->n : 1) * sizeof *all);
    if (!all)
        return gb_err_set(e, "out of memory listing inputs");
    for (size_t i = 0; i < set->n; i++)
        all[i] = i;
    int rc = run_pass(c, set, all, set->n, PASS_HASH, "read", e);
    gb_free(all);
    size_t *run = NULL, nrun = 0;
    if (rc == 0)
        rc = dedupe(set, &run, &nrun, ndup, e);
    if (rc == 0) {
        *nrun_out = nrun;
        rc = run_pass(c, set, run, nrun, PASS_RUN, phase, e);
    }
    gb_free(run);
    return rc;
}

/* Marks every element the set's inputs cover in `bits` (one byte per
 * element id) and returns how many distinct ones. */
static size_t set_union(const cmin_ctx_t *c, const cmin_set_t *set, uint8_t *bits)
{
    size_t n = 0;
    for (size_t i = 0; i < set->n; i++) {
        const cmin_in_t *in = &set->in[i];
        if (!cmin_counts(c, in))
            continue;
        size_t pos = 0;
        uint32_t el = 0;
        while (cmin_decode_next(in->trace, in->tlen, &pos, &el))
            if (!bits[el]) {
                bits[el] = 1;
                n++;
            }
    }
    return n;
}

/* ---- Output ------------------------------------------------------------- */

/* 0 if `dir` is missing (it is created) or empty; else a clear error. */
/* Opens the output dir (creating it): its parent as the user named it,
 * the dir itself never through a symlink, so cmin's files cannot land
 * wherever a link planted at -o points. A descriptor or -1 with `e`. */
static int out_open(const char *dir, int create, gb_err_t *e)
{
    char parent[4096];
    gb_err_t sub;
    const char *base = gb_path_split(dir, parent, sizeof parent, &sub);
    char trimmed[4096];
    if (!base) { /* "OUT/": the same dir without the slashes */
        snprintf(trimmed, sizeof trimmed, "%s", dir);
        for (size_t n = strlen(trimmed); n > 1 && trimmed[n - 1] == '/'; n--)
            trimmed[n - 1] = '\0';
        if (!(base = gb_path_split(trimmed, parent, sizeof parent, &sub)))
            return gb_err_set(e, "output directory %s: %s", dir, sub.msg);
    }
    int pfd = gb_dir_open(parent, NULL, create, &sub);
    int fd = pfd < 0 ? -1 : gb_dir_openat(pfd, base, create, &sub);
    if (pfd >= 0)
        close(pfd);
    return fd >= 0 ? fd : gb_err_set(e, "output directory %s: %s", dir, sub.msg);
}

static int out_empty(const char *dir, gb_err_t *e)
{
    int fd = out_open(dir, 1, e);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return fd >= 0 ? gb_err_sys(e, "cannot read output directory %s", dir) : -1;
    }
    struct dirent *de;
    int found = 0;
    while (!found && (de = readdir(d)) != NULL)
        found = strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    closedir(d);
    if (found)
        return gb_err_set(e,
                          "output directory %s is not empty: cmin writes only into a new "
                          "or empty directory (--verify checks an existing one)",
                          dir);
    return 0;
}

/* The output name of input i: its own, or on a clash with a name already
 * given "NAME,from:TAG", then "NAME,from:TAG.2", ".3", ... */
static int out_name(const cmin_set_t *set, size_t i, gb_hset_t *taken, char *buf, size_t n,
                    gb_err_t *e)
{
    const cmin_in_t *in = &set->in[i];
    const char *tag = set->dirs[in->dir].tag;
    for (unsigned k = 1;; k++) {
        if (k == 1)
            snprintf(buf, n, "%s", in->name);
        else if (k == 2)
            snprintf(buf, n, "%.200s,from:%.40s", in->name, tag);
        else
            snprintf(buf, n, "%.200s,from:%.40s.%u", in->name, tag, k - 1);
        int added = gb_hset_add(taken, gb_hash64(buf, strlen(buf), 0));
        if (added < 0)
            return gb_err_set(e, "out of memory naming outputs");
        if (added)
            return 0;
    }
}

/* Writes one file into the staging dir (flushed all at once later). */
static int stage_file(int sfd, const char *name, const uint8_t *data, size_t len, gb_err_t *e)
{
    int fd = gb_file_open_at(sfd, name, GB_OPEN_NEW, e);
    if (fd < 0)
        return -1;
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            return gb_err_sys(e, "cannot write %s", name);
        }
        off += (size_t)w;
    }
    return close(fd) == 0 ? 0 : gb_err_sys(e, "cannot write %s", name);
}

/* Reads a kept input again and checks it is what ran. */
static int reread(const cmin_set_t *set, size_t i, uint8_t **data, size_t *len, gb_err_t *e)
{
    const cmin_in_t *in = &set->in[i];
    if (read_input(set, i, data, len, e) != 0)
        return -1;
    XXH128_hash_t h = XXH3_128bits(*data, *len);
    if (h.low64 != in->hash.low64 || h.high64 != in->hash.high64) {
        gb_free(*data);
        return gb_err_set(e, "%s/%s changed while cmin ran", set->dirs[in->dir].path, in->name);
    }
    return 0;
}

/* Stages every kept input under its output name, flushes them with one
 * syncfs, then renames each into the output dir: a reader of OUT never
 * sees a partial file. */
static int write_kept(cmin_ctx_t *c, const cmin_set_t *set, const uint8_t *kept, int sfd,
                      gb_err_t *e)
{
    gb_hset_t taken = {0};
    int rc = 0;
    for (size_t i = 0; i < set->n && rc == 0; i++) {
        if (!kept[i])
            continue;
        if (atomic_load(&cmin_interrupted)) {
            rc = gb_err_set(e, "interrupted");
            break;
        }
        char name[300];
        uint8_t *data;
        size_t len;
        if ((rc = out_name(set, i, &taken, name, sizeof name, e)) != 0 ||
            (rc = reread(set, i, &data, &len, e)) != 0)
            break;
        rc = stage_file(sfd, name, data, len, e);
        gb_free(data);
        c->s->kept++;
        c->s->kept_bytes += len;
    }
    gb_hset_free(&taken);
    if (rc == 0 && syncfs(sfd) != 0)
        rc = gb_err_sys(e, "cannot flush the staged files");
    return rc;
}

/* Moves the staged files into OUT (never replacing a name there). */
static int publish(int sfd, int ofd, const char *out, gb_err_t *e)
{
    int dfd = dup(sfd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return gb_err_sys(e, "cannot read the staging dir in %s", out);
    }
    rewinddir(d);
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        int m = gb_file_move_at(sfd, de->d_name, ofd, de->d_name, e);
        if (m == 1)
            rc = gb_err_set(e, "%s/%s appeared while cmin ran: not replaced", out, de->d_name);
        else if (m < 0)
            rc = -1;
    }
    closedir(d);
    fsync(ofd);
    return rc;
}

/* Empties the staging dir (regular files only: it is ours) and removes it. */
static void remove_stage(int sfd, int ofd, const char *name)
{
    int dfd = dup(sfd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (d) {
        rewinddir(d);
        struct dirent *de;
        while ((de = readdir(d)) != NULL)
            if (de->d_name[0] != '.')
                gb_file_remove_at(sfd, de->d_name);
        closedir(d);
    } else if (dfd >= 0) {
        close(dfd);
    }
    gb_dir_remove_at(ofd, name);
}

static int write_output(cmin_ctx_t *c, const cmin_set_t *set, const uint8_t *kept, gb_err_t *e)
{
    char stage[64];
    snprintf(stage, sizeof stage, ".cmin-stage.%ld", (long)getpid());
    int ofd = out_open(c->o->out_dir, 0, e);
    if (ofd < 0)
        return -1;
    int sfd = gb_dir_openat(ofd, stage, 1, e);
    if (sfd < 0) {
        close(ofd);
        return -1;
    }
    int rc =
        write_kept(c, set, kept, sfd, e) == 0 && publish(sfd, ofd, c->o->out_dir, e) == 0 ? 0 : -1;
    remove_stage(sfd, ofd, stage);
    close(sfd);
    close(ofd);
    return rc;
}

/* ---- Verification ------------------------------------------------------- */

/* Runs the output dir and compares its union of elements with `want`. */
static int verify_out(cmin_ctx_t *c, const uint8_t *want, size_t space, gb_err_t *e)
{
    cmin_set_t out = {0};
    uint8_t *got = NULL;
    size_t ndup = 0, nrun = 0;
    int rc = cmin_list_arg(&out, c->o->out_dir, e);
    if (rc == 0) {
        qsort(out.in, out.n, sizeof *out.in, cmin_in_cmp);
        rc = take_set(c, &out, "verify", &ndup, &nrun, e);
    }
    if (rc == 0 && !(got = gb_calloc(space, 1)))
        rc = gb_err_set(e, "out of memory verifying");
    if (rc == 0) {
        gb_cmin_stats_t *s = c->s;
        s->out_elements = set_union(c, &out, got);
        size_t first = space;
        for (size_t el = 0; el < space; el++) {
            if (want[el] && !got[el] && s->missing++ == 0)
                first = el;
            s->extra += got[el] && !want[el];
        }
        s->verified = s->missing == 0 && s->extra == 0;
        if (s->missing)
            rc = gb_err_set(e,
                            "verify failed: %s lacks %zu of the input's %zu coverage elements "
                            "(first: map index %zu, hit bucket %zu)",
                            c->o->out_dir, s->missing, s->elements, first / CMIN_BUCKETS,
                            first % CMIN_BUCKETS);
        else if (s->extra)
            rc = gb_err_set(e,
                            "verify failed: %s covers %zu elements the input does not (is "
                            "the target's coverage deterministic?)",
                            c->o->out_dir, s->extra);
    }
    gb_free(got);
    cmin_set_free(&out);
    return rc;
}

/* ---- The job ------------------------------------------------------------ */

static int list_inputs(const gb_cmin_opts_t *o, cmin_set_t *in, gb_cmin_stats_t *s, gb_err_t *e)
{
    if (o->n_in == 0)
        return gb_err_set(e, "no input directory given");
    for (size_t i = 0; i < o->n_in; i++)
        if (cmin_list_arg(in, o->in_dirs[i], e) != 0)
            return -1;
    qsort(in->in, in->n, sizeof *in->in, cmin_in_cmp);
    s->skipped = in->skipped;
    return 0;
}

static int cmin_job(cmin_ctx_t *c, cmin_set_t *in, gb_err_t *e)
{
    const gb_cmin_opts_t *o = c->o;
    gb_cmin_stats_t *s = c->s;
    size_t nrun = 0;
    uint64_t t0 = gb_mono_ms();
    int rc = take_set(c, in, "run", &s->duplicates, &nrun, e);
    s->to_run = nrun;
    s->done = nrun;
    s->crashes = atomic_load(&c->crashes);
    s->hangs = atomic_load(&c->hangs);
    s->run_ms = gb_mono_ms() - t0;
    for (size_t i = 0; i < in->n; i++) {
        if (in->in[i].status == CMIN_SKIP)
            continue;
        s->inputs++;
        s->in_bytes += in->in[i].size;
    }
    if (rc != 0)
        return -1;
    cmin_sel_t sl = {0};
    rc = cmin_select_inputs(c, in, &sl, e);
    if (rc == 0 && !o->verify_only)
        rc = write_output(c, in, sl.kept, e);
    if (rc == 0 && (o->verify || o->verify_only)) {
        uint8_t *want = sl.covered; /* every element of the input is covered by now */
        rc = verify_out(c, want, sl.space, e);
    }
    cmin_sel_free(&sl);
    return rc;
}

int gb_cmin_run(const gb_cmin_opts_t *o, gb_cmin_stats_t *s, gb_err_t *e)
{
    memset(s, 0, sizeof *s);
    atomic_store(&cmin_interrupted, 0);
    uint64_t t0 = gb_mono_ms();
    if (!o || !o->bin || !o->out_dir)
        return gb_err_set(e, "gb_cmin_run: bin and out_dir are required");
    if (o->jobs > GB_CMIN_MAX_JOBS)
        return gb_err_set(e, "at most %u jobs", GB_CMIN_MAX_JOBS);
    if (gb_check_executable(o->bin, e) != 0)
        return -1;
    cmin_set_t in = {0};
    cmin_ctx_t c = {.o = o, .s = s};
    for (unsigned h = 1; h < 256; h++)
        c.bk[h] = cmin_bucket_of((uint8_t)h);
    pthread_mutex_init(&c.mu, NULL);
    pthread_cond_init(&c.cv, NULL);
    int rc = list_inputs(o, &in, s, e);
    if (rc == 0 && !o->verify_only)
        rc = out_empty(o->out_dir, e);
    if (rc == 0 && o->verify_only && access(o->out_dir, R_OK | X_OK) != 0)
        rc = gb_err_sys(e, "cannot read output directory %s", o->out_dir);
    if (rc == 0)
        rc = make_scratch(&c, e);
    if (rc == 0)
        rc = workers_start(&c, e);
    if (rc == 0)
        rc = cmin_job(&c, &in, e);
    workers_stop(&c);
    cmin_set_free(&in);
    pthread_mutex_destroy(&c.mu);
    pthread_cond_destroy(&c.cv);
    s->total_ms = gb_mono_ms() - t0;
    return rc;
}
