/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox triage's engine: runs each new crashing input several times,
 * buckets the crashes by (type, state), keeps the smallest reproducer of
 * each bucket, and has report.c / sarif.c write the report. Inputs run in
 * --jobs worker processes, each with its own runner (a forkserver and a
 * symbolizer are per process anyway); workers hand back one JSON line per
 * input, and only this process writes the report. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_config.h"
#include "gb_files.h"
#include "triage_int.h"

/* A worker's result lines: a sanitizer report each at most. */
#define GB_RESULTS_MAX_BYTES (1u << 30)

/* ---- the inputs to run ---------------------------------------------------------- */

typedef struct todo {
    char *path; /* absolute: reports are read from anywhere */
    const char *engine;
    char sha1[41];
    size_t size;
    json_object *result; /* the worker's line for it */
} todo_t;

static int note(gb_triage_result_t *res, const char *path, const char *what)
{
    if (gb_grow(&res->notes, &res->capn, res->nnotes + 1, sizeof *res->notes, 16) != 0)
        return -1;
    gb_triage_note_t *n = &res->notes[res->nnotes];
    n->path = gb_strdup(path);
    n->what = gb_strdup(what);
    if (!n->path || !n->what) {
        gb_free(n->path);
        gb_free(n->what);
        return -1;
    }
    res->nnotes++;
    return 0;
}

/* path made absolute (without resolving links: the path the user gave,
 * from /), malloc'd; NULL when out of memory. */
static char *absolute(const char *path)
{
    char cwd[PATH_MAX];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return gb_strdup(path);
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    size_t n = strlen(cwd) + strlen(path) + 2;
    char *p = gb_malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", cwd, path);
    return p;
}

/* What plan() builds. */
typedef struct planner {
    todo_t **todo;
    size_t *ntodo, cap;
    gb_hset_t now; /* hashes of the inputs taken in this run */
} planner_t;

/* Reads and hashes one input; a new one goes to the todo list. 0, or -1
 * when out of memory. */
static int plan_one(planner_t *p, const char *path, const char *engine, gb_tj_seen_t *seen,
                    gb_triage_result_t *res)
{
    res->inputs++;
    uint8_t *data;
    size_t len;
    gb_err_t re;
    if (gb_read_file_at(AT_FDCWD, path, GB_MAX_INPUT, &data, &len, &re) != 0) {
        res->errors++;
        return note(res, path, re.msg);
    }
    char sha[41];
    gb_sha1_hex(data, len, sha);
    gb_free(data);
    if (gb_hset_has(&seen->set, gb_tj_sha_key(sha)) || gb_hset_has(&p->now, gb_tj_sha_key(sha))) {
        res->duplicates++;
        return 0;
    }
    if (gb_hset_add(&p->now, gb_tj_sha_key(sha)) < 0 ||
        gb_grow(p->todo, &p->cap, *p->ntodo + 1, sizeof **p->todo, 64) != 0)
        return -1;
    todo_t *t = &(*p->todo)[(*p->ntodo)++];
    memset(t, 0, sizeof *t);
    if (!(t->path = absolute(path)))
        return -1;
    memcpy(t->sha1, sha, sizeof sha);
    t->size = len;
    t->engine = engine;
    return 0;
}

/* Reads and hashes each input, then each of `extra` (the reproducers of
 * damaged buckets); the ones not triaged before go to todo. */
static int plan(const gb_triage_inputs_t *in, char **extra, size_t nextra, gb_tj_seen_t *seen,
                gb_triage_result_t *res, todo_t **todo, size_t *ntodo, gb_err_t *e)
{
    planner_t p = {.todo = todo, .ntodo = ntodo};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < in->n; i++) {
        const gb_triage_input_t *x = &in->v[i];
        if (x->skip) {
            res->skipped++;
            char what[128];
            snprintf(what, sizeof what, "skipped: %s", x->skip);
            rc = note(res, x->path, what);
            continue;
        }
        rc = plan_one(&p, x->path, x->engine, seen, res);
    }
    for (size_t i = 0; rc == 0 && i < nextra; i++)
        rc = plan_one(&p, extra[i], "plain", seen, res);
    gb_hset_free(&p.now);
    return rc ? gb_err_set(e, "out of memory planning the triage") : 0;
}

/* ---- workers ---------------------------------------------------------------------- */

