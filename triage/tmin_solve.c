/* SPDX-License-Identifier: Apache-2.0 */
/* tmin's solver-assisted step (--trace): the trace of the input says which
 * bytes its path constraint reads. Unread bytes go in one or two runs;
 * read bytes are zeroed while the path constraint still holds, checked by
 * concrete evaluation and repaired by the solver, then by the predicate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_config.h"
#include "gb_files.h"
#include "symbolic.h"
#include "tmin_int.h"

#define NORM GB_TMIN_NORM_BYTE

typedef struct solve {
    gb_tmin_ctx_t *c;
    char in_path[4096], trace_path[4096];
    gb_solver_t *solver;
    gb_trace_t *t0;     /* trace of the current input */
    gb_pc_info_t *path; /* its entries, the path candidates must keep */
    size_t npcs;
    uint8_t *read;  /* read[i]: the path constraint reads byte i */
    uint64_t evals; /* concrete evaluations left (GB_TMIN_EVAL_BUDGET) */
    int kept_any;   /* a candidate of the step kept the property */
} solve_t;

/* Traces `in`; NULL when the trace build wrote nothing usable (e says why
 * only when it could not be started: *fatal). */
static gb_trace_t *trace_of(solve_t *s, const uint8_t *in, size_t len, int *fatal, gb_err_t *e)
{
    const gb_tmin_opts_t *o = s->c->o;
    *fatal = 0;
    if (gb_write_path(s->in_path, in, len, e) != 0) {
        *fatal = 1;
        return NULL;
    }
    gb_trace_run_opts_t to = {.bin = o->trace_bin,
                              .args = o->args,
                              .nargs = o->nargs,
                              .input = s->in_path,
                              .trace_out = s->trace_path,
                              .timeout_ms = o->trace_timeout_ms
                                                ? o->trace_timeout_ms
                                                : GB_TRACE_TIMEOUT_MS(GB_RUN_TIMEOUT_MS),
                              .mem_limit_mb = o->mem_limit_mb};
    gb_run_result_t r;
    if (gb_trace_run(&to, &r, e) != 0) {
        *fatal = 1;
        return NULL;
    }
    s->c->st->traces++;
    gb_trace_t *t = NULL;
    gb_err_t le;
    if (access(s->trace_path, F_OK) != 0 ||
        gb_trace_load(s->trace_path, GB_TRACE_PREFIX_OK, &t, &le) != 0)
        return NULL;
    return t;
}

/* Marks the bytes the path constraint reads: its SMT-LIB2 form declares
 * exactly those (bK for byte K; lenK, the length variable, is not a byte). */
static int mark_read(solve_t *s, gb_err_t *e)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (!f)
        return gb_err_sys(e, "open_memstream");
    int rc = gb_trace_print_smt2(s->t0, f, e);
    fclose(f);
    if (rc != 0) {
        free(text);
        return -1;
    }
    for (char *p = text; (p = strstr(p, "(declare-const ")) != NULL;) {
        p += strlen("(declare-const ");
        if (p[0] == 'b') {
            unsigned long long k = strtoull(p + 1, NULL, 10);
            if (k < s->c->len)
                s->read[k] = 1;
        }
    }
    free(text);
    return 0;
}

/* Loads the trace of the current input and what it reads. 0 also when no
 * trace came (s->t0 stays NULL). */
static int load_current(solve_t *s, gb_err_t *e)
{
    gb_trace_free(s->t0);
    gb_free(s->path);
    s->path = NULL;
    s->npcs = 0;
    int fatal;
    s->t0 = trace_of(s, s->c->buf, s->c->len, &fatal, e);
    if (!s->t0)
        return fatal ? -1 : 0;
    gb_trace_info_t info;
    gb_trace_get_info(s->t0, &info);
    s->npcs = info.pcs;
    s->path = gb_calloc(s->npcs ? s->npcs : 1, sizeof *s->path);
    gb_free(s->read);
    s->read = gb_calloc(s->c->len ? s->c->len : 1, 1);
    if (!s->path || !s->read)
        return gb_err_set(e, "out of memory");
    for (size_t j = 0; j < s->npcs; j++)
        gb_trace_get_pc(s->t0, j, &s->path[j]);
    return mark_read(s, e);
}

/* Tries the candidate in c->scratch; takes it when kept. */
static int try_scratch(solve_t *s, size_t len, int *kept, gb_err_t *e)
{
    uint64_t runs = s->c->st->runs;
    int r = gb_tmin_try(s->c, s->c->scratch, len, e);
    s->c->st->solver_runs += s->c->st->runs - runs; /* repeats are not runs */
    if (r < 0)
        return -1;
    if (r)
        gb_tmin_take(s->c, s->c->scratch, len);
    s->kept_any |= r;
    *kept = r;
    return 0;
}

