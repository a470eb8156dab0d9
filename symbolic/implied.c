/* SPDX-License-Identifier: Apache-2.0 */
/* Entries the trace's pins already imply, so that slices can leave them out.
 *
 * A pin fixes a value the program used as an address. Its literals (the
 * conjuncts of a true AND, the disjuncts of a false OR, through NOT) and,
 * for a pinned x == c, the term x itself become facts. Every other entry is
 * evaluated with only those facts known; when that alone decides it the
 * way the run went, the entry adds nothing to a query whose prefix holds
 * the pins it used. Example: strchr's result is an ite chain over the whole
 * string; the NULL test on it reads every byte, and links them all into one
 * slice, while the pin on the result (folded to "no match before i, match
 * at i" by expr.c) decides it from the bytes up to the match.
 *
 * Sound for a query at j > drop_after[i]: every pin used is in the prefix;
 * it is either in the slice, so the model keeps it, or shares no byte with
 * the slice, so it keeps its concrete (true) value. Either way the facts
 * hold and so does the entry. Only pins supply facts and only other
 * entries are dropped, so no entry is dropped on the word of a dropped one.
 */
#include <stdint.h>
#include <string.h>

#include "symbolic_int.h"

#define NO_FACT UINT32_MAX

typedef struct facts {
    uint64_t *val;  /* per DAG node: its value when fprov != NO_FACT */
    uint32_t *prov; /* per DAG node: the earliest pin that fixes it */
} facts_t;

typedef struct item {
    uint32_t node;
    uint64_t val;
} item_t;

/* Records what pin p (node, taken) fixes. */
static int pin_facts(const gb_dag_t *d, facts_t *f, uint32_t node, uint8_t taken, uint32_t p)
{
    item_t *st = NULL;
    size_t n = 0, cap = 0;
    if (gb_grow(&st, &cap, 1, sizeof *st, 16) != 0)
        return -1;
    st[n++] = (item_t){node, taken};
    while (n > 0) {
        item_t it = st[--n];
        const gb_node_t *x = &d->nodes[it.node];
        if (x->op == GBT_OP_CONST || f->prov[it.node] != NO_FACT)
            continue;
        f->prov[it.node] = p;
        f->val[it.node] = it.val;
        item_t more[2];
        size_t k = 0;
        if (x->width == 1 &&
            ((x->op == GBT_OP_AND && it.val == 1) || (x->op == GBT_OP_OR && it.val == 0))) {
            more[k++] = (item_t){x->args[0], it.val};
            more[k++] = (item_t){x->args[1], it.val};
        } else if (x->width == 1 && x->op == GBT_OP_NOT) {
            more[k++] = (item_t){x->args[0], !it.val};
        } else if (x->op == GBT_OP_EQ && it.val == 1) {
            const gb_node_t *a = &d->nodes[x->args[0]], *b = &d->nodes[x->args[1]];
            if (a->op == GBT_OP_CONST && b->op != GBT_OP_CONST)
                more[k++] = (item_t){x->args[1], a->imm};
            else if (b->op == GBT_OP_CONST && a->op != GBT_OP_CONST)
                more[k++] = (item_t){x->args[0], b->imm};
        }
        if (k && gb_grow(&st, &cap, n + k, sizeof *st, 16) != 0) {
            gb_free(st);
            return -1;
        }
        for (size_t q = 0; q < k; q++)
            st[n++] = more[q];
    }
    gb_free(st);
    return 0;
}

/* Evaluates `root` knowing only the facts. Returns 1 with *value and *support
 * (the latest pin used; -1 for none) when they decide it, 0 when they do not,
 * -1 when out of memory. *work counts the nodes visited. */
