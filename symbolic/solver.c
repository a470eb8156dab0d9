/* SPDX-License-Identifier: Apache-2.0 */
/* Flipping one path-constraint entry: slicing by shared input bytes
 * (incremental union-find), then the query pipeline (learned clauses,
 * intervals, cache, Z3 with adaptive timeouts), optimistic retries, stats. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <xxhash.h>

#include "gb_config.h"
#include "symbolic_int.h"


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
    uint64_t *chash;  /* per DAG node: structural hash independent of numbering */
    uint64_t z3_us;   /* Z3 time spent on this trace (the budget); in µs so
                         that sub-millisecond queries count too */
} trace_state_t;

/* What the solver learned about flipping one (site, direction). */
typedef struct adapt {
    uint64_t key;   /* site << 1 | new direction, + 1; 0 = empty */
    uint8_t streak; /* Z3 timeouts in a row */
    uint8_t paid;   /* Z3 found a model for it once */
    uint8_t blast;  /* bit-blasting answered after the simple solver ran out */
    uint8_t relaxed; /* whole queries Z3 refuted or timed out on, in a row, where ¬PC[j]
                        alone was then decided (answer()'s relaxed-first stage) */
    uint8_t skips;   /* whole queries not sent to Z3 for it (a counter) */
} adapt_t;

struct gb_solver {
    gb_solver_opts_t opts;
    gb_z3_t *z3;
    gb_solver_stats_t stats;
    trace_state_t ts;
    gb_clauses_t *clauses;
    gb_cache_t *cache;
    adapt_t *adapt;
    const uint8_t *input;
    size_t input_len;
    int no_last_resort; /* gb_solver_set_last_resort(s, 0) */
    int relax_first;    /* this query: not to Z3 (solve_entry) */
    unsigned patience;  /* gb_solver_set_patience */
    uint64_t *keep_off; /* gb_solver_set_keep: offsets ascending */
    uint8_t *keep_val;
    size_t nkeep;
    uint64_t clauses_saved; /* local clauses ever added when the file was last written */
    uint64_t flip_us, z3_us; /* time in gb_solver_flip, and in Z3 */
};

static void state_clear(trace_state_t *ts)
{
    gb_free(ts->voff);
    gb_free(ts->vflat);
    gb_free(ts->parent);
    gb_free(ts->stamp);
    gb_free(ts->chash);
    memset(ts, 0, sizeof *ts);
}

static int commutes(unsigned op)
{
    return op == GBT_OP_ADD || op == GBT_OP_MUL || op == GBT_OP_AND || op == GBT_OP_OR ||
           op == GBT_OP_XOR || op == GBT_OP_EQ || op == GBT_OP_NE;
}

/* A table READ's immediate names a table of this trace; what the READ
 * means is the table's contents (gb_table_read), so a hash of those
 * stands in for it: th[k] for d->tables[k]. */
static uint64_t *table_hashes(const gb_dag_t *d)
{
    uint64_t *th = gb_malloc((d->ntables ? d->ntables : 1) * sizeof *th);
    for (size_t k = 0; th && k < d->ntables; k++) {
        uint64_t b[2] = {XXH3_64bits(d->tables[k].bytes, d->tables[k].len), d->tables[k].len};
        th[k] = XXH3_64bits(b, sizeof b);
    }
    return th;
}

/* Position of table `id` in d->tables, or d->ntables. */
static size_t table_pos(const gb_dag_t *d, uint64_t id)
{
    size_t k = 0;
    while (k < d->ntables && d->tables[k].id != id)
        k++;
    return k;
}

/* Structural hashes: op, width, immediate and the arguments' hashes (sorted
 * for commutative operators), so equal expressions hash alike in any trace
 * whatever their node numbers. INPUT's immediate is its byte offset. These
 * key learned clauses and cached answers, shared across traces and workers:
 * a hash must never mix two different expressions' meanings. */
