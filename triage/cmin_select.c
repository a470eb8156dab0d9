/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox cmin: which files to keep: the smallest input per element,
 * rarest elements first, then passes that can only shrink the result. */
#include <stdlib.h>
#include <string.h>

#include "cmin_int.h"

/* ---- Selection --------------------------------------------------------- */

/* Input a is better than b: smaller, then earlier (dir order, name). */
static int better(const cmin_set_t *set, size_t a, size_t b)
{
    if (set->in[a].size != set->in[b].size)
        return set->in[a].size < set->in[b].size;
    return a < b;
}

void cmin_sel_free(cmin_sel_t *s)
{
    gb_free(s->count);
    gb_free(s->best);
    gb_free(s->covered);
    gb_free(s->kept);
}

static int rank_cmp(const void *a, const void *b, void *ctx)
{
    const uint32_t *rank_count = ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (rank_count[x] != rank_count[y])
        return rank_count[x] < rank_count[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Per element: how many inputs have it and the best of them. */
static void sel_count(const cmin_ctx_t *c, const cmin_set_t *set, cmin_sel_t *sl)
{
    for (size_t i = 0; i < set->n; i++) {
        const cmin_in_t *in = &set->in[i];
        if (!cmin_counts(c, in))
            continue;
        size_t pos = 0;
        uint32_t el = 0;
        while (cmin_decode_next(in->trace, in->tlen, &pos, &el)) {
            sl->count[el]++;
            if (!sl->best[el] || better(set, i, sl->best[el] - 1))
                sl->best[el] = (uint32_t)i + 1;
        }
    }
}

/* Rarest element first: an uncovered one brings in its best input, and
 * everything that input covers is covered. */
static int sel_greedy(const cmin_set_t *set, cmin_sel_t *sl, size_t *nelem, gb_err_t *e)
{
    size_t n = 0;
    for (size_t el = 0; el < sl->space; el++)
        n += sl->count[el] != 0;
    *nelem = n;
    uint32_t *order = gb_malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return gb_err_set(e, "out of memory ordering %zu coverage elements", n);
    n = 0;
    for (size_t el = 0; el < sl->space; el++)
        if (sl->count[el])
            order[n++] = (uint32_t)el;
    qsort_r(order, n, sizeof *order, rank_cmp, sl->count);
    for (size_t k = 0; k < n; k++) {
        if (sl->covered[order[k]])
            continue;
        size_t b = sl->best[order[k]] - 1;
        sl->kept[b] = 1;
        const cmin_in_t *in = &set->in[b];
        size_t pos = 0;
        uint32_t el = 0;
        while (cmin_decode_next(in->trace, in->tlen, &pos, &el))
            sl->covered[el] = 1;
    }
    gb_free(order);
    return 0;
}

static int prune_cmp(const void *a, const void *b, void *ctx)
{
    const cmin_in_t *prune_base = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (prune_base[i].size != prune_base[j].size)
        return prune_base[i].size > prune_base[j].size ? -1 : 1;
    return i > j ? -1 : i < j;
}

/* The greedy walk can keep an input whose every element a later pick also
 * covers. Such inputs are dropped, largest first: the output only
 * shrinks, and what it covers stays the same. */
static int sel_prune(const cmin_set_t *set, cmin_sel_t *sl, gb_err_t *e)
{
    size_t nk = 0;
    for (size_t i = 0; i < set->n; i++)
        nk += sl->kept[i];
    size_t *ks = gb_malloc((nk ? nk : 1) * sizeof *ks);
    if (!ks)
        return gb_err_set(e, "out of memory pruning the selection");
    nk = 0;
    memset(sl->count, 0, sl->space * sizeof *sl->count); /* now: kept inputs per element */
    for (size_t i = 0; i < set->n; i++) {
        if (!sl->kept[i])
            continue;
        ks[nk++] = i;
        size_t pos = 0;
        uint32_t el = 0;
        while (cmin_decode_next(set->in[i].trace, set->in[i].tlen, &pos, &el))
            sl->count[el]++;
    }
    qsort_r(ks, nk, sizeof *ks, prune_cmp, set->in);
    for (size_t k = 0; k < nk; k++) {
        const cmin_in_t *in = &set->in[ks[k]];
        size_t pos = 0;
        uint32_t el = 0;
        int needed = 0;
        while (!needed && cmin_decode_next(in->trace, in->tlen, &pos, &el))
            needed = sl->count[el] < 2;
        if (needed)
            continue;
        sl->kept[ks[k]] = 0;
        pos = 0;
        el = 0;
        while (cmin_decode_next(in->trace, in->tlen, &pos, &el))
            sl->count[el]--;
    }
    gb_free(ks);
    return 0;
}

/* The ascending element ids of input i, into out (room for map_size). */
static size_t decode_all(const cmin_set_t *set, size_t i, uint32_t *out)
{
    size_t pos = 0, n = 0;
    uint32_t el = 0;
    while (cmin_decode_next(set->in[i].trace, set->in[i].tlen, &pos, &el))
        out[n++] = el;
    return n;
}

/* 1 when kept input k can give way to j: every element only k holds among
 * the kept inputs (count 1) j has too. Both lists ascend: one merge. */
static int can_swap(const uint32_t *count, const uint32_t *ek, size_t nk, const uint32_t *ej,
                    size_t nj)
{
    size_t b = 0;
    for (size_t a = 0; a < nk; a++) {
        if (count[ek[a]] >= 2)
            continue;
        while (b < nj && ej[b] < ek[a])
            b++;
        if (b == nj || ej[b] != ek[a])
            return 0;
    }
    return 1;
}

/* For each kept input, the best (smallest, then first) input not kept that
 * has every element only that kept input holds: one pass over all traces,
 * counting per kept input how many of its own elements each one has.
 * cand[k] = j + 1, or 0. best[] is reused as element -> owner + 1. */
static int find_smaller(const cmin_ctx_t *c, const cmin_set_t *set, cmin_sel_t *sl, uint32_t *cand,
                        gb_err_t *e)
{
    size_t n = set->n;
    uint32_t *need = gb_calloc(n, sizeof *need), *hits = gb_calloc(n, sizeof *hits);
    uint32_t *touched = gb_malloc(n * sizeof *touched);
    if (!need || !hits || !touched) {
        gb_free(need), gb_free(hits), gb_free(touched);
        return gb_err_set(e, "out of memory shrinking the selection");
    }
    memset(sl->best, 0, sl->space * sizeof *sl->best);
    for (size_t k = 0; k < n; k++) {
        size_t pos = 0;
        uint32_t el = 0;
        while (sl->kept[k] && cmin_decode_next(set->in[k].trace, set->in[k].tlen, &pos, &el))
            if (sl->count[el] == 1) {
                sl->best[el] = (uint32_t)k + 1;
                need[k]++;
            }
    }
    for (size_t j = 0; j < n; j++) {
        if (sl->kept[j] || !cmin_counts(c, &set->in[j]))
            continue;
        size_t pos = 0, nt = 0;
        uint32_t el = 0;
        while (cmin_decode_next(set->in[j].trace, set->in[j].tlen, &pos, &el))
            if (sl->best[el] && hits[sl->best[el] - 1]++ == 0)
                touched[nt++] = sl->best[el] - 1;
        for (size_t t = 0; t < nt; t++) {
            uint32_t k = touched[t];
            if (hits[k] == need[k] && set->in[j].size < set->in[k].size &&
                (!cand[k] || better(set, j, cand[k] - 1)))
                cand[k] = (uint32_t)j + 1;
            hits[k] = 0;
        }
    }
    gb_free(need), gb_free(hits), gb_free(touched);
    return 0;
}

/* A kept input is replaced by a smaller one that has every element only it
 * held: fewer bytes, the same files, the same coverage (each swap is
 * checked against the counts as they stand after the swaps before it). */
static int sel_shrink(const cmin_ctx_t *c, const cmin_set_t *set, cmin_sel_t *sl, gb_err_t *e)
{
    size_t n = set->n;
    uint32_t *cand = gb_calloc(n, sizeof *cand);
    uint32_t *ek = gb_malloc(c->map_size * sizeof *ek), *ej = gb_malloc(c->map_size * sizeof *ej);
    int rc = !cand || !ek || !ej ? gb_err_set(e, "out of memory shrinking the selection")
                                 : find_smaller(c, set, sl, cand, e);
    for (size_t k = 0; rc == 0 && k < n; k++) {
        if (!cand[k] || !sl->kept[k] || sl->kept[cand[k] - 1])
            continue;
        size_t j = cand[k] - 1, nk = decode_all(set, k, ek), nj = decode_all(set, j, ej);
        if (!can_swap(sl->count, ek, nk, ej, nj))
            continue;
        sl->kept[k] = 0;
        sl->kept[j] = 1;
        for (size_t a = 0; a < nk; a++)
            sl->count[ek[a]]--;
        for (size_t b = 0; b < nj; b++)
            sl->count[ej[b]]++;
    }
    gb_free(cand), gb_free(ek), gb_free(ej);
    return rc;
}

int cmin_select_inputs(cmin_ctx_t *c, const cmin_set_t *set, cmin_sel_t *sl, gb_err_t *e)
{
    sl->space = c->map_size * CMIN_BUCKETS;
    /* calloc'd pages that are never touched cost nothing: only the element
     * ids the target uses are. */
    sl->count = gb_calloc(sl->space, sizeof *sl->count);
    sl->best = gb_calloc(sl->space, sizeof *sl->best);
    sl->covered = gb_calloc(sl->space, 1);
    sl->kept = gb_calloc(set->n ? set->n : 1, 1);
    if (!sl->count || !sl->best || !sl->covered || !sl->kept)
        return gb_err_set(e, "out of memory for %zu coverage elements", sl->space);
    sel_count(c, set, sl);
    if (sel_greedy(set, sl, &c->s->elements, e) != 0)
        return -1;
    /* Inputs ran but the map stayed empty: the binary is not reading them
     * the way ARGS say. An empty output would hide that. */
    if (c->s->elements == 0 && c->s->to_run > c->s->crashes + c->s->hangs)
        return gb_err_set(e,
                          "%s showed no coverage on any input: does it read the input the "
                          "way its arguments say (@@ = a file, else stdin; a libAFLDriver "
                          "harness takes no @@)?",
                          c->o->bin);
    if (sel_prune(set, sl, e) != 0 || sel_shrink(c, set, sl, e) != 0)
        return -1;
    return sel_prune(set, sl, e); /* a smaller input may make others redundant */
}
