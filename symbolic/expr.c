/* SPDX-License-Identifier: Apache-2.0 */
/* The expression DAG: hash-consed nodes with folding on construction, the
 * concrete bit-vector semantics (tracer/gb_bv.h), reachability and evaluation. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "symbolic_int.h"

/* ---- Concrete semantics ---------------------------------------------- */

/* The definition lives in tracer/gb_bv.h, shared with the runtime's
 * folding, so that a value folded in a target is the value evaluated here
 * and the value Z3 gives. */
uint64_t gb_expr_apply(unsigned op, unsigned width, unsigned aw0, unsigned aw1,
                       const uint64_t *a, uint64_t imm)
{
    return gb_bv_apply(op, width, aw0, aw1, a, imm);
}

/* ---- Tables ---------------------------------------------------------- */

int gb_dag_add_table(gb_dag_t *d, uint32_t id, const uint8_t *bytes, size_t len)
{
    gb_table_t *nt = gb_realloc(d->tables, (d->ntables + 1) * sizeof *nt);
    if (!nt)
        return -1;
    d->tables = nt;
    uint8_t *b = gb_malloc(len ? len : 1);
    if (!b)
        return -1;
    memcpy(b, bytes, len);
    d->tables[d->ntables++] = (gb_table_t){id, (uint32_t)len, b};
    return 0;
}

const gb_table_t *gb_dag_table(const gb_dag_t *d, uint32_t id)
{
    for (size_t i = 0; i < d->ntables; i++)
        if (d->tables[i].id == id)
            return &d->tables[i];
    return NULL;
}

uint64_t gb_table_read(const gb_table_t *t, uint64_t off, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = width / 8; i-- > 0;) {
        uint64_t o = off + i;
        v = v << 8 | (t && o >= off && o < t->len ? t->bytes[o] : 0);
    }
    return v;
}

uint64_t gb_dag_apply(const gb_dag_t *d, const gb_node_t *x, const uint64_t *a)
{
    if (x->op == GBT_OP_READ)
        return gb_table_read(gb_dag_table(d, (uint32_t)x->imm), a[0], x->width);
    unsigned aw0 = x->nargs > 0 ? d->nodes[x->args[0]].width : 0;
    unsigned aw1 = x->nargs > 1 ? d->nodes[x->args[1]].width : 0;
    return gb_expr_apply(x->op, x->width, aw0, aw1, a, x->imm);
}

/* ---- Hash-consing ---------------------------------------------------- */

static uint64_t node_hash(const gb_node_t *k)
{
    uint8_t buf[24];
    buf[0] = k->op;
    buf[1] = k->width;
    buf[2] = k->nargs;
    buf[3] = 0;
    for (int i = 0; i < 3; i++)
        gbt_put32(buf + 4 + 4 * i, k->args[i]);
    gbt_put64(buf + 16, k->imm);
    return XXH3_64bits(buf, sizeof buf);
}

static int node_same(const gb_node_t *a, const gb_node_t *b)
{
    return a->hash == b->hash && a->op == b->op && a->width == b->width &&
           a->imm == b->imm && a->args[0] == b->args[0] && a->args[1] == b->args[1] &&
           a->args[2] == b->args[2];
}

static uint64_t key_hash(const gb_dag_t *d, const gb_node_t *k)
{
    (void)d;
    return k->hash;
}

static uint64_t slot_hash(const gb_dag_t *d, const uint32_t *s)
{
    return d->nodes[*s - 1].hash;
}

static int slot_match(const gb_dag_t *d, const uint32_t *s, const gb_node_t *k)
{
    return node_same(&d->nodes[*s - 1], k);
}

static int slot_empty(const uint32_t *s)
{
    return *s == 0;
}

/* Zeroed by memset, as the table was before gb_hmap.h, not by calloc: fresh
 * zero pages read from the first probes cost more cache misses than pages
 * just written (cachegrind: 40% more last-level read misses). */
static void *calloc_touched(size_t n, size_t size)
{
    void *p = n <= SIZE_MAX / size ? gb_malloc(n * size) : NULL;
    return p ? memset(p, 0, n * size) : NULL;
}