static json_object *run_json(const gb_crash_t *c)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "crashed", json_object_new_boolean(c->crashed));
    json_object_object_add(o, "type", json_object_new_string(c->type));
    json_object_object_add(o, "detail", json_object_new_string(c->detail));
    json_object_object_add(o, "state", json_object_new_string(c->state));
    json_object_object_add(o, "status", json_object_new_string(gb_tj_status_name(c->run.status)));
    json_object_object_add(o, "signal", json_object_new_int(c->run.signal));
    json_object_object_add(o, "exit_code", json_object_new_int(c->run.exit_code));
    json_object_object_add(o, "time_us", json_object_new_int64((int64_t)c->run.time_us));
    return o;
}

/* Runs one input `runs` times: {"i","runs":[...],"frames","report"} with
 * the frames and report of the first crashing run, or {"i","error"}. */
static json_object *triage_one(gb_crash_runner_t *r, const todo_t *t, size_t i, unsigned runs)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "i", json_object_new_int64((int64_t)i));
    uint8_t *data;
    size_t len;
    gb_err_t e;
    if (gb_read_file_at(AT_FDCWD, t->path, GB_MAX_INPUT, &data, &len, &e) != 0) {
        json_object_object_add(o, "error", json_object_new_string(e.msg));
        return o;
    }
    json_object *arr = json_object_new_array();
    json_object_object_add(o, "runs", arr);
    int have_first = 0;
    gb_crash_runner_info_t info;
    gb_crash_runner_info(r, &info);
    for (unsigned k = 0; k < runs; k++) {
        gb_crash_t c;
        if (gb_crash_probe(r, data, len, &c, &e) != 0) {
            json_object_object_add(o, "error", json_object_new_string(e.msg));
            break;
        }
        json_object_array_add(arr, run_json(&c));
        if (c.crashed && !have_first) {
            have_first = 1;
            json_object_object_add(o, "frames",
                                   gb_tj_frames_json(c.frames, c.nframes, info.state_frames));
            if (c.report)
                json_object_object_add(o, "report", json_object_new_string(c.report));
        }
        gb_crash_clear(&c);
    }
    gb_free(data);
    return o;
}

/* Opens REPORT/.work/`name` afresh for a worker's lines: a file left
 * there (or a symlink planted there) is removed, never written through,
 * and the new one is created O_EXCL. */
static FILE *open_results(int wfd, const char *name, gb_err_t *e)
{
    gb_file_remove_at(wfd, name);
    int fd = gb_file_open_at(wfd, name, GB_OPEN_NEW, e);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !f) {
        close(fd);
        gb_err_sys(e, "cannot write %s", name);
    }
    return f;
}

/* Inputs k, k+step, ... of todo into REPORT/.work/`out` as JSON lines.
 * Each input done is a byte on tick_fd (a forked worker's progress), or
 * a call of o->progress (in this process; tick_fd < 0). */
static int worker(gb_crash_runner_t *r, const todo_t *todo, size_t n, size_t k, size_t step,
                  unsigned runs, int wfd, const char *out, int tick_fd, const gb_triage_opts_t *o,
                  gb_err_t *e)
{
    FILE *f = open_results(wfd, out, e);
    if (!f)
        return -1;
    for (size_t i = k; i < n; i += step) {
        json_object *jo = triage_one(r, &todo[i], i, runs);
        fprintf(f, "%s\n", json_object_to_json_string_ext(jo, JSON_C_TO_STRING_PLAIN));
        fflush(f);
        json_object_put(jo);
        if (tick_fd >= 0) {
            ssize_t w = write(tick_fd, "", 1);
            (void)w; /* progress only: a lost tick changes no result */
        } else if (o->progress) {
            o->progress(o->progress_ctx, i + 1, n);
        }
    }
    return fclose(f) == 0 ? 0 : gb_err_sys(e, "cannot write %s", out);
}

/* Reads a worker's lines (REPORT/.work/`name`, regular files only) into
 * todo[].result. */
static void read_results(int wfd, const char *name, todo_t *todo, size_t n)
{
    uint8_t *data;
    size_t len;
    gb_err_t e;
    if (gb_read_file_at(wfd, name, GB_RESULTS_MAX_BYTES, &data, &len, &e) != 0)
        return;
    for (size_t at = 0; at < len;) {
        const char *line = (const char *)data + at;
        const char *nl = memchr(line, '\n', len - at);
        size_t ll = nl ? (size_t)(nl - line) : len - at;
        json_tokener *tok = json_tokener_new();
        json_object *o = tok && ll ? json_tokener_parse_ex(tok, line, (int)ll) : NULL;
        if (tok)
            json_tokener_free(tok);
        int64_t i = gb_tj_int(o, "i", -1);
        if (i >= 0 && (size_t)i < n && !todo[i].result)
            todo[i].result = o;
        else
            json_object_put(o);
        at += ll + 1;
    }
    gb_free(data);
}

