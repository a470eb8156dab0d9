/* SPDX-License-Identifier: Apache-2.0 */
/* Stored values: a conjunct `S == F` whose side S is assembled from input
 * bytes no other conjunct of the query reads (a checksum, length or hash
 * field) is left out of the query and fixed after it: S's bytes are solved
 * for the value F has on the child, by inverting S's bit permutation. */
#include <string.h>

#include "symbolic_int.h"

/* S's value with its bytes set to y[0..n) (others read as 0: S reads none). */
static uint64_t eval_side(const gb_dag_t *d, const gb_stored_t *sv, const uint32_t *list,
                          size_t nl, uint64_t *val, const uint8_t *y)
{
    for (size_t i = 0; i < nl; i++) {
        const gb_node_t *x = &d->nodes[list[i]];
        uint64_t a[3] = {0, 0, 0};
        for (unsigned k = 0; k < x->nargs; k++)
            a[k] = val[gb_dag_pos(list, i, x->args[k])];
        if (x->op == GBT_OP_INPUT) {
            size_t p = gb_lower_u64(sv->offs, sv->n, x->imm);
            val[i] = p < sv->n && sv->offs[p] == x->imm ? y[p] : 0;
        } else {
            val[i] = gb_dag_apply(d, x, a);
        }
    }
    return nl ? val[nl - 1] : 0;
}

/* Learns S's bit permutation: each bit of each byte moves one bit of S,
 * no two the same, and S is their XOR with its value at zero (checked on
 * a few mixed assignments too). 1 if S is such a permutation. */
static int learn_perm(const gb_dag_t *d, gb_stored_t *sv, const uint32_t *list, size_t nl,
                      uint64_t *val)
{
    uint8_t y[GB_STORED_MAX] = {0};
    sv->base = eval_side(d, sv, list, nl, val, y);
    uint64_t cover = 0;
    for (size_t k = 0; k < sv->n; k++)
        for (unsigned i = 0; i < 8; i++) {
            y[k] = (uint8_t)(1u << i);
            uint64_t dv = eval_side(d, sv, list, nl, val, y) ^ sv->base;
            y[k] = 0;
            if (dv == 0 || (dv & (dv - 1)) || (cover & dv))
                return 0;
            cover |= dv;
            sv->bit[k * 8 + i] = dv;
        }
    static const uint8_t mix[3][GB_STORED_MAX] = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
                                                  {0xa5, 0x3c, 0x96, 0x0f, 0xf0, 0x69, 0xc3, 0x5a},
                                                  {0x01, 0x80, 0x7e, 0x55, 0xaa, 0x18, 0xe7, 0x42}};
    for (size_t m = 0; m < 3; m++) {
        uint64_t want = sv->base;
        for (size_t k = 0; k < sv->n; k++)
            for (unsigned i = 0; i < 8; i++)
                if (mix[m][k] >> i & 1)
                    want ^= sv->bit[k * 8 + i];
        if (eval_side(d, sv, list, nl, val, mix[m]) != want)
            return 0;
    }
    return 1;
}

/* 1 if every input offset under node x is read by no other conjunct
 * (counts: the query's offsets with repeats, sorted) and x reads at most
 * GB_STORED_MAX of them; fills sv->offs. */
static int lone_bytes(const gb_dag_t *d, const uint32_t *list, size_t nl, const uint64_t *counts,
                      size_t ncounts, gb_stored_t *sv)
{
    sv->n = 0;
    for (size_t i = 0; i < nl; i++) {
        const gb_node_t *x = &d->nodes[list[i]];
        if (x->op == GBT_OP_READ)
            return 0; /* a table: not a byte assembly */
        if (x->op != GBT_OP_INPUT)
            continue;
        size_t lo = gb_lower_u64(counts, ncounts, x->imm);
        if (gbt_is_len_offset(x->imm) || sv->n == GB_STORED_MAX ||
            (lo + 1 < ncounts && counts[lo + 1] == x->imm))
            return 0; /* the length, too many bytes, or another conjunct reads it */
        sv->offs[sv->n++] = x->imm; /* list is ascending by node, not offset: sort below */
    }
    for (size_t i = 1; i < sv->n; i++) /* insertion sort: at most 8 */
        for (size_t k = i; k > 0 && sv->offs[k - 1] > sv->offs[k]; k--) {
            uint64_t t = sv->offs[k];
            sv->offs[k] = sv->offs[k - 1];
            sv->offs[k - 1] = t;
        }
    return sv->n > 0;
}