/* Step 1: the bytes no entry reads. Deleting them all keeps every read
 * byte's value but moves it, which a path constraint that reads neither
 * offsets nor the length may allow; else the tail past the last read byte
 * (a length that is only compared with a bound often allows it); else
 * they become '0'. At most three runs. */
static int drop_unread(solve_t *s, int *deleted, gb_err_t *e)
{
    gb_tmin_ctx_t *c = s->c;
    size_t last = 0, nread = 0, kept_n = 0;
    int kept = 0;
    *deleted = 0;
    for (size_t i = 0; i < c->len; i++)
        if (s->read[i]) {
            nread++;
            last = i + 1;
        }
    if (nread == c->len)
        return 0;
    for (size_t i = 0; i < c->len; i++)
        if (s->read[i])
            c->scratch[kept_n++] = c->buf[i];
    if (try_scratch(s, kept_n, &kept, e) != 0)
        return -1;
    if (!kept && last < c->len) {
        memcpy(c->scratch, c->buf, last);
        if (try_scratch(s, last, &kept, e) != 0)
            return -1;
    }
    if (kept) {
        *deleted = 1;
        return 0;
    }
    memcpy(c->scratch, c->buf, c->len);
    for (size_t i = 0; i < c->len; i++)
        if (!s->read[i])
            c->scratch[i] = NORM;
    return try_scratch(s, c->len, &kept, e);
}

/* 1 when every entry of the original path holds on `in` (concrete
 * evaluation, no run), 0 when one does not or the budget is spent. */
static int path_holds(solve_t *s, const uint8_t *in, size_t len, size_t *first_bad)
{
    for (size_t j = 0; j < s->npcs; j++) {
        if (s->evals == 0)
            return 0;
        s->evals--;
        if (gb_trace_eval_pc(s->t0, j, in, len) != 1) {
            if (first_bad)
                *first_bad = j;
            return 0;
        }
    }
    return 1;
}

/* The first entry where trace `t` left the original path, or SIZE_MAX. */
static size_t divergence(const solve_t *s, const gb_trace_t *t)
{
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    for (size_t j = 0; j < s->npcs; j++) {
        if (j >= info.pcs)
            return j;
        gb_pc_info_t pc;
        gb_trace_get_pc(t, j, &pc);
        if (pc.site != s->path[j].site || pc.kind != s->path[j].kind ||
            pc.taken != s->path[j].taken)
            return j;
    }
    return SIZE_MAX;
}

/* 1 when entry j of the original path holds on `x` (one evaluation). */
static int entry_holds(solve_t *s, size_t j, const uint8_t *x, size_t len)
{
    if (s->evals == 0)
        return 0;
    s->evals--;
    return gb_trace_eval_pc(s->t0, j, x, len) == 1;
}

/* 1 when entries 0..j of the original path hold on `x`. */
static int prefix_holds(solve_t *s, size_t j, const uint8_t *x, size_t len)
{
    for (size_t k = 0; k <= j; k++)
        if (!entry_holds(s, k, x, len))
            return 0;
    return 1;
}

/* How many entries of the original path hold on `x`. */
static size_t holding(solve_t *s, const uint8_t *x, size_t len)
{
    size_t n = 0;
    for (size_t j = 0; j < s->npcs && s->evals; j++)
        n += entry_holds(s, j, x, len);
    return n;
}

/* Gives one zeroed byte its original value back when that alone makes
 * entry j hold again (a magic byte, an offset, a pinned address), and a
 * second one with it when the pair makes more of the path hold: "offset <
 * length" holds once the offset's high byte is back, but only both bytes
 * put the record where the rest of the path reads it. 1 done, 0 no single
 * byte does. Evaluation only. */
static int restore_one(solve_t *s, size_t j, uint8_t *x, size_t len)
{
    const uint8_t *orig = s->c->buf;
    size_t n = len < s->c->len ? len : s->c->len;
    for (size_t i = 0; i < n && s->evals; i++) {
        if (x[i] == orig[i])
            continue;
        uint8_t v = x[i];
        x[i] = orig[i];
        if (!entry_holds(s, j, x, len)) {
            x[i] = v;
            continue;
        }
        size_t best = holding(s, x, len), best_k = SIZE_MAX;
        for (size_t k = 0; k < n && s->evals; k++) {
            if (x[k] == orig[k])
                continue;
            uint8_t w = x[k];
            x[k] = orig[k];
            size_t h = entry_holds(s, j, x, len) ? holding(s, x, len) : 0;
            if (h > best) {
                best = h;
                best_k = k;
            }
            x[k] = w;
        }
        if (best_k != SIZE_MAX)
            x[best_k] = orig[best_k];
        return 1;
    }
    return 0;
}

