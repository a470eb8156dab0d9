/* SPDX-License-Identifier: Apache-2.0 */
/* Flipping one path-constraint entry: slicing by shared input bytes
 * (incremental union-find), the exact query, optimistic retries, stats. */
#include <stdlib.h>
#include <string.h>

#include "symbolic_int.h"

#define GB_DEFAULT_TIMEOUT_MS 2000u

/* What the solver remembers about the trace it saw last, so that ascending
 * j costs one union per new entry instead of a rebuild. */
typedef struct trace_state {
    uint64_t serial;  /* gb_trace_t.serial; 0 = nothing cached */
    size_t *voff;     /* entry i's variables are vflat[voff[i] .. voff[i+1]) */
    uint32_t *vflat;  /* variable indices (gb_dag_t.vars) */
    size_t vn, vcap;
    size_t nlists;    /* entries whose variable lists are known */
    uint32_t *parent; /* union-find over variables */
    uint32_t *stamp;  /* per variable: last query that listed it */
    uint32_t clock;
    size_t upto;      /* entries 0 .. upto-1 are merged into `parent` */
} trace_state_t;

struct gb_solver {
    gb_solver_opts_t opts;
    gb_z3_t *z3;
    gb_solver_stats_t stats;
    trace_state_t ts;
};

static void state_clear(trace_state_t *ts)
{
    gb_free(ts->voff);
    gb_free(ts->vflat);
    gb_free(ts->parent);
    gb_free(ts->stamp);
    memset(ts, 0, sizeof *ts);
}

static int state_for(gb_solver_t *s, const gb_trace_t *t, gb_err_t *e)
{
    trace_state_t *ts = &s->ts;
    if (ts->serial == t->serial)
        return 0;
    state_clear(ts);
    size_t nv = t->dag.nvars;
    ts->voff = gb_calloc(t->npcs + 1, sizeof *ts->voff);
    ts->parent = gb_malloc((nv ? nv : 1) * sizeof *ts->parent);
    ts->stamp = gb_calloc(nv ? nv : 1, sizeof *ts->stamp);
    if (!ts->voff || !ts->parent || !ts->stamp) {
        state_clear(ts);
        return gb_err_set(e, "out of memory preparing a trace for solving");
    }
    for (size_t v = 0; v < nv; v++)
        ts->parent[v] = (uint32_t)v;
    ts->serial = t->serial;
    return 0;
}

/* Computes the variable lists of entries up to and including j. */
static int state_lists(trace_state_t *ts, const gb_trace_t *t, size_t j, gb_err_t *e)
{
    for (; ts->nlists <= j; ts->nlists++) {
        uint32_t *list;
        size_t n = gb_dag_reach(&t->dag, &t->pcs[ts->nlists].node, 1, &list);
        if (n == (size_t)-1)
            return gb_err_set(e, "out of memory slicing a query");
        for (size_t k = 0; k < n; k++) {
            const gb_node_t *x = &t->dag.nodes[list[k]];
            if (x->op != GBT_OP_INPUT)
                continue;
            if (ts->vn == ts->vcap) {
                size_t nc = ts->vcap ? ts->vcap * 2 : 256;
                uint32_t *nf = gb_realloc(ts->vflat, nc * sizeof *nf);
                if (!nf) {
                    gb_free(list);
                    return gb_err_set(e, "out of memory slicing a query");
                }
                ts->vflat = nf;
                ts->vcap = nc;
            }
            ts->vflat[ts->vn++] = x->var;
        }
        gb_free(list);
        ts->voff[ts->nlists + 1] = ts->vn;
    }
    return 0;
}

static uint32_t uf_find(uint32_t *parent, uint32_t v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]]; /* path halving keeps later finds short */
        v = parent[v];
    }
    return v;
}

/* CHECK entries (bounds checks the tracer adds) never held the program back,
 * so they join no other query's slice and link no bytes (trace-format.md). */
static int in_prefix_slices(const gb_trace_t *t, size_t i)
{
    return t->pcs[i].kind != GBT_PC_CHECK;
}

/* Merges the variables of entries up to and including j. A query for an
 * earlier j than the last one rebuilds from scratch (rare: callers ascend). */
static void state_union(trace_state_t *ts, const gb_trace_t *t, size_t j)
{
    if (ts->upto > j + 1) {
        for (size_t v = 0; v < t->dag.nvars; v++)
            ts->parent[v] = (uint32_t)v;
        ts->upto = 0;
    }
    for (; ts->upto <= j; ts->upto++) {
        size_t b = ts->voff[ts->upto], end = ts->voff[ts->upto + 1];
        if (b == end || !in_prefix_slices(t, ts->upto))
            continue;
        uint32_t r = uf_find(ts->parent, ts->vflat[b]);
        for (size_t k = b + 1; k < end; k++) {
            uint32_t q = uf_find(ts->parent, ts->vflat[k]);
            if (q != r)
                ts->parent[q] = r;
        }
    }
}