static void canon_hashes(const gb_trace_t *t, uint64_t *h)
{
    const gb_dag_t *d = &t->dag;
    uint64_t *th = table_hashes(d);
    for (size_t i = 0; i < d->n; i++) {
        const gb_node_t *x = &d->nodes[i];
        /* A READ is keyed by its table's contents (salt 1: the immediate
         * is a content hash); without them (out of memory), and for an
         * operator newer than this hash, by the trace's serial: sound, it
         * only never matches another trace. The FP operators depend on
         * their arguments alone, like the bit-vector ones. */
        uint64_t imm = x->imm;
        uint64_t salt = x->op >= GBT_OP_READ && !gbt_op_is_fp(x->op) ? t->serial : 0;
        size_t tk = x->op == GBT_OP_READ && th ? table_pos(d, x->imm) : d->ntables;
        if (tk < d->ntables) {
            imm = th[tk];
            salt = 1;
        }
        uint64_t buf[6] = {(uint64_t)x->op | (uint64_t)x->width << 8 | (uint64_t)x->nargs << 16,
                           imm, 0, 0, 0, salt};
        for (unsigned k = 0; k < x->nargs; k++)
            buf[2 + k] = h[x->args[k]];
        if (x->nargs == 2 && commutes(x->op) && buf[2] > buf[3]) {
            buf[2] = h[x->args[1]];
            buf[3] = h[x->args[0]];
        }
        h[i] = XXH3_64bits(buf, sizeof buf);
    }
    gb_free(th);
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
    ts->chash = gb_malloc((t->dag.n ? t->dag.n : 1) * sizeof *ts->chash);
    if (!ts->voff || !ts->parent || !ts->stamp || !ts->chash) {
        state_clear(ts);
        return gb_err_set(e, "out of memory preparing a trace for solving");
    }
    for (size_t v = 0; v < nv; v++)
        ts->parent[v] = (uint32_t)v;
    canon_hashes(t, ts->chash);
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
            if (gb_grow(&ts->vflat, &ts->vcap, ts->vn + 1, sizeof *ts->vflat, 256) != 0) {
                gb_free(list);
                return gb_err_set(e, "out of memory slicing a query");
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

/* The INPUT nodes of a query and their offsets, ascending. */
typedef struct qvars {
    uint32_t *nodes;
    uint64_t *offs;
    size_t n;
} qvars_t;

static int get_qvars(trace_state_t *ts, const gb_trace_t *t, const query_t *q, qvars_t *qv)
{
    if (query_vars(ts, t, q, &qv->nodes, &qv->n) != 0)
        return -1;
    qv->offs = gb_malloc((qv->n ? qv->n : 1) * sizeof *qv->offs);
    if (!qv->offs) {
        gb_free(qv->nodes);
        return -1;
    }
    for (size_t i = 0; i < qv->n; i++) {
        qv->nodes[i] = t->dag.vars[qv->nodes[i]];
        qv->offs[i] = t->dag.nodes[qv->nodes[i]].imm;
    }
    return 0;
}

static void free_qvars(qvars_t *qv)
{
    gb_free(qv->nodes);
    gb_free(qv->offs);
}

/* Replaces out's model by n bytes (offsets from offs64 or offs32). */
static int set_model(gb_flip_t *out, const uint64_t *offs64, const uint32_t *offs32,
                     const uint8_t *vals, size_t n)
{
    uint64_t *o = gb_malloc((n ? n : 1) * sizeof *o);
    uint8_t *v = gb_malloc(n ? n : 1);
    if (!o || !v) {
        gb_free(o);
        gb_free(v);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        o[i] = offs64 ? offs64[i] : offs32[i];
    memcpy(v, vals, n);
    gb_flip_clear(out);
    out->model = (gb_model_t){n, o, v};
    return 0;
}

/* ---- Literals, clauses, cache keys ----------------------------------- */

/* A literal: (site, direction, canonical hash of the condition). */
static uint64_t lit_of(const trace_state_t *ts, const gb_trace_t *t, const query_t *q, size_t i)
{
    uint64_t b[3] = {t->pcs[q->entry[i]].site, q->cj[i].value, ts->chash[q->cj[i].node]};
    return XXH3_64bits(b, sizeof b);
}

/* 1 if a learned clause refutes the hard conjuncts of q, 0 if not, -1 OOM. */
static int clause_cut(gb_solver_t *s, const gb_trace_t *t, const query_t *q)
{
    uint64_t *l = gb_malloc(q->n * sizeof *l);
    if (!l)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < q->n; i++)
        if (!q->cj[i].soft)
            l[m++] = lit_of(&s->ts, t, q, i);
    int r = gb_clauses_match(s->clauses, l, m);
    gb_free(l);
    return r;
}

static int learn_clause(gb_solver_t *s, const gb_trace_t *t, const query_t *q,
                        const uint32_t *idx, size_t n)
{
    if ((s->opts.disable & GB_SOLVER_NO_CLAUSES) || n == 0 || n > GB_CLAUSE_MAX)
        return 0;
    uint64_t l[GB_CLAUSE_MAX];
    for (size_t k = 0; k < n; k++)
        l[k] = lit_of(&s->ts, t, q, idx[k]);
    int r = gb_clauses_add(s->clauses, l, n, 1);
    s->stats.clauses_learned += r > 0;
    return r < 0 ? -1 : 0;
}

typedef struct ckey {
    uint64_t h, f;
} ckey_t;

static int cmp_ckey(const void *a, const void *b)
{
    const ckey_t *x = a, *y = b;
    if (x->h != y->h)
        return (x->h > y->h) - (x->h < y->h);
    return (x->f > y->f) - (x->f < y->f);
}

/* XXH3-128 of the canonical query: its (condition hash, value, soft)
 * triples, sorted, so the key is independent of order and numbering. */
static int cache_key(const trace_state_t *ts, const query_t *q, uint64_t key[2])
{
    ckey_t *k = gb_malloc(q->n * sizeof *k);
    if (!k)
        return -1;
    for (size_t i = 0; i < q->n; i++)
        k[i] = (ckey_t){ts->chash[q->cj[i].node],
                        (uint64_t)q->cj[i].value | (uint64_t)q->cj[i].soft << 1};
    qsort(k, q->n, sizeof *k, cmp_ckey);
    XXH128_hash_t h = XXH3_128bits(k, q->n * sizeof *k);
    gb_free(k);
    key[0] = h.low64;
    key[1] = h.high64;
    return 0;
}

/* ---- Adaptation ------------------------------------------------------- */

static adapt_t *adapt_get(gb_solver_t *s, uint32_t site, unsigned dir)
{
    if (!s->adapt)
        return NULL;
    uint64_t key = ((uint64_t)site << 1 | dir) + 1;
    adapt_t *a = &s->adapt[(key * 0x9e3779b97f4a7c15ull >> 40) % GB_ADAPT_SLOTS];
    if (a->key != key) /* direct-mapped: a collision forgets the older site */
        *a = (adapt_t){.key = key};
    return a;
}

static unsigned timeout_for(const gb_solver_t *s, const adapt_t *a)
{
    unsigned t = s->opts.timeout_ms ? s->opts.timeout_ms : GB_SOLVER_TIMEOUT_MS;
    if (s->patience)
        return t > (UINT_MAX >> s->patience) ? UINT_MAX : t << s->patience;
    if (!a || !a->streak)
        return t;
    unsigned r = t >> a->streak;
    return r < GB_MIN_TIMEOUT_MS ? (t < GB_MIN_TIMEOUT_MS ? t : GB_MIN_TIMEOUT_MS) : r;
}

/* The time limit for finding a small unsat core: none without clauses. */
static unsigned core_ms(const gb_solver_t *s, unsigned tmo)
{
    if (s->opts.disable & GB_SOLVER_NO_CLAUSES)
        return 0;
    return tmo < GB_CORE_TIMEOUT_MS ? tmo : GB_CORE_TIMEOUT_MS;
}

/* The time limit for checking PC[j] with its direct neighbours. */
static unsigned nb_ms(unsigned tmo)
{
    return tmo < GB_NEIGHBOUR_TIMEOUT_MS ? tmo : GB_NEIGHBOUR_TIMEOUT_MS;
}

static uint64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
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


/* ---- The pipeline ----------------------------------------------------- */

/* A query being answered: its bytes, scratch space, and where it came from. */
typedef struct qctx {
    const gb_trace_t *t;
    const query_t *q;
    qvars_t qv;
    uint8_t *vals;
    uint32_t *conf; /* conjunct indices: a conflict or an unsat core */
    adapt_t *ad;
    gb_flip_t *out;
} qctx_t;

/* 1 when the query's model (c->vals) keeps every kept byte it sets. */
static int keeps_held(const gb_solver_t *s, const qctx_t *c)
{
    for (size_t i = 0, k = 0; i < c->qv.n && k < s->nkeep; i++) {
        while (k < s->nkeep && s->keep_off[k] < c->qv.offs[i])
            k++;
        if (k < s->nkeep && s->keep_off[k] == c->qv.offs[i] && s->keep_val[k] != c->vals[i])
            return 0;
    }
    return 1;
}

static int stage_intervals(gb_solver_t *s, qctx_t *c, gb_qstatus_t *st, size_t *dropped)
{
    size_t nconf;
    int en;
    if (gb_ival_solve(c->t, c->q->cj, c->q->n, c->qv.offs, c->qv.n, s->input, s->input_len, st,
                      c->vals, c->conf, &nconf, dropped, &en) != 0)
        return -1;
    if (*st == GB_Q_SAT && !keeps_held(s, c)) {
        *st = GB_Q_SKIP; /* a model that moves a kept byte: Z3 is asked */
        return 0;
    }
    s->stats.ival_enumerated += en == 1 && *st != GB_Q_SKIP;
    s->stats.ival_swept += en == 2 && *st != GB_Q_SKIP;
    if (*st == GB_Q_SAT) {
        s->stats.sat_interval++;
        return set_model(c->out, c->qv.offs, NULL, c->vals, c->qv.n);
    }
    if (*st == GB_Q_UNSAT) {
        s->stats.cut_interval_unsat++;
        return learn_clause(s, c->t, c->q, c->conf, nconf);
    }
    return 0;
}

/* Looks the query up; *hit = 1 with its answer when known (a timeout only
 * when it ran out of at least the limit this query would get). */
static int stage_cache(gb_solver_t *s, qctx_t *c, const uint64_t key[2], unsigned tmo,
                       gb_qstatus_t *st, size_t *dropped, int *hit)
{
    gb_answer_t a;
    *hit = gb_cache_get(s->cache, key, &a) && (a.status != GB_Q_TIMEOUT || a.tmo >= tmo);
    if (!*hit)
        return 0;
    s->stats.cache_hit++;
    *st = (gb_qstatus_t)a.status;
    *dropped = a.optimistic;
    return a.status == GB_Q_SAT ? set_model(c->out, NULL, a.offs, a.vals, a.n) : 0;
}

/* The hard conjuncts that share an input byte with the flipped condition
 * (the last conjunct), and it: where a small core usually is. */
static size_t direct_neighbours(trace_state_t *ts, const gb_trace_t *t, const query_t *q,
                                uint32_t *idx)
{
    size_t j = q->entry[q->n - 1], n = 0;
    next_clock(ts, t);
    for (size_t k = ts->voff[j]; k < ts->voff[j + 1]; k++)
        ts->stamp[ts->vflat[k]] = ts->clock;
    for (size_t i = 0; i + 1 < q->n; i++) {
        if (q->cj[i].soft)
            continue;
        size_t e = q->entry[i];
        for (size_t k = ts->voff[e]; k < ts->voff[e + 1]; k++)
            if (ts->stamp[ts->vflat[k]] == ts->clock) {
                idx[n++] = (uint32_t)i;
                break;
            }
    }
    idx[n++] = (uint32_t)(q->n - 1);
    return n;
}

/* For a query with many hard conjuncts, before the query itself: checks
 * PC[j] with its direct neighbours alone (nb_ms); when they
 * conflict, their unsat core (a subset that Z3 found unsatisfiable:
 * sound) is the clause and the query's answer. Otherwise o is unchanged
 * and the query is checked; if UNSAT, every hard conjunct is the clause. */
static int neighbour_core(gb_solver_t *s, qctx_t *c, unsigned tmo, gb_z3_out_t *o, gb_err_t *e)
{
    uint32_t *idx = gb_malloc(c->q->n * sizeof *idx), *core = gb_malloc(c->q->n * sizeof *core);
    gb_conj_t *k = gb_malloc(c->q->n * sizeof *k);
    int r = -1;
    if (!idx || !core || !k) {
        gb_err_set(e, "out of memory looking for an unsat core");
        goto done;
    }
    size_t n = direct_neighbours(&s->ts, c->t, c->q, idx);
    for (size_t i = 0; i < n; i++)
        k[i] = c->q->cj[idx[i]];
    gb_z3_out_t o2 = {.core = core};
    /* no variables: only the answer matters (and without length
     * preferences it is the same), and bytes outside k have no terms yet */
    if (gb_z3_check(s->z3, &(gb_z3_query_t){c->t, k, n}, &(gb_z3_vars_t){NULL, 0, c->vals},
                    &(gb_z3_limits_t){.timeout_ms = nb_ms(tmo), .core_ms = core_ms(s, tmo)}, &o2,
                    e) != 0)
        goto done;
    o->checks += o2.checks;
    if (o2.status == GB_Q_UNSAT) {
        for (size_t i = 0; i < o2.ncore; i++)
            o->core[i] = idx[core[i]];
        o->ncore = o2.ncore;
        o->core_found = 1;
    }
    r = 0;
done:
    gb_free(idx);
    gb_free(core);
    gb_free(k);
    return r;
}

static int stage_z3(gb_solver_t *s, qctx_t *c, unsigned tmo, gb_qstatus_t *st, size_t *dropped,
                    gb_err_t *e)
{
    size_t nhard = 0;
    for (size_t i = 0; i < c->q->n; i++)
        nhard += !c->q->cj[i].soft;
    int direct = nhard > GB_CORE_DIRECT && core_ms(s, tmo);
    gb_z3_out_t o = {.core = c->conf};
    gb_z3_limits_t lim = {.timeout_ms = tmo,
                          .core_ms = direct ? 0 : core_ms(s, tmo),
                          .bitblast = c->ad && c->ad->blast};
    uint64_t t0 = mono_us();
    /* Neighbours first: when PC[j] and its direct neighbours (a subset of
     * the hard conjuncts) conflict, so does the query, pins dropped or
     * not, and the big check is never made. */
    int r = direct ? neighbour_core(s, c, tmo, &o, e) : 0;
    if (r == 0 && o.core_found)
        *st = GB_Q_UNSAT;
    else if (r == 0) {
        unsigned pre = o.checks;
        r = gb_z3_check(s->z3, &(gb_z3_query_t){c->t, c->q->cj, c->q->n},
                        &(gb_z3_vars_t){c->qv.nodes, c->qv.n, c->vals}, &lim, &o, e);
        *st = o.status;
        o.checks += pre;
    }
    uint64_t dt = mono_us() - t0;
    s->z3_us += dt;
    s->ts.z3_us += dt;
    s->stats.queries_z3++;
    s->stats.z3_checks += o.checks;
    c->out->z3_calls++;
    *dropped = o.dropped;
    if (r != 0)
        return -1;
    if (c->ad) {
        c->ad->streak = *st == GB_Q_TIMEOUT ? (uint8_t)(c->ad->streak + (c->ad->streak < GB_MAX_STREAK)) : 0;
        c->ad->paid |= *st == GB_Q_SAT;
        /* tactic first while it answers: dropped once it times out too */
        c->ad->blast = o.blasted || (c->ad->blast && *st != GB_Q_TIMEOUT);
    }
    s->stats.z3_blasted += o.blasted;
    s->stats.z3_varmul += (uint64_t)o.varmul;
    if (*st == GB_Q_SAT) {
        s->stats.z3_sat++;
        return set_model(c->out, c->qv.offs, NULL, c->vals, c->qv.n);
    }
    if (*st == GB_Q_UNSAT) {
        s->stats.z3_unsat++;
        /* with kept bytes the conflict may be theirs, unless the
         * neighbours alone conflicted: no clause then */
        return s->nkeep && !o.core_found ? 0 : learn_clause(s, c->t, c->q, o.core, o.ncore);
    }
    s->stats.z3_timeout++;
    return 0;
}

static int remember(gb_solver_t *s, qctx_t *c, const uint64_t key[2], unsigned tmo,
                    gb_qstatus_t st, size_t dropped)
{
    gb_answer_t a = {st, dropped != 0, tmo, 0, NULL, NULL};
    if (st == GB_Q_SAT) {
        a.n = c->out->model.n;
        a.offs = gb_malloc((a.n ? a.n : 1) * sizeof *a.offs);
        if (!a.offs)
            return -1;
        for (size_t i = 0; i < a.n; i++)
            a.offs[i] = (uint32_t)c->out->model.offsets[i];
        a.vals = c->out->model.values;
    }
    int r = gb_cache_put(s->cache, key, &a);
    gb_free(a.offs);
    return r < 0 ? -1 : 0;
}

/* Clauses, intervals, cache, budget, Z3: the first stage with an answer
 * gives it. On SAT the model replaces out->model and *dropped says how
 * many soft conjuncts it breaks. */
static int answer(gb_solver_t *s, qctx_t *c, gb_qstatus_t *st, size_t *dropped, gb_err_t *e)
{
    unsigned dis = s->opts.disable;
    *dropped = 0;
    *st = GB_Q_SKIP;
    int r = (dis & GB_SOLVER_NO_CLAUSES) ? 0 : clause_cut(s, c->t, c->q);
    if (r != 0) {
        *st = GB_Q_UNSAT;
        c->out->stage = GB_STAGE_CLAUSE;
        s->stats.cut_clause += r > 0;
        return r < 0 ? -1 : 0;
    }
    if (!(dis & GB_SOLVER_NO_INTERVALS) && (stage_intervals(s, c, st, dropped) != 0 || *st != GB_Q_SKIP)) {
        c->out->stage = GB_STAGE_INTERVAL;
        return *st == GB_Q_SKIP ? -1 : 0;
    }
    uint64_t key[2];
    unsigned tmo = timeout_for(s, c->ad);
    int hit = 0, cached = !(dis & GB_SOLVER_NO_CACHE) && !s->nkeep; /* keeps: not the same query */
    if (cached && (cache_key(&s->ts, c->q, key) != 0 ||
                   stage_cache(s, c, key, tmo, st, dropped, &hit) != 0))
        return -1;
    if (hit) {
        c->out->stage = GB_STAGE_CACHE;
        return 0;
    }
    uint64_t budget = (uint64_t)(s->opts.budget_ms ? s->opts.budget_ms : GB_SOLVER_BUDGET_MS)
                      << s->patience;
    if (!(dis & GB_SOLVER_NO_ADAPT) && s->ts.z3_us >= (uint64_t)budget * 1000u && c->ad && !c->ad->paid) {
        *st = GB_Q_TIMEOUT;
        c->out->stage = GB_STAGE_BUDGET;
        s->stats.budget_skip++;
        return 0;
    }
    if (s->relax_first) {
        *st = GB_Q_TIMEOUT; /* not asked: ¬PC[j] alone comes next */
        c->out->stage = GB_STAGE_RELAXED;
        s->stats.relax_skip++;
        return 0;
    }
    c->out->stage = GB_STAGE_Z3;
    gb_z3_set_keep(s->z3, s->keep_off, s->keep_val, s->nkeep);
    int zr = stage_z3(s, c, tmo, st, dropped, e);
    gb_z3_set_keep(s->z3, NULL, NULL, 0);
    if (zr != 0)
        return -1;
    return cached ? remember(s, c, key, tmo, *st, *dropped) : 0;
}

static int answer_query(gb_solver_t *s, const gb_trace_t *t, const query_t *q, adapt_t *ad,
                        gb_flip_t *out, gb_qstatus_t *st, size_t *dropped, gb_err_t *e)
{
    qctx_t c = {t, q, {NULL, NULL, 0}, NULL, NULL, ad, out};
    if (get_qvars(&s->ts, t, q, &c.qv) != 0)
        return gb_err_set(e, "out of memory building a query");
    c.vals = gb_malloc(c.qv.n ? c.qv.n : 1);
    c.conf = gb_malloc(q->n * sizeof *c.conf);
    if (e)
        e->msg[0] = '\0';
    int r = c.vals && c.conf ? answer(s, &c, st, dropped, e) : -1;
    if (r != 0 && e && !e->msg[0]) /* the stages before Z3 fail only for memory */
        gb_err_set(e, "out of memory answering a query");
    free_qvars(&c.qv);
    gb_free(c.vals);
    gb_free(c.conf);
    return r;
}

/* ---- Stored values ---------------------------------------------------- */

static uint8_t *combine(const gb_solver_t *s, const gb_model_t *m, size_t *len);

/* Leaves out of q its stored-value conjuncts (symbolic_int.h, stored.c):
 * *sv (gb_free it) and *nsv. Needs the recorded input, on which their
 * other side is evaluated afterwards; not with kept bytes (a repair). */
static int drop_stored(gb_solver_t *s, const gb_trace_t *t, query_t *q, gb_stored_t **sv,
                       size_t *nsv, gb_err_t *e)
{
    trace_state_t *ts = &s->ts;
    *sv = NULL;
    *nsv = 0;
    if ((s->opts.disable & GB_SOLVER_NO_STORED) || !s->input || q->n < 2 || s->nkeep)
        return 0; /* a repair's kept bytes may be a stored field: set nothing over them */
    size_t cap = 0, n = 0;
    for (size_t i = 0; i < q->n; i++)
        cap += ts->voff[q->entry[i] + 1] - ts->voff[q->entry[i]];
    uint64_t *counts = gb_malloc((cap ? cap : 1) * sizeof *counts);
    *sv = gb_malloc(GB_STORED_CAP * sizeof **sv);
    if (!counts || !*sv) {
        gb_free(counts);
        return gb_err_set(e, "out of memory looking for stored values");
    }
    for (size_t i = 0; i < q->n; i++)
        for (size_t k = ts->voff[q->entry[i]]; k < ts->voff[q->entry[i] + 1]; k++)
            counts[n++] = t->dag.nodes[t->dag.vars[ts->vflat[k]]].imm;
    qsort(counts, n, sizeof *counts, cmp_u64);
    int r = gb_stored_find(t, q->cj, q->n, counts, n, *sv, GB_STORED_CAP, nsv);
    gb_free(counts);
    if (r != 0)
        return gb_err_set(e, "out of memory looking for stored values");
    size_t w = 0, k = 0;
    for (size_t i = 0; i < q->n; i++) { /* sv[] is in conjunct order */
        if (k < *nsv && (*sv)[k].conj == i) {
            k++;
            continue;
        }
        q->cj[w] = q->cj[i];
        q->entry[w++] = q->entry[i];
    }
    q->n = w;
    s->stats.stored_dropped += *nsv;
    return 0;
}

/* Sets the stored values' bytes in out's model from their other side on
 * the child; *broken counts those no bytes could satisfy. */
static int fix_stored(gb_solver_t *s, const gb_trace_t *t, const gb_stored_t *sv, size_t nsv,
                      gb_flip_t *out, size_t *broken, gb_err_t *e)
{
    size_t len, n = out->model.n, cap = n + nsv * GB_STORED_MAX;
    uint8_t *b = combine(s, &out->model, &len);
    uint64_t *offs = gb_malloc(cap * sizeof *offs);
    uint8_t *vals = gb_malloc(cap);
    int r = -1;
    if (!b || !offs || !vals)
        goto done;
    memcpy(offs, out->model.offsets, n * sizeof *offs);
    memcpy(vals, out->model.values, n);
    for (size_t i = 0; i < nsv; i++) {
        uint8_t y[GB_STORED_MAX];
        int f = sv[i].offs[sv[i].n - 1] < len ? gb_stored_fix(t, &sv[i], b, len, y) : 0;
        if (f < 0)
            goto done;
        if (f == 0) { /* the child breaks this one: the next generation repairs it */
            ++*broken;
            continue;
        }
        for (size_t k = 0; k < sv[i].n; k++) {
            b[sv[i].offs[k]] = y[k];
            offs[n] = sv[i].offs[k];
            vals[n++] = y[k];
        }
        s->stats.stored_fixed++;
    }
    uint64_t *pair = gb_malloc((n ? n : 1) * 2 * sizeof *pair); /* ascending, as models are */
    if (!pair)
        goto done;
    for (size_t i = 0; i < n; i++)
        pair[2 * i] = offs[i], pair[2 * i + 1] = vals[i];
    qsort(pair, n, 2 * sizeof *pair, cmp_u64);
    for (size_t i = 0; i < n; i++)
        offs[i] = pair[2 * i], vals[i] = (uint8_t)pair[2 * i + 1];
    gb_free(pair);
    r = set_model(out, offs, NULL, vals, n);
done:
    if (r != 0)
        gb_err_set(e, "out of memory fixing stored values");
    gb_free(b);
    gb_free(offs);
    gb_free(vals);
    return r;
}

static int solve_entry(gb_solver_t *s, const gb_trace_t *t, size_t j, gb_flip_t *out,
                       gb_err_t *e)
{
    query_t q = {gb_malloc((j + 1) * sizeof(gb_conj_t)), gb_malloc((j + 1) * sizeof(size_t)), 0};
    gb_stored_t *sv = NULL;
    size_t nsv = 0;
    int r = -1;
    if (!q.cj || !q.entry) {
        gb_err_set(e, "out of memory building a query");
        goto done;
    }
    build_query(&s->ts, t, j, s->opts.optimistic, &q);
    out->slice_size = q.n - 1;
    if (drop_stored(s, t, &q, &sv, &nsv, e) != 0)
        goto done;
    adapt_t *ad = (s->opts.disable & GB_SOLVER_NO_ADAPT) ? NULL
                                                         : adapt_get(s, t->pcs[j].site, !t->pcs[j].taken);
    size_t dropped = 0;
    /* Relaxed first: at a (site, direction) where Z3 refuted the whole
     * query (or ran out of time) GB_RELAX_AFTER times in a row and
     * ¬PC[j] alone was then decided, the whole query skips Z3 (the
     * stages before it still run) and goes straight to the last resort.
     * Not while the relaxed answer would not be used: in directed mode's
     * exact flips, repairs (kept bytes), retries (patience). */
    int relaxable = ad && s->opts.optimistic && !s->no_last_resort && !s->nkeep &&
                    !s->patience && q.n > 1;
    s->relax_first = relaxable && ad->relaxed >= GB_RELAX_AFTER &&
                     ++ad->skips % GB_RELAX_RECHECK != 0;
    /* one budget for the flip's checks, the last resort's too */
    gb_z3_set_query_end(s->z3, gb_mono_ms() + (uint64_t)GB_FLIP_BUDGET_LIMITS * timeout_for(s, ad) +
                                   GB_FLIP_BUDGET_SLACK_MS);
    int r0 = answer_query(s, t, &q, ad, out, &out->status, &dropped, e);
    int skipped = out->stage == GB_STAGE_RELAXED; /* answer() sets it only when told to */
    int asked = out->stage == GB_STAGE_Z3;
    s->relax_first = 0;
    if (r0 != 0)
        goto done;
    if (out->status == GB_Q_SAT && nsv && fix_stored(s, t, sv, nsv, out, &dropped, e) != 0)
        goto done;
    if (out->status == GB_Q_SAT && dropped)
        out->optimistic = 1; /* pins in the way were dropped (or a stored value), the rest kept */
    if ((out->status == GB_Q_UNSAT || out->status == GB_Q_TIMEOUT) && s->opts.optimistic &&
        !s->no_last_resort && q.n > 1) {
        /* QSYM's last resort when the slice conflicts even without its
         * pins, or when Z3 could not decide it in time: ¬PC[j] alone. A
         * checksum or a parse position links a parser's path constraint
         * into slices of hundreds of conjuncts that Z3 cannot decide in
         * time even when the flip reads one byte (lz4's seeds: 18 Z3
         * timeouts and 56 budget skips in 671 flips); the child that
         * breaks the checksum is repaired by the next generation. */
        gb_qstatus_t st;
        q.cj[0] = q.cj[q.n - 1];
        q.entry[0] = q.entry[q.n - 1];
        q.n = 1;
        if (answer_query(s, t, &q, ad, out, &st, &dropped, e) != 0)
            goto done;
        if (st == GB_Q_SAT) {
            out->status = GB_Q_SAT;
            out->optimistic = 1;
        } else if (st == GB_Q_UNSAT && skipped)
            out->status = GB_Q_UNSAT; /* ¬PC[j] alone has no model: nor has the whole */
        if (relaxable && asked && st != GB_Q_TIMEOUT)
            ad->relaxed = (uint8_t)(ad->relaxed + (ad->relaxed < UINT8_MAX));
    } else if (relaxable && asked && out->status == GB_Q_SAT) {
        ad->relaxed = 0;
    }
    r = 0;
done:
    gb_z3_set_query_end(s->z3, 0);
    gb_free(q.cj);
    gb_free(q.entry);
    gb_free(sv);
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
    s->clauses = gb_clauses_new();
    s->cache = gb_cache_new();
    s->adapt = gb_calloc(GB_ADAPT_SLOTS, sizeof *s->adapt);
    if (!s->clauses || !s->cache || !s->adapt) {
        gb_solver_free(s);
        return gb_err_set(e, "out of memory creating the solver");
    }
    if (gb_z3_new(&s->z3, e) != 0) {
        gb_solver_free(s);
        return -1;
    }
    gb_z3_set_narrow(s->z3, !(s->opts.disable & GB_SOLVER_NO_NARROW));
    *out = s;
    return 0;
}

void gb_solver_free(gb_solver_t *s)
{
    if (!s)
        return;
    gb_solver_set_keep(s, NULL, NULL, 0);
    state_clear(&s->ts);
    gb_z3_free(s->z3);
    gb_clauses_free(s->clauses);
    gb_cache_free(s->cache);
    gb_free(s->adapt);
    gb_free(s);
}

void gb_solver_set_last_resort(gb_solver_t *s, int on)
{
    s->no_last_resort = !on;
}

void gb_solver_set_ceiling(gb_solver_t *s, unsigned mb, int exit_status, const char *what)
{
    gb_z3_set_ceiling(s->z3, (size_t)mb << 20, exit_status, what);
}

void gb_solver_set_patience(gb_solver_t *s, unsigned shift)
{
    s->patience = shift < GB_RETRY_PATIENCE_MAX ? shift : GB_RETRY_PATIENCE_MAX;
}

void gb_solver_set_check_log(gb_solver_t *s, FILE *f) { gb_z3_set_check_log(s->z3, f); }

void gb_solver_set_stop(gb_solver_t *s, const volatile sig_atomic_t *flag, uint64_t end_ms)
{
    gb_z3_set_stop(s->z3, flag, end_ms);
}

static int by_offset(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int gb_solver_set_keep(gb_solver_t *s, const uint64_t *offs, const uint8_t *vals, size_t n)
{
    gb_free(s->keep_off);
    gb_free(s->keep_val);
    s->keep_off = NULL, s->keep_val = NULL, s->nkeep = 0;
    if (n == 0)
        return 0;
    uint64_t *pair = gb_malloc(n * 2 * sizeof *pair);
    s->keep_off = gb_malloc(n * sizeof *s->keep_off);
    s->keep_val = gb_malloc(n);
    if (!pair || !s->keep_off || !s->keep_val) {
        gb_free(pair);
        return gb_solver_set_keep(s, NULL, NULL, 0) - 1;
    }
    for (size_t i = 0; i < n; i++)
        pair[2 * i] = offs[i], pair[2 * i + 1] = vals[i];
    qsort(pair, n, 2 * sizeof *pair, by_offset);
    for (size_t i = 0; i < n; i++)
        s->keep_off[i] = pair[2 * i], s->keep_val[i] = (uint8_t)pair[2 * i + 1];
    s->nkeep = n;
    gb_free(pair);
    return 0;
}

void gb_solver_set_input(gb_solver_t *s, const uint8_t *data, size_t len)
{
    s->input = data;
    s->input_len = data ? len : 0;
}

static void count_flip(gb_solver_t *s, const gb_flip_t *out)
{
    if (out->status == GB_Q_SAT)
        s->stats.queries_sat++;
    else if (out->status == GB_Q_UNSAT)
        s->stats.queries_unsat++;
    else
        s->stats.queries_timeout++;
    s->stats.queries_optimistic += out->optimistic != 0;
}

int gb_solver_flip(gb_solver_t *s, const gb_trace_t *t, size_t j, gb_flip_t *out, gb_err_t *e)
{
    memset(out, 0, sizeof *out);
    out->status = GB_Q_SKIP;
    if (!s || !t || j >= t->npcs)
        return gb_err_set(e, "gb_solver_flip: entry %zu out of range", j);
    if (t->pcs[j].kind == GBT_PC_PIN)
        return 0;
    uint64_t t0 = mono_us();
    if (state_for(s, t, e) != 0 || state_lists(&s->ts, t, j, e) != 0)
        return -1;
    s->stats.queries_total++;
    int r = 0;
    if (s->ts.voff[j] == s->ts.voff[j + 1]) {
        s->stats.cut_slice_empty++; /* a constant condition: nothing to flip */
        out->stage = GB_STAGE_SLICE;
    } else {
        state_union(&s->ts, t, j);
        r = solve_entry(s, t, j, out, e);
        if (r != 0)
            gb_flip_clear(out);
        else
            count_flip(s, out);
    }
    s->flip_us += mono_us() - t0;
    return r;
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
    st->solver_time_ms = s->flip_us / 1000;
    st->z3_time_ms = s->z3_us / 1000;
    st->nodes_narrowed = gb_z3_narrowed(s->z3);
    st->answers_bytes = s->cache ? gb_cache_bytes(s->cache) : 0;
    st->clauses_bytes = s->clauses ? gb_clauses_bytes(s->clauses) : 0;
    st->z3_bytes = gb_z3_mem_bytes();
    st->z3_renewals = gb_z3_renewals(s->z3);
    st->z3_memouts = gb_z3_memouts(s->z3);
    st->z3_overruns = gb_z3_overruns(s->z3);
}

/* ---- Persistence ------------------------------------------------------ */

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int gb_solver_clauses_load(gb_solver_t *s, const char *dir, int own, size_t *added, gb_err_t *e)
{
    *added = 0;
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : gb_err_sys(e, "cannot open %s", dir);
    int r = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!ends_with(de->d_name, ".gbc"))
            continue;
        char path[4096];
        size_t n = 0;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (gb_clauses_load(s->clauses, path, own, &n, e) != 0)
            r = -1; /* the other files are still read */
        *added += n;
        s->stats.clauses_loaded += n;
    }
    closedir(d);
    if (own)
        s->clauses_saved = gb_clauses_local_added(s->clauses);
    return r;
}

int gb_solver_clauses_import(gb_solver_t *s, const char *sync_dir, const char *own_name,
                             size_t *added, gb_err_t *e)
{
    *added = 0;
    DIR *d = opendir(sync_dir);
    if (!d)
        return errno == ENOENT ? 0 : gb_err_sys(e, "cannot open %s", sync_dir);
    int bad = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char dir[4096];
        struct stat sb;
        size_t n = 0;
        snprintf(dir, sizeof dir, "%s/%s/clauses", sync_dir, de->d_name);
        if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
            continue;
        int own = own_name && strcmp(de->d_name, own_name) == 0;
        if (gb_solver_clauses_load(s, dir, own, &n, e) != 0)
            bad++;
        *added += n;
    }
    closedir(d);
    return bad;
}