static int eval_known(const gb_dag_t *d, const facts_t *f, uint32_t root, uint64_t *value,
                      int64_t *support, size_t *work)
{
    uint32_t *list;
    size_t n = gb_dag_reach(d, &root, 1, &list);
    if (n == (size_t)-1)
        return -1;
    *work += n;
    uint64_t *val = gb_malloc((n ? n : 1) * sizeof *val);
    int64_t *sup = gb_malloc((n ? n : 1) * sizeof *sup);
    uint8_t *known = gb_calloc(n ? n : 1, 1);
    int used = 0, r = -1;
    if (!val || !sup || !known)
        goto out;
    for (size_t q = 0; q < n; q++) {
        uint32_t id = list[q];
        const gb_node_t *x = &d->nodes[id];
        if (f->prov[id] != NO_FACT) {
            known[q] = 1, val[q] = f->val[id], sup[q] = f->prov[id], used = 1;
            continue;
        }
        if (x->op == GBT_OP_CONST) {
            known[q] = 1, val[q] = x->imm, sup[q] = -1;
            continue;
        }
        if (x->op == GBT_OP_INPUT || x->op == GBT_OP_READ || gbt_op_is_fp(x->op))
            continue;
        size_t pa[3] = {0, 0, 0};
        int all = 1;
        int64_t s = -1;
        uint64_t a[3] = {0, 0, 0};
        for (unsigned k = 0; k < x->nargs; k++) {
            pa[k] = gb_dag_pos(list, q, x->args[k]);
            all &= known[pa[k]];
            if (known[pa[k]]) {
                a[k] = val[pa[k]];
                s = sup[pa[k]] > s ? sup[pa[k]] : s;
            }
        }
        if (x->op == GBT_OP_ITE && known[pa[0]]) {
            size_t b = pa[(a[0] & 1) ? 1 : 2];
            if (known[b]) {
                int64_t sb = sup[b] > sup[pa[0]] ? sup[b] : sup[pa[0]];
                known[q] = 1, val[q] = val[b], sup[q] = sb;
            }
            continue;
        }
        /* an absorbing argument decides AND, OR and MUL alone */
        int absorbs = -1;
        for (unsigned k = 0; k < x->nargs && x->nargs == 2; k++) {
            if (!known[pa[k]])
                continue;
            uint64_t v = val[pa[k]];
            if (((x->op == GBT_OP_AND || x->op == GBT_OP_MUL) && v == 0) ||
                (x->op == GBT_OP_OR && v == gb_mask(x->width)))
                absorbs = (int)k;
        }
        if (absorbs >= 0) {
            known[q] = 1, val[q] = val[pa[absorbs]], sup[q] = sup[pa[absorbs]];
            continue;
        }
        if (all) {
            known[q] = 1, val[q] = gb_dag_apply(d, x, a), sup[q] = s;
        }
    }
    r = used && n && known[n - 1];
    if (r) {
        *value = val[n - 1];
        *support = sup[n - 1];
    }
out:
    gb_free(list);
    gb_free(val);
    gb_free(sup);
    gb_free(known);
    return r;
}

int gb_implied_drops(const gb_trace_t *t, size_t *drop_after, size_t budget)
{
    const gb_dag_t *d = &t->dag;
    for (size_t i = 0; i < t->npcs; i++)
        drop_after[i] = SIZE_MAX;
    facts_t f = {gb_malloc((d->n ? d->n : 1) * sizeof *f.val),
                 gb_malloc((d->n ? d->n : 1) * sizeof *f.prov)};
    int r = -1, any = 0;
    if (!f.val || !f.prov)
        goto out;
    memset(f.prov, 0xff, (d->n ? d->n : 1) * sizeof *f.prov);
    for (size_t p = 0; p < t->npcs && p < NO_FACT; p++) {
        if (t->pcs[p].kind != GBT_PC_PIN)
            continue;
        if (pin_facts(d, &f, t->pcs[p].node, t->pcs[p].taken, (uint32_t)p) != 0)
            goto out;
        any = 1;
    }
    r = 0;
    size_t work = 0;
    for (size_t i = 0; any && i < t->npcs && i < NO_FACT && work < budget; i++) {
        const gb_pc_t *pc = &t->pcs[i];
        if (pc->kind == GBT_PC_PIN || pc->kind == GBT_PC_CHECK ||
            d->nodes[pc->node].op == GBT_OP_CONST)
            continue;
        uint64_t v;
        int64_t s;
        int k = eval_known(d, &f, pc->node, &v, &s, &work);
        if (k < 0) {
            r = -1;
            goto out;
        }
        if (k == 1 && (v & 1) == pc->taken) {
            drop_after[i] = s > (int64_t)i ? (size_t)s : i;
            r++;
        }
    }
out:
    gb_free(f.val);
    gb_free(f.prov);
    return r;
}