GB_HMAP_FUNCS(gb_nodeset, uint32_t, const gb_node_t *, const gb_dag_t *, key_hash, slot_hash,
              slot_match, slot_empty, calloc_touched, gb_free)

int gb_dag_init(gb_dag_t *d)
{
    memset(d, 0, sizeof *d);
    return gb_nodeset_init(&d->htab, d, 512);
}

void gb_dag_fini(gb_dag_t *d)
{
    for (size_t i = 0; i < d->ntables; i++)
        gb_free(d->tables[i].bytes);
    gb_free(d->tables);
    gb_free(d->nodes);
    gb_nodeset_free(&d->htab);
    gb_free(d->vars);
    memset(d, 0, sizeof *d);
}

void gb_dag_seal(gb_dag_t *d)
{
    gb_nodeset_free(&d->htab);
}

static int push_var(gb_dag_t *d, uint32_t idx)
{
    if (gb_grow(&d->vars, &d->vcap, d->nvars + 1, sizeof *d->vars, 64) != 0)
        return -1;
    d->vars[d->nvars++] = idx;
    return 0;
}

/* A larger index, refilled in node order: every node is in it, and reading
 * their hashes in array order is faster than from the slots in their
 * random order (a rehash from the slots made loading 10% slower). */
static int grow_index(gb_dag_t *d)
{
    if (gb_nodeset_reset(&d->htab, d->n + 1) != 0)
        return -1;
    for (size_t i = 0; i < d->n; i++)
        *gb_nodeset_add_reserved(&d->htab, &d->nodes[i]) = (uint32_t)i + 1;
    return 0;
}

/* Appends the new node `k`: its index, or GB_NONE when out of memory. */
static uint32_t append(gb_dag_t *d, gb_node_t *k)
{
    if (d->n >= GB_NONE - 2)
        return GB_NONE;
    if (gb_grow(&d->nodes, &d->cap, d->n + 1, sizeof *d->nodes, 256) != 0)
        return GB_NONE;
    uint32_t idx = (uint32_t)d->n;
    k->var = GB_NONE;
    if (k->op == GBT_OP_INPUT) {
        if (push_var(d, idx) != 0)
            return GB_NONE;
        k->var = (uint32_t)(d->nvars - 1);
    }
    d->nodes[d->n++] = *k;
    return idx;
}

/* Finds or appends the node `k` (already folded). One probe finds it or
 * the slot for it; only a hit allocates nothing. */
static uint32_t intern(gb_dag_t *d, gb_node_t *k)
{
    k->hash = node_hash(k);
    if (gb_nodeset_full(&d->htab)) { /* grow the index, but not for a hit */
        const uint32_t *hit = gb_nodeset_find(&d->htab, k);
        if (hit)
            return *hit - 1;
        if (grow_index(d) != 0)
            return GB_NONE;
    }
    int fresh;
    uint32_t *s = gb_nodeset_put(&d->htab, k, &fresh); /* there is room: cannot fail */
    if (!fresh)
        return *s - 1;
    uint32_t idx = append(d, k);
    if (idx == GB_NONE)
        gb_nodeset_unput(&d->htab, s);
    else
        *s = idx + 1;
    return idx;
}

/* ---- Folding --------------------------------------------------------- */

static uint32_t mk_const(gb_dag_t *d, unsigned width, uint64_t v)
{
    return gb_dag_mk(d, GBT_OP_CONST, width, 0, NULL, v & gb_mask(width));
}

static uint32_t mk1(gb_dag_t *d, unsigned op, unsigned width, uint32_t a, uint64_t imm)
{
    return gb_dag_mk(d, op, width, 1, &a, imm);
}

static int is_const(const gb_dag_t *d, uint32_t i, uint64_t v)
{
    return d->nodes[i].op == GBT_OP_CONST && d->nodes[i].imm == v;
}

/* Extract of extract, of concat and of an extension: look through to the
 * part the bits come from. Returns GB_NONE - 1 when nothing applies. */