static gb_crash_target_t target_in(const gb_triage_opts_t *o, const char *work)
{
    gb_crash_target_t t = o->target;
    t.work_dir = work;
    return t;
}

/* Counts the workers' progress bytes until every worker has closed the
 * pipe (exited). */
static void follow_ticks(const gb_triage_opts_t *o, int rd, size_t n)
{
    size_t done = 0;
    char buf[256];
    for (;;) {
        ssize_t got = read(rd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        done += (size_t)got;
        if (o->progress)
            o->progress(o->progress_ctx, done < n ? done : n, n);
    }
}

/* The report's directories, open; each below REPORT is opened without
 * following a symlink (gb_dir_openat). */
typedef struct dirs {
    int report, work, tmp, main_work;
    char path[PATH_MAX];           /* REPORT as the user named it */
    char work_path[PATH_MAX + 16]; /* REPORT/.work */
} dirs_t;

/* REPORT/.work/jobK, made (or checked to be a real directory) before its
 * runner puts its input and the sanitizers' logs there. */
static int job_dir(const dirs_t *d, size_t k, char *path, size_t cap, gb_err_t *e)
{
    char name[32];
    snprintf(name, sizeof name, "job%zu", k);
    int fd = gb_dir_openat(d->work, name, 1, e);
    if (fd < 0)
        return -1;
    close(fd);
    snprintf(path, cap, "%s/%s", d->work_path, name);
    return 0;
}

/* One forked worker: its own runner in REPORT/.work/jobK; never returns. */
static void work_child(const gb_triage_opts_t *o, const dirs_t *d, todo_t *todo, size_t n, size_t k,
                       size_t jobs, unsigned runs, int tick_fd)
{
    char work[PATH_MAX + 64], out[32];
    snprintf(out, sizeof out, "job%zu.jsonl", k);
    gb_crash_runner_t *r = NULL;
    gb_err_t we;
    int ok = job_dir(d, k, work, sizeof work, &we) == 0;
    gb_crash_target_t t = target_in(o, work);
    ok = ok && gb_crash_runner_new(&t, &r, &we) == 0 &&
         worker(r, todo, n, k, jobs, runs, d->work, out, tick_fd, o, &we) == 0;
    gb_crash_runner_free(r);
    _exit(ok ? 0 : 1);
}

/* Forks `jobs` workers, each with its own runner and work dir. */
static int run_forked(const gb_triage_opts_t *o, const dirs_t *d, todo_t *todo, size_t n,
                      size_t jobs, unsigned runs, gb_err_t *e)
{
    int ticks[2];
    pid_t *pids = gb_calloc(jobs, sizeof *pids);
    if (!pids)
        return gb_err_set(e, "out of memory starting workers");
    /* Close-on-exec: targets and symbolizers must not keep it open. */
    if (pipe2(ticks, O_CLOEXEC) != 0) {
        gb_free(pids);
        return gb_err_sys(e, "pipe for the workers' progress");
    }
    char out[32];
    for (size_t k = 0; k < jobs; k++) {
        /* A result file of an earlier run must not be read as this one's. */
        snprintf(out, sizeof out, "job%zu.jsonl", k);
        gb_file_remove_at(d->work, out);
        pids[k] = fork();
        if (pids[k] == 0) {
            close(ticks[0]);
            work_child(o, d, todo, n, k, jobs, runs, ticks[1]);
        }
    }
    close(ticks[1]);
    follow_ticks(o, ticks[0], n);
    close(ticks[0]);
    for (size_t k = 0; k < jobs; k++) {
        while (pids[k] > 0 && waitpid(pids[k], NULL, 0) < 0 && errno == EINTR)
            ;
        snprintf(out, sizeof out, "job%zu.jsonl", k);
        read_results(d->work, out, todo, n);
    }
    gb_free(pids);
    return 0;
}

/* ---- buckets ---------------------------------------------------------------------- */

static gb_bucket_t *find_bucket(gb_triage_result_t *res, const char *id)
{
    for (size_t i = 0; i < res->nbuckets; i++)
        if (strcmp(res->buckets[i].id, id) == 0)
            return &res->buckets[i];
    return NULL;
}

static gb_bucket_t *new_bucket(gb_triage_result_t *res, const char *id, const char *type,
                               const char *state)
{
    unsigned frames = res->info.state_frames;
    if (gb_grow(&res->buckets, &res->capb, res->nbuckets + 1, sizeof *res->buckets, 8) != 0)
        return NULL;
    gb_bucket_t *b = &res->buckets[res->nbuckets++];
    memset(b, 0, sizeof *b);
    snprintf(b->id, sizeof b->id, "%s", id);
    snprintf(b->type, sizeof b->type, "%s", type);
    snprintf(b->state, sizeof b->state, "%s", state);
    b->state_frames = frames;
    b->first_ms = gb_time_ms();
    b->is_new = 1;
    return b;
}

/* The reproducer's crash becomes the bucket's: frames, report, run. */
static int take_crash(gb_bucket_t *b, const todo_t *t, json_object *first, int flaky)
{
    json_object *fr = NULL, *rep = NULL;
    json_object_object_get_ex(t->result, "frames", &fr);
    json_object_object_get_ex(t->result, "report", &rep);
    gb_frame_t *frames = NULL;
    size_t n = 0;
    char *report = rep ? gb_strdup(json_object_get_string(rep)) : NULL;
    char *path = gb_strdup(t->path);
    if ((fr && gb_tj_frames_from_json(fr, &frames, &n) != 0) || (rep && !report) || !path) {
        gb_free(frames);
        gb_free(report);
        gb_free(path);
        return -1;
    }
    gb_free(b->frames);
    gb_free(b->report);
    gb_free(b->repro_path);
    b->frames = frames;
    b->nframes = n;
    b->report = report;
    b->repro_path = path;
    b->repro_flaky = flaky;
    b->repro_size = t->size;
    snprintf(b->detail, sizeof b->detail, "%s", gb_tj_str(first, "detail", b->type));
    b->run.status = gb_tj_status_of(gb_tj_str(first, "status", "crash"));
    b->run.signal = (int)gb_tj_int(first, "signal", 0);
    b->run.exit_code = (int)gb_tj_int(first, "exit_code", 0);
    b->run.time_us = (uint64_t)gb_tj_int(first, "time_us", 0);
    return 0;
}

/* Adds a crashing input to its bucket; a smaller (or first reliable)
 * input becomes the reproducer. */
static int add_to_bucket(gb_triage_result_t *res, const todo_t *t, json_object *first, int flaky,
                         const char **id_out)
{
    const char *type = gb_tj_str(first, "type", ""), *state = gb_tj_str(first, "state", "");
    char id[17];
    gb_bucket_id(type, state, id);
    gb_bucket_t *b = find_bucket(res, id);
    if (!b && !(b = new_bucket(res, id, type, state)))
        return -1;
    *id_out = b->id;
    /* Already one of its inputs (an index that lost it, rebuilt): the
     * same bytes are never counted twice. */
    for (size_t i = 0; i < b->ninputs; i++)
        if (strcmp(b->inputs[i].sha1, t->sha1) == 0)
            return 0;
    if (gb_grow(&b->inputs, &b->cap, b->ninputs + 1, sizeof *b->inputs, 8) != 0)
        return -1;
    gb_bucket_input_t *x = &b->inputs[b->ninputs];
    memset(x, 0, sizeof *x);
    if (!(x->path = gb_strdup(t->path)))
        return -1;
    memcpy(x->sha1, t->sha1, sizeof x->sha1);
    x->size = t->size;
    x->flaky = flaky;
    x->seen_ms = gb_time_ms();
    snprintf(x->engine, sizeof x->engine, "%s", t->engine ? t->engine : "plain");
    snprintf(x->detail, sizeof x->detail, "%s", gb_tj_str(first, "detail", type));
    b->ninputs++;
    b->last_ms = x->seen_ms;
    b->dirty = 1;
    b->flaky = 1;
    for (size_t i = 0; i < b->ninputs; i++)
        b->flaky &= b->inputs[i].flaky;
    int better = !b->repro_path || (b->repro_flaky && !flaky) ||
                 (b->repro_flaky == flaky && t->size < b->repro_size);
    if (better) {
        if (take_crash(b, t, first, flaky) != 0)
            return -1;
        b->new_repro = 1;
    }
    *id_out = b->id;
    return 0;
}

/* Classifies one worker result; 0 or -1 (out of memory). */
static int apply(gb_triage_result_t *res, gb_tj_seen_t *seen, const todo_t *t, unsigned runs)
{
    json_object *o = t->result, *arr = NULL;
    const char *err = o ? gb_tj_str(o, "error", NULL) : "the worker running it died";
    if (err) {
        res->errors++;
        return note(res, t->path, err);
    }
    json_object_object_get_ex(o, "runs", &arr);
    size_t n = arr ? json_object_array_length(arr) : 0, crashed = 0, same = 0;
    json_object *first = NULL;
    for (size_t k = 0; k < n; k++) {
        json_object *run = json_object_array_get_idx(arr, k);
        if (!json_object_get_boolean(json_object_object_get(run, "crashed")))
            continue;
        crashed++;
        if (!first)
            first = run;
        same += strcmp(gb_tj_str(run, "type", ""), gb_tj_str(first, "type", "")) == 0 &&
                strcmp(gb_tj_str(run, "state", ""), gb_tj_str(first, "state", "")) == 0;
    }
    uint64_t now = gb_time_ms();
    if (!first) {
        res->no_crash++;
        if (note(res, t->path, "no longer crashes") != 0)
            return -1;
        return gb_tj_seen_add(seen, t->sha1, "no-crash", t->path, now);
    }
    int flaky = crashed < runs || same < crashed;
    res->crashed++;
    res->flaky += (size_t)flaky;
    const char *id;
    if (add_to_bucket(res, t, first, flaky, &id) != 0)
        return -1;
    return gb_tj_seen_add(seen, t->sha1, id, t->path, now);
}

/* ---- minimisation ------------------------------------------------------------------ */

static int copy_input(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len, gb_err_t *e)
{
    *out = gb_malloc(len ? len : 1);
    if (!*out)
        return gb_err_set(e, "out of memory minimising a reproducer");
    memcpy(*out, in, len);
    *out_len = len;
    return 0;
}

/* The bucket's reproducer shrunk by tmin in crash mode (triage/tmin.c):
 * the smallest input found that still crashes with the bucket's (type,
 * state); the caller frees it. A flaky reproducer is copied: shrinking
 * against a crash that comes and goes would chase noise. write_bucket()
 * checks the result replays the bucket's crash and falls back to the copy
 * when it does not. */
static int minimise(gb_crash_runner_t *r, const gb_bucket_t *b, const uint8_t *in, size_t len,
                    uint8_t **out, size_t *out_len, gb_err_t *e)
{
    if (b->repro_flaky)
        return copy_input(in, len, out, out_len, e);
    gb_tmin_crash_t *keep;
    if (gb_tmin_crash_keep(r, b->type, b->state, &keep, e) != 0)
        return -1;
    gb_tmin_opts_t o = {.pred = gb_tmin_crash_pred, .ctx = keep};
    gb_tmin_stats_t st;
    int rc = gb_tmin(&o, in, len, out, out_len, &st, e);
    gb_tmin_crash_free(keep);
    return rc;
}

/* 1 when `in` crashes with the bucket's (type, state). */
static int keeps_crash(gb_crash_runner_t *r, const gb_bucket_t *b, const uint8_t *in, size_t len)
{
    gb_crash_t c;
    gb_err_t e;
    if (gb_crash_probe(r, in, len, &c, &e) != 0)
        return 0;
    int same = c.crashed && strcmp(c.type, b->type) == 0 && strcmp(c.state, b->state) == 0;
    gb_crash_clear(&c);
    return same;
}

/* Writes one changed bucket: the reproducer (and its minimised form) when
 * it changed, the metadata always. */
static int write_bucket(const gb_report_ctx_t *c, gb_crash_runner_t *r, gb_bucket_t *b, int no_min,
                        gb_err_t *e)
{
    uint8_t *data = NULL, *min = NULL;
    size_t len = 0, min_len = 0;
    int rc = 0;
    if (b->new_repro) {
        if (gb_read_file_at(AT_FDCWD, b->repro_path, GB_MAX_INPUT, &data, &len, e) != 0)
            return -1;
        if (no_min || minimise(r, b, data, len, &min, &min_len, e) != 0) {
            if (!no_min) {
                gb_free(data);
                return -1;
            }
            min = NULL;
        }
        /* A minimised input that does not replay the bucket's crash is
         * worth less than the original: the copy is kept instead. */
        if (min && (min_len != len || memcmp(min, data, len) != 0) &&
            !keeps_crash(r, b, min, min_len)) {
            gb_free(min);
            min = NULL;
        }
        b->repro_size = len;
        b->min_size = min ? min_len : len;
    }
    rc = gb_report_bucket(c, b, data, len, min ? min : data, min ? min_len : len, e);
    gb_free(min);
    gb_free(data);
    b->new_repro = 0;
    return rc;
}

/* ---- the run ----------------------------------------------------------------------- */

static int by_first_seen(const void *a, const void *b)
{
    const gb_bucket_t *x = a, *y = b;
    if (x->first_ms != y->first_ms)
        return x->first_ms < y->first_ms ? -1 : 1;
    return strcmp(x->id, y->id);
}

static void warn(gb_triage_result_t *res, const char *msg)
{
    if (res->nwarnings >= sizeof res->warnings / sizeof res->warnings[0])
        return;
    /* Cut to fit (a long path makes a long message; the start says it). */
    size_t n = strlen(msg), cap = sizeof res->warnings[0];
    n = n < cap ? n : cap - 1;
    memcpy(res->warnings[res->nwarnings], msg, n);
    res->warnings[res->nwarnings++][n] = '\0';
}

/* Opens REPORT (creating it; report_sub's components never through a
 * symlink) and .work, .tmp and .work/main below it, each refused if it is
 * a symlink: a peer that plants one gets a one-line error, not our files. */
static int setup_dirs(const gb_triage_opts_t *o, dirs_t *d, gb_err_t *e)
{
    memset(d, 0, sizeof *d);
    d->report = d->work = d->tmp = d->main_work = -1;
    if (o->report_sub)
        snprintf(d->path, sizeof d->path, "%s/%s", o->report_dir, o->report_sub);
    else
        snprintf(d->path, sizeof d->path, "%s", o->report_dir);
    snprintf(d->work_path, sizeof d->work_path, "%s/.work", d->path);
    gb_err_t sub;
    if ((d->report = gb_dir_open(o->report_dir, o->report_sub, 1, &sub)) < 0 ||
        (d->work = gb_dir_openat(d->report, ".work", 1, &sub)) < 0 ||
        (d->tmp = gb_dir_openat(d->report, ".tmp", 1, &sub)) < 0 ||
        (d->main_work = gb_dir_openat(d->work, "main", 1, &sub)) < 0)
        return gb_err_set(e, "report %s: %s", d->path, sub.msg);
    if (faccessat(d->report, ".", W_OK, 0) != 0)
        return gb_err_sys(e, "cannot write to %s", d->path);
    return 0;
}

static void close_dirs(dirs_t *d)
{
    int *fds[] = {&d->report, &d->work, &d->tmp, &d->main_work};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        if (*fds[i] >= 0) {
            close(*fds[i]);
            *fds[i] = -1;
        }
}

/* REPORT/.lock, held while this triage runs: two triages writing one
 * report would each rewrite summary.json and .seen without the other's
 * inputs. The lock goes with the process, however it ends. */
static int lock_report(const dirs_t *d, int *fd, gb_err_t *e)
{
    gb_err_t sub;
    *fd = gb_file_open_at(d->report, ".lock", GB_OPEN_APPEND, &sub);
    if (*fd < 0)
        return gb_err_set(e, "report %s: %s", d->path, sub.msg);
    if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        int busy = errno == EWOULDBLOCK;
        gb_err_sys(e, "cannot lock %s/.lock", d->path);
        if (busy)
            gb_err_set(e, "another glassbox triage is writing %s", d->path);
        close(*fd);
        *fd = -1;
        return -1;
    }
    return 0;
}