int gb_solver_clauses_save(gb_solver_t *s, const char *dir, gb_err_t *e)
{
    uint64_t local = gb_clauses_local_added(s->clauses);
    if (local == s->clauses_saved)
        return 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/clauses.gbc", dir);
    if (gb_mkdirs(dir, e) != 0 || gb_clauses_save(s->clauses, path, dir, e) != 0)
        return -1;
    s->clauses_saved = local;
    return 0;
}

int gb_solver_cache_load(gb_solver_t *s, const char *path, gb_err_t *e)
{
    struct stat sb;
    if (stat(path, &sb) != 0 && errno == ENOENT)
        return 0;
    return gb_cache_load(s->cache, path, e);
}

int gb_solver_cache_save(gb_solver_t *s, const char *path, gb_err_t *e)
{
    if (!gb_cache_dirty(s->cache))
        return 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    if (gb_mkdirs(dir, e) != 0)
        return -1;
    return gb_cache_save(s->cache, path, dir, e);
}

/* ---- Verification (tests, glassbox solve --check) --------------------- */

size_t gb_model_length(const gb_model_t *m, size_t parent_len, size_t max_len)
{
    uint64_t n = parent_len;
    for (size_t i = 0; i < m->n; i++) {
        if (!gbt_is_len_offset(m->offsets[i]))
            continue;
        unsigned sh = 8 * (unsigned)(m->offsets[i] - GBT_LEN_OFFSET);
        n = (n & ~((uint64_t)0xff << sh)) | ((uint64_t)m->values[i] << sh);
    }
    return n > max_len ? max_len : (size_t)n;
}