static uint32_t fold_extract(gb_dag_t *d, unsigned w, uint32_t x, uint64_t lo)
{
    const gb_node_t *n = &d->nodes[x];
    if (lo == 0 && w == n->width)
        return x;
    if (n->op == GBT_OP_EXTRACT)
        return mk1(d, GBT_OP_EXTRACT, w, n->args[0], lo + n->imm);
    if (n->op == GBT_OP_CONCAT) {
        uint32_t hi = n->args[0], low = n->args[1];
        unsigned wl = d->nodes[low].width;
        if (lo + w <= wl)
            return mk1(d, GBT_OP_EXTRACT, w, low, lo);
        if (lo >= wl)
            return mk1(d, GBT_OP_EXTRACT, w, hi, lo - wl);
    }
    if (n->op == GBT_OP_ZEXT || n->op == GBT_OP_SEXT) {
        uint32_t y = n->args[0];
        unsigned wy = d->nodes[y].width;
        if (lo + w <= wy)
            return mk1(d, GBT_OP_EXTRACT, w, y, lo);
        if (lo >= wy && n->op == GBT_OP_ZEXT)
            return mk_const(d, w, 0);
    }
    return GB_NONE - 1;
}

static uint32_t fold_concat(gb_dag_t *d, unsigned w, uint32_t hi, uint32_t lo)
{
    const gb_node_t *h = &d->nodes[hi], *l = &d->nodes[lo];
    if (h->op == GBT_OP_EXTRACT && l->op == GBT_OP_EXTRACT && h->args[0] == l->args[0] &&
        h->imm == l->imm + l->width)
        return mk1(d, GBT_OP_EXTRACT, w, l->args[0], l->imm);
    if (is_const(d, hi, 0))
        return mk1(d, GBT_OP_ZEXT, w, lo, 0);
    return GB_NONE - 1;
}

/* x op 0 / 0 op x identities and x op x for a few operators. */
static uint32_t fold_binary(gb_dag_t *d, unsigned op, unsigned w, uint32_t a, uint32_t b)
{
    int comm = op == GBT_OP_ADD || op == GBT_OP_OR || op == GBT_OP_XOR || op == GBT_OP_AND ||
               op == GBT_OP_MUL;
    if (comm && d->nodes[a].op == GBT_OP_CONST) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    if (d->nodes[b].op == GBT_OP_CONST) {
        uint64_t c = d->nodes[b].imm;
        if (c == 0 && (op == GBT_OP_ADD || op == GBT_OP_SUB || op == GBT_OP_OR ||
                       op == GBT_OP_XOR || op == GBT_OP_SHL || op == GBT_OP_LSHR ||
                       op == GBT_OP_ASHR))
            return a;
        if ((c == 0 && (op == GBT_OP_AND || op == GBT_OP_MUL)))
            return mk_const(d, w, 0);
        if ((op == GBT_OP_AND && c == gb_mask(w)) || (op == GBT_OP_MUL && c == 1))
            return a;
    }
    if (a == b) {
        if (op == GBT_OP_AND || op == GBT_OP_OR)
            return a;
        if (op == GBT_OP_XOR || op == GBT_OP_SUB)
            return mk_const(d, w, 0);
        if (op == GBT_OP_EQ || op == GBT_OP_ULE || op == GBT_OP_UGE || op == GBT_OP_SLE ||
            op == GBT_OP_SGE)
            return mk_const(d, 1, 1);
        if (op == GBT_OP_NE || op == GBT_OP_ULT || op == GBT_OP_UGT || op == GBT_OP_SLT ||
            op == GBT_OP_SGT)
            return mk_const(d, 1, 0);
    }
    return GB_NONE - 1;
}

/* A width-1 value compared with a constant is itself or its complement:
 * tracers often emit `(zext cmp) != 0`, which this brings back to `cmp`. */
static uint32_t fold_bool_cmp(gb_dag_t *d, unsigned op, uint32_t a, uint32_t b)
{
    if (d->nodes[a].op == GBT_OP_CONST) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    if (d->nodes[a].width != 1 || d->nodes[b].op != GBT_OP_CONST)
        return GB_NONE - 1;
    int keep = (op == GBT_OP_EQ) == (d->nodes[b].imm == 1);
    return keep ? a : mk1(d, GBT_OP_NOT, 1, a, 0);
}