static void add_warnings(gb_triage_result_t *res, const gb_triage_inputs_t *in)
{
    if (!res->info.asan && !res->info.ubsan)
        warn(res, "the binary has no sanitizer: crashes are told apart by signal only, "
                  "without a stack (build it with glassbox build: NAME.asan)");
    if (!res->info.symbolizer)
        warn(res, "no llvm-symbolizer: frames are module+offset, states may split "
                  "or merge differently");
    char msg[256];
    for (size_t i = 0; i < in->nmissing; i++) {
        snprintf(msg, sizeof msg, "input path %s does not exist or cannot be read", in->missing[i]);
        warn(res, msg);
        note(res, in->missing[i], "missing: does not exist or cannot be read");
    }
    for (size_t i = 0; i < in->nempty; i++)
        note(res, in->empty[i], "empty: no input files");
}

/* Runs the todo list: inline with the main runner, or in forked workers. */
static int run_all(const gb_triage_opts_t *o, const dirs_t *d, gb_crash_runner_t *r, todo_t *todo,
                   size_t n, unsigned runs, gb_err_t *e)
{
    size_t jobs = o->jobs ? o->jobs : 1;
    if (jobs > n)
        jobs = n;
    if (jobs <= 1) {
        if (worker(r, todo, n, 0, 1, runs, d->work, "job0.jsonl", -1, o, e) != 0)
            return -1;
        read_results(d->work, "job0.jsonl", todo, n);
        return 0;
    }
    return run_forked(o, d, todo, n, jobs, runs, e);
}