uint8_t *gb_model_apply(const uint8_t *parent, size_t parent_len, const gb_model_t *m,
                        size_t max_len, size_t *len)
{
    size_t n = gb_model_length(m, parent_len, max_len);
    uint8_t *b = gb_calloc(n ? n : 1, 1);
    if (!b)
        return NULL;
    if (parent_len)
        memcpy(b, parent, parent_len < n ? parent_len : n);
    for (size_t i = 0; i < m->n; i++)
        if (m->offsets[i] < n)
            b[m->offsets[i]] = m->values[i];
    *len = n;
    return b;
}

uint8_t *gb_model_apply_at(const uint8_t *parent, size_t parent_len, const gb_model_t *m,
                           size_t at, size_t max_len, size_t *len)
{
    size_t n = gb_model_length(m, parent_len, max_len);
    if (n <= parent_len || at > parent_len)
        return gb_model_apply(parent, parent_len, m, max_len, len);
    size_t grow = n - parent_len;
    uint8_t *b = gb_calloc(n, 1);
    if (!b)
        return NULL;
    if (at)
        memcpy(b, parent, at);
    if (parent_len > at)
        memcpy(b + at + grow, parent + at, parent_len - at);
    for (size_t i = 0; i < m->n; i++) {
        uint64_t o = m->offsets[i];
        if (gbt_is_len_offset(o))
            continue;
        uint64_t to = gb_model_place(o, parent_len, at, grow);
        if (to < n)
            b[to] = m->values[i];
    }
    *len = n;
    return b;
}