/* ---- Queries --------------------------------------------------------- */

typedef struct query {
    gb_conj_t *cj;
    size_t *entry; /* PC index of each conjunct */
    size_t n;
} query_t;

/* A fresh stamp value, so that no stamp left from an earlier walk matches. */
static void next_clock(trace_state_t *ts, const gb_trace_t *t)
{
    if (++ts->clock == 0) {
        memset(ts->stamp, 0, (t->dag.nvars ? t->dag.nvars : 1) * sizeof *ts->stamp);
        ts->clock = 1;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The distinct variables of a query, by ascending input offset. Offsets
 * fit in 32 bits (the loader checks), so (offset, var) packs into one key. */
static int query_vars(trace_state_t *ts, const gb_trace_t *t, const query_t *q,
                      uint32_t **out, size_t *nout)
{
    size_t cap = 0, n = 0;
    for (size_t i = 0; i < q->n; i++)
        cap += ts->voff[q->entry[i] + 1] - ts->voff[q->entry[i]];
    uint64_t *key = gb_malloc((cap ? cap : 1) * sizeof *key);
    uint32_t *v = gb_malloc((cap ? cap : 1) * sizeof *v);
    if (!key || !v) {
        gb_free(key);
        gb_free(v);
        return -1;
    }
    next_clock(ts, t);
    for (size_t i = 0; i < q->n; i++) {
        for (size_t k = ts->voff[q->entry[i]]; k < ts->voff[q->entry[i] + 1]; k++) {
            uint32_t var = ts->vflat[k];
            if (ts->stamp[var] == ts->clock)
                continue;
            ts->stamp[var] = ts->clock;
            key[n++] = (t->dag.nodes[t->dag.vars[var]].imm << 32) | var;
        }
    }
    qsort(key, n, sizeof *key, cmp_u64);
    for (size_t i = 0; i < n; i++)
        v[i] = (uint32_t)key[i];
    gb_free(key);
    *out = v;
    *nout = n;
    return 0;
}

/* One query to Z3 (soft conjuncts may be dropped, see gb_z3_check); on SAT
 * the model replaces out->model and *dropped says how many were. */
static int run_query(gb_solver_t *s, const gb_trace_t *t, const query_t *q,
                     gb_qstatus_t *st, size_t *dropped, gb_flip_t *out, gb_err_t *e)
{
    uint32_t *vars, *nodes;
    size_t nv;
    if (query_vars(&s->ts, t, q, &vars, &nv) != 0)
        return gb_err_set(e, "out of memory building a query");
    nodes = gb_malloc((nv ? nv : 1) * sizeof *nodes);
    uint8_t *vals = gb_malloc(nv ? nv : 1);
    uint64_t *offs = gb_malloc((nv ? nv : 1) * sizeof *offs);
    int r = -1;
    if (!nodes || !vals || !offs) {
        gb_err_set(e, "out of memory building a query");
        goto done;
    }
    for (size_t i = 0; i < nv; i++) {
        nodes[i] = t->dag.vars[vars[i]];
        offs[i] = t->dag.nodes[nodes[i]].imm;
    }
    unsigned tmo = s->opts.timeout_ms ? s->opts.timeout_ms : GB_DEFAULT_TIMEOUT_MS;
    uint64_t t0 = gb_mono_ms();
    unsigned checks = 0;
    r = gb_z3_check(s->z3, t, q->cj, q->n, nodes, nv, tmo, st, vals, dropped, &checks, e);
    s->stats.queries_z3 += checks;
    s->stats.solver_time_ms += gb_mono_ms() - t0;
    if (r == 0 && *st == GB_Q_SAT) {
        gb_flip_clear(out);
        out->model.n = nv;
        out->model.offsets = offs;
        out->model.values = vals;
        offs = NULL;
        vals = NULL;
    }
done:
    gb_free(vars);
    gb_free(nodes);
    gb_free(vals);
    gb_free(offs);
    return r;
}

/* QSYM's last resort when the slice conflicts even without its pins:
 * ¬PC[j] alone. */
static int flip_alone(gb_solver_t *s, const gb_trace_t *t, const query_t *q, query_t *tmp,
                      gb_flip_t *out, gb_err_t *e)
{
    gb_qstatus_t st = GB_Q_UNSAT;
    size_t dropped;
    tmp->cj[0] = q->cj[q->n - 1];
    tmp->entry[0] = q->entry[q->n - 1];
    tmp->n = 1;
    if (run_query(s, t, tmp, &st, &dropped, out, e) != 0)
        return -1;
    if (st == GB_Q_SAT) {
        out->status = GB_Q_SAT;
        out->optimistic = 1;
    }
    return 0;
}

/* Builds slice(PC[0..j-1]) ∧ ¬PC[j] into q (capacity j + 1): the prefix
 * entries whose component holds one of PC[j]'s bytes. Those components are
 * stamped first (PC[j]'s bytes are all in one unless it is a CHECK). */
static void build_query(trace_state_t *ts, const gb_trace_t *t, size_t j, int soft_pins,
                        query_t *q)
{
    next_clock(ts, t);
    for (size_t k = ts->voff[j]; k < ts->voff[j + 1]; k++)
        ts->stamp[uf_find(ts->parent, ts->vflat[k])] = ts->clock;
    q->n = 0;
    for (size_t i = 0; i < j; i++) {
        if (ts->voff[i] == ts->voff[i + 1] || !in_prefix_slices(t, i) ||
            ts->stamp[uf_find(ts->parent, ts->vflat[ts->voff[i]])] != ts->clock)
            continue;
        q->cj[q->n] = (gb_conj_t){t->pcs[i].node, t->pcs[i].taken,
                                  (uint8_t)(soft_pins && t->pcs[i].kind == GBT_PC_PIN)};
        q->entry[q->n++] = i;
    }
    q->cj[q->n] = (gb_conj_t){t->pcs[j].node, (uint8_t)!t->pcs[j].taken, 0};
    q->entry[q->n++] = j;
}

static int solve_entry(gb_solver_t *s, const gb_trace_t *t, size_t j, gb_flip_t *out,
                       gb_err_t *e)
{
    query_t q = {gb_malloc((j + 1) * sizeof(gb_conj_t)), gb_malloc((j + 1) * sizeof(size_t)), 0};
    query_t tmp = {gb_malloc((j + 1) * sizeof(gb_conj_t)), gb_malloc((j + 1) * sizeof(size_t)),
                   0};
    int r = -1;
    if (!q.cj || !q.entry || !tmp.cj || !tmp.entry) {
        gb_err_set(e, "out of memory building a query");
        goto done;
    }
    build_query(&s->ts, t, j, s->opts.optimistic, &q);
    out->slice_size = q.n - 1;
    size_t dropped = 0;
    if (run_query(s, t, &q, &out->status, &dropped, out, e) != 0)
        goto done;
    if (out->status == GB_Q_SAT && dropped)
        out->optimistic = 1; /* pins in the way were dropped, the rest kept */
    if (out->status == GB_Q_UNSAT && s->opts.optimistic && q.n > 1 &&
        flip_alone(s, t, &q, &tmp, out, e) != 0)
        goto done;
    r = 0;
done:
    gb_free(q.cj);
    gb_free(q.entry);
    gb_free(tmp.cj);
    gb_free(tmp.entry);
    return r;
}

/* ---- Public API ------------------------------------------------------ */

int gb_solver_new(const gb_solver_opts_t *opts, gb_solver_t **out, gb_err_t *e)
{
    *out = NULL;
    gb_solver_t *s = gb_calloc(1, sizeof *s);
    if (!s)
        return gb_err_set(e, "out of memory creating the solver");
    if (opts)
        s->opts = *opts;
    if (gb_z3_new(&s->z3, e) != 0) {
        gb_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

void gb_solver_free(gb_solver_t *s)
{
    if (!s)
        return;
    state_clear(&s->ts);
    gb_z3_free(s->z3);
    gb_free(s);
}

int gb_solver_flip(gb_solver_t *s, const gb_trace_t *t, size_t j, gb_flip_t *out, gb_err_t *e)
{
    memset(out, 0, sizeof *out);
    out->status = GB_Q_SKIP;
    if (!s || !t || j >= t->npcs)
        return gb_err_set(e, "gb_solver_flip: entry %zu out of range", j);
    if (t->pcs[j].kind == GBT_PC_PIN)
        return 0;
    if (state_for(s, t, e) != 0 || state_lists(&s->ts, t, j, e) != 0)
        return -1;
    if (s->ts.voff[j] == s->ts.voff[j + 1])
        return 0; /* a constant condition: nothing to flip */
    s->stats.queries_total++;
    state_union(&s->ts, t, j);
    if (solve_entry(s, t, j, out, e) != 0) {
        gb_flip_clear(out);
        return -1;
    }
    if (out->status == GB_Q_SAT)
        s->stats.queries_sat++;
    else if (out->status == GB_Q_UNSAT)
        s->stats.queries_unsat++;
    else
        s->stats.queries_timeout++;
    s->stats.queries_optimistic += out->optimistic != 0;
    return 0;
}

void gb_flip_clear(gb_flip_t *f)
{
    if (!f)
        return;
    gb_free(f->model.offsets);
    gb_free(f->model.values);
    f->model.offsets = NULL;
    f->model.values = NULL;
    f->model.n = 0;
}

void gb_solver_get_stats(const gb_solver_t *s, gb_solver_stats_t *st)
{
    *st = s->stats;
}