/* Writes each changed bucket; one that cannot be written (its directory
 * is a symlink a peer planted, say) is a warning, and the others and the
 * summary are still written. */
static void write_buckets(const gb_report_ctx_t *c, gb_crash_runner_t *r, gb_triage_result_t *res,
                          int no_min)
{
    for (size_t i = 0; i < res->nbuckets; i++) {
        gb_err_t be;
        if (res->buckets[i].dirty && write_bucket(c, r, &res->buckets[i], no_min, &be) != 0)
            warn(res, be.msg);
    }
}

static int write_all(const gb_triage_opts_t *o, const dirs_t *d, const char *report,
                     gb_crash_runner_t *r, gb_triage_result_t *res, gb_tj_seen_t *seen, gb_err_t *e)
{
    char bin[PATH_MAX];
    if (!realpath(o->target.bin, bin))
        snprintf(bin, sizeof bin, "%s", o->target.bin);
    gb_report_ctx_t c = {.dir = report,
                         .dirfd = d->report,
                         .tmpfd = d->tmp,
                         .bin = bin,
                         .args = o->target.args,
                         .nargs = o->target.nargs,
                         .timeout_ms =
                             o->target.timeout_ms ? o->target.timeout_ms : GB_TRIAGE_TIMEOUT_MS,
                         .info = &res->info};
    gb_err_t ignored;
    gb_elf_build_id(bin, c.build_id, &ignored);
    if (res->nbuckets > 1)
        qsort(res->buckets, res->nbuckets, sizeof *res->buckets, by_first_seen);
    write_buckets(&c, r, res, o->no_minimise);
    res->triaged = seen->n;
    for (size_t i = 0; i < seen->n; i++)
        res->triaged_no_crash += strcmp(seen->v[i].outcome, "no-crash") == 0;
    if (gb_tj_seen_save(seen, d->report, d->tmp, e) != 0 || gb_report_summary(&c, res, e) != 0 ||
        gb_report_sarif(&c, res, e) != 0)
        return -1;
    return 0;
}