/* The parent input with m's bytes written over it (and its length, when
 * the model sets the length variable). */
static uint8_t *combine(const gb_solver_t *s, const gb_model_t *m, size_t *len)
{
    return gb_model_apply(s->input, s->input_len, m, (size_t)1 << (8 * GBT_LEN_BYTES), len);
}

static int verify_model(gb_solver_t *s, const gb_trace_t *t, const query_t *q,
                        const qvars_t *qv, const gb_model_t *m, int *z3_ok, int *eval_ok,
                        gb_err_t *e)
{
    size_t len;
    uint8_t *b = combine(s, m, &len), *vals = gb_malloc(qv->n ? qv->n : 1);
    if (!b || !vals) {
        gb_free(b);
        gb_free(vals);
        return gb_err_set(e, "out of memory verifying a model");
    }
    *eval_ok = 1;
    for (size_t i = 0; i < q->n; i++) /* PC[j] is the last conjunct and must not hold */
        *eval_ok &= gb_trace_eval_pc(t, q->entry[i], b, len) == (i + 1 < q->n);
    for (size_t i = 0; i < qv->n; i++)
        vals[i] = gbt_input_byte(b, len, qv->offs[i]);
    gb_qstatus_t st;
    int r = gb_z3_holds(s->z3, &(gb_z3_query_t){t, q->cj, q->n},
                        &(gb_z3_vars_t){qv->nodes, qv->n, vals}, 60000, &st, e);
    *z3_ok = r == 0 && st == GB_Q_SAT;
    gb_free(b);
    gb_free(vals);
    return r;
}