static uint32_t fold_unary(gb_dag_t *d, unsigned op, unsigned w, uint32_t x, uint64_t imm)
{
    const gb_node_t *n = &d->nodes[x];
    if ((op == GBT_OP_NOT || op == GBT_OP_NEG) && n->op == op)
        return n->args[0];
    if ((op == GBT_OP_ZEXT || op == GBT_OP_SEXT) && n->op == op)
        return mk1(d, op, w, n->args[0], 0);
    if (op == GBT_OP_EXTRACT)
        return fold_extract(d, w, x, imm);
    return GB_NONE - 1;
}

/* Returns the folded node, GB_NONE on out of memory, GB_NONE - 1 if no fold. */
static uint32_t fold(gb_dag_t *d, unsigned op, unsigned width, unsigned nargs,
                     const uint32_t *args, uint64_t imm)
{
    int all_const = nargs > 0;
    uint64_t v[3] = {0, 0, 0};
    for (unsigned i = 0; i < nargs; i++) {
        all_const &= d->nodes[args[i]].op == GBT_OP_CONST;
        v[i] = d->nodes[args[i]].imm;
    }
    if (op == GBT_OP_READ) /* a constant offset reads a constant */
        return all_const ? mk_const(d, width, gb_table_read(gb_dag_table(d, (uint32_t)imm),
                                                            v[0], width))
                         : GB_NONE - 1;
    if (all_const) {
        unsigned aw0 = d->nodes[args[0]].width;
        unsigned aw1 = nargs > 1 ? d->nodes[args[1]].width : 0;
        return mk_const(d, width, gb_expr_apply(op, width, aw0, aw1, v, imm));
    }
    if (op == GBT_OP_ITE) {
        if (d->nodes[args[0]].op == GBT_OP_CONST)
            return (d->nodes[args[0]].imm & 1) ? args[1] : args[2];
        return args[1] == args[2] ? args[1] : GB_NONE - 1;
    }
    if (nargs == 1)
        return fold_unary(d, op, width, args[0], imm);
    if (op == GBT_OP_CONCAT)
        return fold_concat(d, width, args[0], args[1]);
    if (nargs == 2) {
        uint32_t r = fold_binary(d, op, width, args[0], args[1]);
        if (r == GB_NONE - 1 && (op == GBT_OP_EQ || op == GBT_OP_NE))
            r = fold_bool_cmp(d, op, args[0], args[1]);
        return r;
    }
    return GB_NONE - 1;
}

static int commutative(unsigned op)
{
    return op == GBT_OP_ADD || op == GBT_OP_MUL || op == GBT_OP_AND || op == GBT_OP_OR ||
           op == GBT_OP_XOR || op == GBT_OP_EQ || op == GBT_OP_NE;
}

uint32_t gb_dag_mk(gb_dag_t *d, unsigned op, unsigned width, unsigned nargs,
                   const uint32_t *args, uint64_t imm)
{
    uint32_t r = fold(d, op, width, nargs, args, imm);
    if (r != GB_NONE - 1)
        return r;
    gb_node_t k;
    memset(&k, 0, sizeof k);
    k.op = (uint8_t)op;
    k.width = (uint8_t)width;
    k.nargs = (uint8_t)nargs;
    k.imm = imm;
    for (unsigned i = 0; i < nargs; i++)
        k.args[i] = args[i];
    if (nargs == 2 && commutative(op) && k.args[0] > k.args[1]) {
        k.args[0] = args[1];
        k.args[1] = args[0];
    }
    return intern(d, &k);
}

/* ---- Reachability and evaluation ------------------------------------- */

/* Nodes seen by a walk: node index + 1 (0 = empty). */
typedef struct nkey {
    uint32_t key;
} nkey_t;

static uint64_t nkey_hash(uint32_t key)
{
    return (uint32_t)((key - 1) * 2654435761u);
}

GB_HMAP_DEFINE_KEYED(walkset, nkey_t, uint32_t, nkey_hash, gb_calloc, gb_free)

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* A growable array of node indices. */
typedef struct u32vec {
    uint32_t *v;
    size_t n, cap;
} u32vec_t;

