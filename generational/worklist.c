/* SPDX-License-Identifier: Apache-2.0 */
/* The worklist (a binary max-heap) and the search's hash set. */
#include <stdio.h>
#include <string.h>

#include "search_int.h"

/* 1 if a should be expanded before b. */
static int before(const gb_item_t *a, const gb_item_t *b)
{
    if (a->dist != b->dist) /* directed mode only: 0 for all otherwise */
        return a->dist < b->dist;
    if (a->score != b->score)
        return a->score > b->score;
    if (a->hint != b->hint)
        return a->hint > b->hint;
    if (a->novelty != b->novelty)
        return a->novelty > b->novelty;
    if (a->nfront != b->nfront)
        return a->nfront > b->nfront;
    if (a->len != b->len)
        return a->len < b->len;
    return a->seq > b->seq;
}

int gb_worklist_before(const gb_item_t *a, const gb_item_t *b) { return before(a, b); }

static void swap(gb_item_t **h, size_t i, size_t j)
{
    gb_item_t *t = h[i];
    h[i] = h[j];
    h[j] = t;
}

void gb_item_park(gb_item_t *it)
{
    if (!it->file || !it->data)
        return;
    it->hash = gb_hash64(it->data, it->len, 0);
    gb_free(it->data);
    it->data = NULL;
}

int gb_worklist_push(gb_worklist_t *w, gb_item_t *it)
{
    if (gb_grow(&w->heap, &w->cap, w->n + 1, sizeof *w->heap, 256) != 0)
        return -1;
    gb_item_park(it);
    size_t i = w->n++;
    w->heap[i] = it;
    while (i > 0 && before(w->heap[i], w->heap[(i - 1) / 2])) {
        swap(w->heap, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    return 0;
}

gb_item_t *gb_worklist_pop(gb_worklist_t *w)
{
    if (w->n == 0)
        return NULL;
    gb_item_t *top = w->heap[0];
    w->heap[0] = w->heap[--w->n];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, best = i;
        if (l < w->n && before(w->heap[l], w->heap[best]))
            best = l;
        if (r < w->n && before(w->heap[r], w->heap[best]))
            best = r;
        if (best == i)
            break;
        swap(w->heap, i, best);
        i = best;
    }
    return top;
}

size_t gb_item_bytes(const gb_item_t *it)
{
    size_t b = sizeof *it + (it->data ? it->len : 0) + (it->file ? strlen(it->file) + 1 : 0) +
               it->skipped_cap * sizeof *it->skipped + it->npending * sizeof *it->pending +
               it->nfront * sizeof *it->front;
    if (it->path) /* shared: each holder counts its part */
        b += (sizeof *it->path + it->path->n * sizeof it->path->step[0]) / (it->path->refs ? it->path->refs : 1);
    return b;
}

size_t gb_worklist_bytes(const gb_worklist_t *w)
{
    size_t b = w->cap * sizeof *w->heap;
    for (size_t i = 0; i < w->n; i++)
        b += gb_item_bytes(w->heap[i]);
    return b;
}

size_t gb_worklist_trim(gb_worklist_t *w, size_t max)
{
    size_t dropped = 0;
    while (w->n > max) {
        /* the last in the order is a leaf: heap[n/2 .. n) */
        size_t worst = w->n / 2;
        for (size_t i = worst + 1; i < w->n; i++)
            if (before(w->heap[worst], w->heap[i]))
                worst = i;
        gb_item_free(w->heap[worst]);
        if (worst < --w->n) { /* the last leaf takes its place, and may rise */
            w->heap[worst] = w->heap[w->n];
            for (size_t i = worst; i > 0 && before(w->heap[i], w->heap[(i - 1) / 2]);
                 i = (i - 1) / 2)
                swap(w->heap, i, (i - 1) / 2);
        }
        dropped++;
    }
    return dropped;
}

const gb_item_t *gb_worklist_peek(const gb_worklist_t *w)
{
    return w->n ? w->heap[0] : NULL;
}

gb_item_t *gb_item_new(const uint8_t *data, size_t len, uint64_t seq)
{
    gb_item_t *it = gb_calloc(1, sizeof *it);
    if (!it || !(it->data = gb_malloc(len))) {
        gb_free(it);
        return NULL;
    }
    memcpy(it->data, data, len);
    it->len = len;
    it->seq = seq;
    it->queue_id = it->crash_id = it->src_id = it->src_crash = -1;
    it->depth = 1;
    return it;
}

void gb_item_adopt(gb_item_t *c, const gb_item_t *parent)
{
    c->src_id = parent->queue_id >= 0 ? parent->queue_id : parent->src_id;
    c->src_crash = parent->queue_id >= 0   ? -1
                   : parent->crash_id >= 0 ? parent->crash_id
                                           : parent->src_crash;
    c->depth = parent->depth + 1;
}

void gb_src_desc(char *buf, size_t n, int64_t queue_id, int64_t crash_id, const char *op,
                 size_t pos, const char *tag)
{
    if (queue_id >= 0)
        snprintf(buf, n, "src:%06lld,op:%s,pos:%zu%s", (long long)queue_id, op, pos, tag);
    else if (crash_id >= 0)
        snprintf(buf, n, "src:crash%06lld,op:%s,pos:%zu%s", (long long)crash_id, op, pos, tag);
    else
        snprintf(buf, n, "op:%s,pos:%zu%s", op, pos, tag);
}

void gb_item_desc(char *buf, size_t n, const gb_item_t *parent, const char *op, size_t pos,
                  const char *tag)
{
    if (parent->queue_id >= 0 || parent->crash_id >= 0)
        gb_src_desc(buf, n, parent->queue_id, parent->crash_id, op, pos, tag);
    else
        gb_src_desc(buf, n, parent->src_id, parent->src_crash, op, pos, tag);
}

void gb_path_release(gb_path_t *p)
{
    if (p && --p->refs == 0)
        gb_free(p);
}

void gb_item_free(gb_item_t *it)
{
    if (!it)
        return;
    gb_free(it->data);
    gb_free(it->file);
    gb_path_release(it->path);
    gb_free(it->skipped);
    gb_free(it->pending);
    gb_free(it->front);
    gb_free(it);
}

void gb_worklist_free(gb_worklist_t *w)
{
    for (size_t i = 0; i < w->n; i++)
        gb_item_free(w->heap[i]);
    gb_free(w->heap);
    memset(w, 0, sizeof *w);
}