int gb_solver_verify(gb_solver_t *s, const gb_trace_t *t, size_t j, int relaxed,
                     const gb_model_t *m, gb_qstatus_t *st, int *z3_ok, int *eval_ok,
                     gb_err_t *e)
{
    *z3_ok = *eval_ok = 0;
    if (!s || !t || j >= t->npcs || state_for(s, t, e) != 0 || state_lists(&s->ts, t, j, e) != 0)
        return e && !e->msg[0] ? gb_err_set(e, "gb_solver_verify: bad entry %zu", j) : -1;
    state_union(&s->ts, t, j);
    query_t q = {gb_malloc((j + 1) * sizeof(gb_conj_t)), gb_malloc((j + 1) * sizeof(size_t)), 0};
    qvars_t qv = {NULL, NULL, 0};
    uint8_t *vals = NULL;
    int r = -1;
    if (!q.cj || !q.entry)
        goto done;
    build_query(&s->ts, t, j, 0, &q);
    if (relaxed) {
        q.cj[0] = q.cj[q.n - 1];
        q.entry[0] = q.entry[q.n - 1];
        q.n = 1;
    }
    if (get_qvars(&s->ts, t, &q, &qv) != 0)
        goto done;
    vals = gb_malloc(qv.n ? qv.n : 1);
    gb_z3_out_t o = {.core = NULL}; /* no core: nothing is learned here */
    if (!vals ||
        gb_z3_check(s->z3, &(gb_z3_query_t){t, q.cj, q.n}, &(gb_z3_vars_t){qv.nodes, qv.n, vals},
                    &(gb_z3_limits_t){.timeout_ms = 60000}, &o, e) != 0)
        goto done;
    *st = o.status;
    r = m ? verify_model(s, t, &q, &qv, m, z3_ok, eval_ok, e) : 0;
done:
    if (r != 0 && e && !e->msg[0])
        gb_err_set(e, "out of memory verifying a query");
    gb_free(q.cj);
    gb_free(q.entry);
    free_qvars(&qv);
    gb_free(vals);
    return r;
}