/* Asks the solver to put the candidate back on the original path where
 * its own trace left it; the model's bytes are written over `x`. 1 done,
 * 0 no model (or no divergence to flip), -1 fatal. */
static int solver_repair(solve_t *s, uint8_t *x, size_t *len, gb_err_t *e)
{
    gb_tmin_ctx_t *c = s->c;
    int fatal;
    gb_trace_t *t = trace_of(s, x, *len, &fatal, e);
    if (!t)
        return fatal ? -1 : 0;
    size_t d = divergence(s, t);
    gb_flip_t f;
    memset(&f, 0, sizeof f);
    int fr = -1;
    if (d != SIZE_MAX) {
        gb_solver_set_input(s->solver, x, *len);
        c->st->z3_queries++;
        gb_err_t fe;
        fr = gb_solver_flip(s->solver, t, d, &f, &fe);
        gb_solver_set_input(s->solver, NULL, 0);
    }
    gb_trace_free(t);
    if (fr != 0 || f.status != GB_Q_SAT) {
        gb_flip_clear(&f);
        return 0;
    }
    /* The model's bytes at the same length first: a model that also sets
     * the length variable (any length past a bound would do) would move
     * every fixed offset of the original path. */
    uint8_t *same = gb_malloc(*len + 1);
    if (!same) {
        gb_flip_clear(&f);
        return gb_err_set(e, "out of memory");
    }
    memcpy(same, x, *len);
    for (size_t k = 0; k < f.model.n; k++)
        if (!gbt_is_len_offset(f.model.offsets[k]) && f.model.offsets[k] < *len)
            same[f.model.offsets[k]] = f.model.values[k];
    int kept_len = d < s->npcs && prefix_holds(s, d, same, *len);
    if (kept_len)
        memcpy(x, same, *len);
    gb_free(same);
    if (kept_len) {
        gb_flip_clear(&f);
        return 1;
    }
    /* Else the length it asks for, but never longer: the step is to
     * shrink, and a longer candidate that kept the property would leave
     * the classic passes further to go. */
    size_t nl;
    uint8_t *next = gb_model_apply(x, *len, &f.model, *len, &nl);
    gb_flip_clear(&f);
    if (!next)
        return gb_err_set(e, "out of memory");
    memcpy(x, next, nl);
    *len = nl;
    gb_free(next);
    return 1;
}

/* Step 2a: every read byte '0' at once, then, while the original path
 * constraint (evaluated on the candidate) has an entry that no longer
 * holds: one byte given back its original value when that alone fixes the
 * entry, else the solver asked for the original direction at the first
 * entry where the candidate's own trace left the path (bytes the query
 * does not choose stay '0'): a sum or a length field is recomputed instead
 * of blocking normalisation. Built in `x` (c->cap bytes): 1 when it
 * follows the whole path, 0 when not within GB_TMIN_MAX_REPAIRS solver
 * rounds. */
static int zero_and_repair(solve_t *s, uint8_t *x, size_t *len, gb_err_t *e)
{
    gb_tmin_ctx_t *c = s->c;
    memcpy(x, c->buf, c->len);
    *len = c->len;
    for (size_t i = 0; i < c->len; i++)
        if (s->read[i])
            x[i] = NORM;
    unsigned solved = 0;
    size_t last_bad = 0;
    for (;;) {
        size_t bad = SIZE_MAX;
        if (path_holds(s, x, *len, &bad))
            return 1;
        if (bad == SIZE_MAX)
            return 0; /* out of evaluations */
        if (restore_one(s, bad, x, *len))
            continue;
        /* A repair must move the first broken entry forward: one that
         * leaves it where it was (a checksum the solver cannot meet at
         * the same length) would only spend traces. */
        if (solved++ >= GB_TMIN_MAX_REPAIRS || (solved > 1 && bad <= last_bad))
            return 0;
        last_bad = bad;
        int r = solver_repair(s, x, len, e);
        if (r <= 0)
            return r;
    }
}

/* Step 2b: read bytes zeroed a span at a time, halving a span whose
 * zeroing breaks the path, judged by concrete evaluation alone: bytes
 * that must keep their value keep the original one. */
static void zero_span(solve_t *s, uint8_t *x, size_t at, size_t n)
{
    uint8_t old[GB_TMIN_NORM_BLOCK * 64];
    size_t todo = 0;
    if (n > sizeof old)
        n = sizeof old;
    for (size_t i = at; i < at + n; i++) {
        old[i - at] = x[i];
        if (s->read[i] && x[i] != NORM) {
            x[i] = NORM;
            todo++;
        }
    }
    if (todo == 0 || path_holds(s, x, s->c->len, NULL))
        return;
    memcpy(x + at, old, n);
    if (n > 1 && todo > 1 && s->evals) {
        zero_span(s, x, at, n / 2);
        zero_span(s, x, at + n / 2, n - n / 2);
    }
}