/* 1 if x's sub-DAG reads an input byte of sv. */
static int reads_any(const gb_dag_t *d, uint32_t x, const gb_stored_t *sv, int *err)
{
    uint32_t *list;
    size_t n = gb_dag_reach(d, &x, 1, &list);
    if (n == (size_t)-1) {
        *err = 1;
        return 1;
    }
    int hit = 0, any_input = 0;
    for (size_t i = 0; i < n && !hit; i++) {
        const gb_node_t *y = &d->nodes[list[i]];
        if (y->op != GBT_OP_INPUT)
            continue;
        any_input = 1;
        size_t p = gb_lower_u64(sv->offs, sv->n, y->imm);
        hit = p < sv->n && sv->offs[p] == y->imm;
    }
    gb_free(list);
    return hit || !any_input; /* F must be computed from bytes, and not from S's */
}

/* Tries side `s` of the equality as S, `f` as F. */
static int try_side(const gb_dag_t *d, uint32_t s, uint32_t f, const uint64_t *counts,
                    size_t ncounts, gb_stored_t *sv, int *err)
{
    uint32_t *list;
    size_t nl = gb_dag_reach(d, &s, 1, &list);
    if (nl == (size_t)-1) {
        *err = 1;
        return 0;
    }
    uint64_t *val = nl <= GB_STORED_NODES ? gb_malloc(nl * sizeof *val) : NULL;
    int ok = val && d->nodes[s].width <= 64 &&
             lone_bytes(d, list, nl, counts, ncounts, sv) && learn_perm(d, sv, list, nl, val);
    if (nl <= GB_STORED_NODES && !val)
        *err = 1;
    gb_free(val);
    gb_free(list);
    if (!ok || reads_any(d, f, sv, err))
        return 0;
    sv->side = s;
    sv->other = f;
    return 1;
}

int gb_stored_find(const gb_trace_t *t, const gb_conj_t *cj, size_t nc, const uint64_t *counts,
                   size_t ncounts, gb_stored_t *out, size_t cap, size_t *nout)
{
    const gb_dag_t *d = &t->dag;
    int err = 0;
    *nout = 0;
    for (size_t i = 0; i + 1 < nc && *nout < cap && !err; i++) {
        const gb_node_t *x = &d->nodes[cj[i].node];
        if (cj[i].soft || x->nargs != 2 ||
            !((x->op == GBT_OP_EQ && cj[i].value) || (x->op == GBT_OP_NE && !cj[i].value)))
            continue;
        gb_stored_t *sv = &out[*nout];
        memset(sv, 0, sizeof *sv);
        sv->conj = i;
        if (try_side(d, x->args[0], x->args[1], counts, ncounts, sv, &err) ||
            (!err && try_side(d, x->args[1], x->args[0], counts, ncounts, sv, &err)))
            ++*nout;
    }
    return err ? -1 : 0;
}

int gb_stored_fix(const gb_trace_t *t, const gb_stored_t *sv, uint8_t *in, size_t len,
                  uint8_t *y)
{
    const gb_dag_t *d = &t->dag;
    uint64_t want;
    if (gb_dag_eval(d, sv->other, in, len, &want) != 0)
        return -1;
    want &= gb_mask(d->nodes[sv->side].width);
    uint64_t diff = want ^ sv->base, cover = 0;
    memset(y, 0, GB_STORED_MAX);
    for (size_t k = 0; k < sv->n; k++)
        for (unsigned i = 0; i < 8; i++) {
            cover |= sv->bit[k * 8 + i];
            if (diff & sv->bit[k * 8 + i])
                y[k] |= (uint8_t)(1u << i);
        }
    return (diff & ~cover) == 0; /* bits S cannot change must already agree */
}