static int vec_push(u32vec_t *a, uint32_t x)
{
    if (gb_grow(&a->v, &a->cap, a->n + 1, sizeof *a->v, 64) != 0)
        return -1;
    a->v[a->n++] = x;
    return 0;
}

/* Pushes `x` on the DFS stack unless already seen; 0 or -1 (OOM). */
static int visit(walkset_t *seen, u32vec_t *stack, uint32_t x)
{
    int fresh;
    nkey_t *s = walkset_put(seen, x + 1, &fresh);
    if (!s)
        return -1;
    s->key = x + 1;
    return fresh ? vec_push(stack, x) : 0;
}

size_t gb_dag_reach(const gb_dag_t *d, const uint32_t *roots, size_t nroots, uint32_t **out)
{
    walkset_t seen;
    u32vec_t stack = {NULL, 0, 0}, list = {NULL, 0, 0};
    int ok = walkset_init(&seen, NULL, 32) == 0;
    for (size_t r = 0; ok && r < nroots; r++) {
        ok = visit(&seen, &stack, roots[r]) == 0;
        while (ok && stack.n > 0) {
            uint32_t x = stack.v[--stack.n];
            ok = vec_push(&list, x) == 0;
            for (unsigned i = 0; ok && i < d->nodes[x].nargs; i++)
                ok = visit(&seen, &stack, d->nodes[x].args[i]) == 0;
        }
    }
    walkset_free(&seen);
    gb_free(stack.v);
    if (!ok) {
        gb_free(list.v);
        *out = NULL;
        return (size_t)-1;
    }
    if (list.n == 0 && !list.v)
        list.v = gb_malloc(sizeof(uint32_t)); /* callers free unconditionally */
    qsort(list.v, list.n, sizeof *list.v, cmp_u32);
    *out = list.v;
    return list.n;
}