/* ---- damage: the buckets are the truth ---------------------------------------------- */

/* A bucket of another rule leaves the report's buckets: REPORT/<id>
 * becomes REPORT/.retired/<id> (a name taken there gets a suffix), kept
 * for the user, its input run again from there. Its name into sub. */
static int retire_bucket(const dirs_t *d, const char *id, char *sub, size_t cap)
{
    gb_err_t re;
    int rfd = gb_dir_openat(d->report, ".retired", 1, &re);
    if (rfd < 0)
        return -1;
    char name[40];
    snprintf(name, sizeof name, "%s", id);
    for (int k = 1; k < 1000 && faccessat(rfd, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0; k++)
        snprintf(name, sizeof name, "%s.%d", id, k);
    /* gb-write-ok: renameat moves the name itself, never through a link */
    int rc = renameat(d->report, id, rfd, name);
    close(rfd);
    snprintf(sub, cap, ".retired/%s", name);
    return rc;
}

/* Warns of each damaged bucket and lists the reproducers it left
 * (REPORT/<id>/input) to run again, so the bucket is rebuilt even when
 * its original inputs are gone. */
static int rebuild_list(const dirs_t *d, gb_triage_result_t *res, char ***extra, size_t *n)
{
    char msg[512];
    *extra = gb_calloc(res->ndamaged + 1, sizeof **extra);
    if (!*extra)
        return -1;
    *n = 0;
    for (size_t i = 0; i < res->ndamaged; i++) {
        const gb_damaged_t *x = &res->damaged[i];
        snprintf(msg, sizeof msg, "bucket %s: %s: rebuilt from its inputs", x->id, x->why);
        warn(res, msg);
        int bfd = gb_dir_openat(d->report, x->id, 0, &(gb_err_t){{0}});
        if (bfd < 0)
            continue; /* a symlink: nothing of it is read */
        close(bfd);
        char sub[64];
        snprintf(sub, sizeof sub, "%s", x->id);
        if (x->retire && retire_bucket(d, x->id, sub, sizeof sub) != 0) {
            snprintf(msg, sizeof msg, "bucket %s: cannot move it to .retired: %s", x->id,
                     strerror(errno));
            warn(res, msg);
            continue;
        }
        size_t len = strlen(d->path) + 80;
        if (!((*extra)[*n] = gb_malloc(len)))
            return -1;
        snprintf((*extra)[(*n)++], len, "%s/%s/input", d->path, sub);
    }
    return 0;
}

/* Loads the index and the buckets and repairs what disagrees. */
static int load_state(const dirs_t *d, gb_tj_seen_t *seen, gb_triage_result_t *res, char ***extra,
                      size_t *nextra, gb_err_t *e)
{
    int seen_damaged;
    if (gb_tj_seen_load(seen, d->report, &seen_damaged, e) != 0 ||
        gb_report_load_at(d->report, res, e) != 0)
        return -1;
    if (seen_damaged)
        warn(res, ".seen is damaged (lines that are not Glassbox's): rebuilt from the buckets");
    gb_tj_seen_forget_lost(seen, res);
    if (gb_tj_seen_merge(seen, res) != 0 || rebuild_list(d, res, extra, nextra) != 0)
        return gb_err_set(e, "out of memory loading the report");
    return 0;
}

int gb_triage_run(const gb_triage_opts_t *o, const gb_triage_inputs_t *in, gb_triage_result_t *res,
                  gb_err_t *e)
{
    memset(res, 0, sizeof *res);
    unsigned runs = o->runs ? o->runs : GB_TRIAGE_RUNS;
    dirs_t d;
    gb_tj_seen_t seen = {0};
    todo_t *todo = NULL;
    char **extra = NULL;
    size_t ntodo = 0, nextra = 0;
    gb_crash_runner_t *r = NULL;
    int rc = -1;
    char report[PATH_MAX], main_work[PATH_MAX + 32];
    int lock_fd = -1;
    if (setup_dirs(o, &d, e) != 0 || lock_report(&d, &lock_fd, e) != 0)
        goto out;
    if (!realpath(d.path, report)) {
        gb_err_sys(e, "cannot resolve %s", d.path);
        goto out;
    }
    snprintf(main_work, sizeof main_work, "%s/main", d.work_path);
    gb_crash_target_t t = target_in(o, main_work);
    if (t.timeout_ms == 0)
        t.timeout_ms = GB_TRIAGE_TIMEOUT_MS;
    gb_triage_opts_t oo = *o;
    oo.target.timeout_ms = t.timeout_ms;
    if (gb_crash_runner_new(&t, &r, e) != 0)
        goto out;
    gb_crash_runner_info(r, &res->info);
    add_warnings(res, in);
    if (load_state(&d, &seen, res, &extra, &nextra, e) != 0 ||
        plan(in, extra, nextra, &seen, res, &todo, &ntodo, e) != 0 ||
        run_all(&oo, &d, r, todo, ntodo, runs, e) != 0)
        goto out;
    res->ran = ntodo;
    for (size_t i = 0; i < ntodo; i++)
        if (apply(res, &seen, &todo[i], runs) != 0) {
            gb_err_set(e, "out of memory bucketing crashes");
            goto out;
        }
    gb_triage_group(res);
    rc = write_all(&oo, &d, report, r, res, &seen, e);
out:
    for (size_t i = 0; i < ntodo; i++) {
        json_object_put(todo[i].result);
        gb_free(todo[i].path);
    }
    for (size_t i = 0; i < nextra; i++)
        gb_free(extra[i]);
    gb_free(extra);
    gb_free(todo);
    gb_tj_seen_free(&seen);
    gb_crash_runner_free(r);
    if (lock_fd >= 0)
        close(lock_fd);
    close_dirs(&d);
    /* The info's option strings lived in the runner. */
    res->info.sanitizer_env[0] = res->info.sanitizer_env[1] = NULL;
    return rc;
}

void gb_triage_result_free(gb_triage_result_t *res)
{
    if (!res)
        return;
    for (size_t i = 0; i < res->nbuckets; i++) {
        gb_bucket_t *b = &res->buckets[i];
        for (size_t k = 0; k < b->ninputs; k++)
            gb_free(b->inputs[k].path);
        gb_free(b->inputs);
        gb_free(b->frames);
        gb_free(b->report);
        gb_free(b->repro_path);
    }
    for (size_t i = 0; i < res->nnotes; i++) {
        gb_free(res->notes[i].path);
        gb_free(res->notes[i].what);
    }
    gb_free(res->buckets);
    gb_free(res->notes);
    gb_free(res->damaged);
    memset(res, 0, sizeof *res);
}