static void zero_greedy(solve_t *s, uint8_t *x)
{
    gb_tmin_ctx_t *c = s->c;
    memcpy(x, c->buf, c->len);
    const size_t span = GB_TMIN_NORM_BLOCK * 64;
    for (size_t at = 0; at < c->len && s->evals; at += span)
        zero_span(s, x, at, c->len - at < span ? c->len - at : span);
}

/* Zeroed bytes: '0' (the classic passes' byte) or NUL (what Z3 picks for
 * a byte it is free to choose). */
static size_t zeros(const uint8_t *x, size_t n)
{
    size_t z = 0;
    for (size_t i = 0; i < n; i++)
        z += x[i] == NORM || x[i] == 0;
    return z;
}

/* Step 2: both candidates are built without a predicate run; the one with
 * more '0' bytes (no longer than the other) is run first, the other only
 * when it is refused. At most two runs. */
static int zero_read(solve_t *s, gb_err_t *e)
{
    gb_tmin_ctx_t *c = s->c;
    uint8_t *rep = gb_malloc(c->cap + 1), *gr = gb_malloc(c->cap + 1);
    if (!rep || !gr) {
        gb_free(rep);
        gb_free(gr);
        return gb_err_set(e, "out of memory");
    }
    size_t rlen = 0;
    int ok = zero_and_repair(s, rep, &rlen, e);
    zero_greedy(s, gr);
    size_t glen = c->len;
    int rc = ok < 0 ? -1 : 0;
    const uint8_t *cand[2] = {gr, ok > 0 && rlen <= c->len ? rep : NULL};
    size_t clen[2] = {glen, rlen};
    if (cand[1] && rlen <= glen && zeros(rep, rlen) > zeros(gr, glen)) {
        cand[0] = rep, cand[1] = gr;
        clen[0] = rlen, clen[1] = glen;
    }
    for (int k = 0; k < 2 && rc == 0; k++) {
        if (!cand[k] || (clen[k] == c->len && memcmp(cand[k], c->buf, c->len) == 0))
            continue;
        int kept;
        memcpy(c->scratch, cand[k], clen[k]);
        rc = try_scratch(s, clen[k], &kept, e);
        if (kept)
            break;
    }
    gb_free(rep);
    gb_free(gr);
    return rc;
}

static int solve_steps(solve_t *s, gb_err_t *e)
{
    if (load_current(s, e) != 0)
        return -1;
    if (!s->t0) {
        s->c->st->solver_note = GB_TMIN_NOTE_NOTRACE;
        return 0;
    }
    /* A deletion moves the read bytes: their offsets come from a new
     * trace, and the unread bytes it shows get their own turn. */
    for (int k = 0; k < 3; k++) {
        int deleted;
        if (drop_unread(s, &deleted, e) != 0)
            return -1;
        if (!deleted)
            break;
        if (load_current(s, e) != 0)
            return -1;
        if (!s->t0)
            return 0;
    }
    return zero_read(s, e);
}

int gb_tmin_solve(gb_tmin_ctx_t *c, gb_err_t *e)
{
    if (!c->o->work_dir)
        return gb_err_set(e, "gb_tmin: the trace step needs a work_dir");
    solve_t s = {.c = c, .evals = GB_TMIN_EVAL_BUDGET};
    if (snprintf(s.in_path, sizeof s.in_path, "%s/tmin-trace.in", c->o->work_dir) >=
            (int)sizeof s.in_path ||
        snprintf(s.trace_path, sizeof s.trace_path, "%s/tmin.gbt", c->o->work_dir) >=
            (int)sizeof s.trace_path)
        return gb_err_set(e, "work directory path too long: %s", c->o->work_dir);
    gb_solver_opts_t so = {0};
    if (gb_solver_new(&so, &s.solver, e) != 0)
        return -1;
    int rc = solve_steps(&s, e);
    if (rc == 0 && !c->st->solver_note && !s.kept_any)
        c->st->solver_note = GB_TMIN_NOTE_NOGAIN;
    c->st->len_after_solver = c->len;
    for (size_t i = 0; i < c->len; i++)
        c->st->zero_after_solver += c->buf[i] == NORM || c->buf[i] == 0;
    gb_trace_free(s.t0);
    gb_free(s.path);
    gb_free(s.read);
    gb_solver_free(s.solver);
    gb_remove_path(s.in_path);
    gb_remove_path(s.trace_path);
    return rc;
}