size_t gb_dag_pos(const uint32_t *list, size_t n, uint32_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (list[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int gb_trace_pc_inputs(const gb_trace_t *t, size_t j, uint64_t **offs, size_t *n)
{
    *offs = NULL;
    *n = 0;
    if (!t || j >= t->npcs)
        return -1;
    uint32_t *list;
    size_t m = gb_dag_reach(&t->dag, &t->pcs[j].node, 1, &list);
    if (m == (size_t)-1)
        return -1;
    uint64_t *v = gb_malloc((m ? m : 1) * sizeof *v);
    if (!v) {
        gb_free(list);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (t->dag.nodes[list[i]].op == GBT_OP_INPUT)
            v[k++] = t->dag.nodes[list[i]].imm;
    gb_free(list);
    qsort(v, k, sizeof *v, by_u64);
    *offs = v;
    *n = k;
    return 0;
}

uint64_t gb_trace_pc_read_end(const gb_trace_t *t, size_t j)
{
    if (!t || j >= t->npcs)
        return 0;
    uint32_t *list;
    size_t n = gb_dag_reach(&t->dag, &t->pcs[j].node, 1, &list);
    if (n == (size_t)-1)
        return 0;
    uint64_t end = 0;
    for (size_t i = 0; i < n; i++) {
        const gb_node_t *x = &t->dag.nodes[list[i]];
        if (x->op == GBT_OP_INPUT && !gbt_is_len_offset(x->imm) && x->imm + 1 > end)
            end = x->imm + 1;
    }
    gb_free(list);
    return end;
}

int gb_dag_eval(const gb_dag_t *d, uint32_t node, const uint8_t *input, size_t len,
                uint64_t *value)
{
    uint32_t *list;
    size_t n = gb_dag_reach(d, &node, 1, &list);
    if (n == (size_t)-1)
        return -1;
    uint64_t *val = gb_malloc((n ? n : 1) * sizeof *val);
    if (!val) {
        gb_free(list);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const gb_node_t *x = &d->nodes[list[i]];
        uint64_t a[3] = {0, 0, 0};
        for (unsigned k = 0; k < x->nargs; k++)
            a[k] = val[gb_dag_pos(list, i, x->args[k])];
        if (x->op == GBT_OP_INPUT)
            val[i] = gbt_input_byte(input, len, x->imm);
        else
            val[i] = gb_dag_apply(d, x, a);
    }
    *value = n ? val[n - 1] : 0;
    gb_free(val);
    gb_free(list);
    return 0;
}

int gb_trace_eval_pc(const gb_trace_t *t, size_t j, const uint8_t *input, size_t len)
{
    uint64_t v;
    if (!t || j >= t->npcs || gb_dag_eval(&t->dag, t->pcs[j].node, input, len, &v) != 0)
        return -1;
    return (v & 1) == t->pcs[j].taken;
}

int gb_trace_pc_const(const gb_trace_t *t, size_t j, uint64_t *value)
{
    if (!t || j >= t->npcs)
        return 0;
    const gb_node_t *x = &t->dag.nodes[t->pcs[j].node];
    if ((x->op != GBT_OP_EQ && x->op != GBT_OP_NE) || x->nargs != 2)
        return 0;
    const gb_node_t *a = &t->dag.nodes[x->args[0]], *b = &t->dag.nodes[x->args[1]];
    if ((a->op == GBT_OP_CONST) == (b->op == GBT_OP_CONST))
        return 0; /* two expressions, or a folded constant condition */
    *value = a->op == GBT_OP_CONST ? a->imm : b->imm;
    return 1;
}

/* The input offsets under `node`, into off[0 .. *n) (unsorted, repeats
 * kept), walking at most `budget` nodes: 0, or -1 past the budget or past
 * `cap` offsets. A bounded walk without a visited set: the callers want
 * small conditions only and stop at the first big one. */
static int small_inputs(const gb_dag_t *d, uint32_t node, uint64_t *off, size_t cap, size_t *n,
                        unsigned *budget)
{
    if (*budget == 0)
        return -1;
    (*budget)--;
    const gb_node_t *x = &d->nodes[node];
    if (x->op == GBT_OP_INPUT) {
        if (*n >= cap)
            return -1;
        off[(*n)++] = x->imm;
        return 0;
    }
    for (unsigned i = 0; i < x->nargs; i++)
        if (small_inputs(d, x->args[i], off, cap, n, budget) != 0)
            return -1;
    return 0;
}

/* The condition's value on `input` with byte k xor'd by 1 (k = SIZE_MAX:
 * as it is), or -1 on out of memory. */
static int value_with(const gb_trace_t *t, size_t j, uint8_t *input, size_t len, size_t k)
{
    if (k < len)
        input[k] ^= 1;
    uint64_t v;
    int rc = gb_dag_eval(&t->dag, t->pcs[j].node, input, len, &v);
    if (k < len)
        input[k] ^= 1;
    return rc != 0 ? -1 : (int)(v & 1);
}

int gb_trace_pc_token(const gb_trace_t *t, size_t j, const uint8_t *input, size_t len,
                      uint64_t *start, uint64_t *end)
{
    if (!t || j >= t->npcs || !input)
        return 0;
    uint64_t off[4 * GB_TOKEN_MAX];
    size_t n = 0;
    unsigned budget = 16 * GB_TOKEN_MAX;
    if (small_inputs(&t->dag, t->pcs[j].node, off, sizeof off / sizeof off[0], &n, &budget) != 0)
        return 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        if (gbt_is_len_offset(off[i]) || off[i] >= len)
            return 0;
        lo = off[i] < lo ? off[i] : lo;
        hi = off[i] + 1 > hi ? off[i] + 1 : hi;
    }
    if (n == 0 || hi - lo < 2 || hi - lo > GB_TOKEN_MAX)
        return 0;
    /* every byte of [lo, hi) read, and each one alone decides: a match */
    uint8_t seen[GB_TOKEN_MAX] = {0};
    for (size_t i = 0; i < n; i++)
        seen[off[i] - lo] = 1;
    /* the bytes up to hi are all it reads (no length variable) */
    uint8_t *buf = gb_malloc(hi);
    if (!buf)
        return 0;
    memcpy(buf, input, hi);
    int base = value_with(t, j, buf, hi, SIZE_MAX), ok = base >= 0;
    for (uint64_t k = lo; ok && k < hi; k++)
        ok = seen[k - lo] && value_with(t, j, buf, hi, (size_t)k) == !base;
    gb_free(buf);
    if (ok) {
        *start = lo;
        *end = hi;
    }
    return ok;
}
