/* SPDX-License-Identifier: Apache-2.0 */
/* What directed mode (`glassbox reach`) asks of the static CFG besides
 * reachability: the blocks of a source line (version 3 sections), and
 * static distances to a goal set, to order the search. */
#include <string.h>

#include "cfg_graph.h"

#define NONE GB_CFG_NONE

/* 1 when `path` (len bytes) ends with `file` at a '/' or is it. */
static int tail_match(const char *path, uint32_t len, const char *file)
{
    size_t n = strlen(file);
    if (n == 0 || n > len || memcmp(path + len - n, file, n) != 0)
        return 0;
    return n == len || path[len - n - 1] == '/' || file[0] == '/';
}

int gb_cfg_graph_line_blocks(const gb_cfg_graph_t *g, const char *file, uint32_t line,
                             gb_cfg_u32v_t *out, uint32_t *files, uint32_t *before,
                             uint32_t *after)
{
    uint8_t *match = gb_calloc(g->nfiles + 1, 1);
    if (!match)
        return -1;
    *files = 0, *before = 0, *after = 0;
    for (size_t f = 0; f < g->nfiles; f++)
        if (tail_match(g->files[f].text, g->files[f].len, file)) {
            match[f] = 1;
            ++*files;
        }
    int rc = 0;
    for (size_t b = 0; b < g->nblocks && rc == 0; b++) {
        const gb_cfg_block_t *bl = &g->blocks[b];
        int hit = 0;
        for (uint32_t k = 0; k < bl->nlines; k++) {
            uint32_t f = g->lines.v[bl->lines + 2 * k], l = g->lines.v[bl->lines + 2 * k + 1];
            if (!match[f])
                continue;
            hit |= l == line;
            if (l < line && l > *before)
                *before = l;
            if (l > line && (*after == 0 || l < *after))
                *after = l;
        }
        if (hit) {
            if (out->n == out->cap) {
                size_t nc = out->cap ? 2 * out->cap : 8;
                uint32_t *nv = gb_realloc(out->v, nc * sizeof *nv);
                if (!nv) {
                    rc = -1;
                    break;
                }
                out->v = nv;
                out->cap = nc;
            }
            out->v[out->n++] = (uint32_t)b;
        }
    }
    gb_free(match);
    return rc;
}

/* ---- distances ------------------------------------------------------ */

typedef struct edges {
    uint32_t *from, *to;
    size_t n, cap;
    int oom;
} edges_t;

static void edge(edges_t *e, uint32_t from, uint32_t to)
{
    if (e->n == e->cap) {
        size_t nc = e->cap ? 2 * e->cap : 1024;
        uint32_t *f = gb_realloc(e->from, nc * sizeof *f);
        if (f)
            e->from = f;
        uint32_t *t = f ? gb_realloc(e->to, nc * sizeof *t) : NULL;
        if (!t) {
            e->oom = 1;
            return;
        }
        e->to = t;
        e->cap = nc;
    }
    e->from[e->n] = from;
    e->to[e->n++] = to;
}

static void func_entries(edges_t *e, const gb_cfg_graph_t *g, uint32_t b, const uint32_t *fs,
                         size_t n)
{
    for (size_t i = 0; i < n; i++)
        edge(e, b, g->funcs[fs[i]].first);
}

/* The edges of the interprocedural graph the distances are measured on:
 * successors, calls to the callee's entry (an indirect call to every
 * address-taken function of its signature), and from a returning block to
 * the successors of each block that calls its function directly. */
static void all_edges(edges_t *e, const gb_cfg_graph_t *g, int returns)
{
    for (uint32_t b = 0; b < g->nblocks; b++) {
        const gb_cfg_block_t *bl = &g->blocks[b];
        for (uint32_t i = 0; i < bl->nsucc; i++)
            edge(e, b, g->succ.v[bl->succ + i]);
        for (uint32_t i = 0; i < bl->ncalls; i++) {
            const gb_cfg_sym_t *s = &g->syms[g->calls.v[bl->calls + i]];
            func_entries(e, g, b, g->defs.v + s->defs, s->ndefs);
        }
        for (uint32_t i = 0; i < bl->nisig; i++) {
            uint32_t sig = g->isigs.v[bl->isig + i];
            if (sig == NONE)
                func_entries(e, g, b, g->addr_taken.v, g->addr_taken.n);
            else
                func_entries(e, g, b, g->sig_funcs.v + g->sigs[sig].funcs, g->sigs[sig].nfuncs);
        }
        if (!returns || !(bl->flags & GBCFG_B_RET))
            continue;
        const gb_cfg_func_t *f = &g->funcs[bl->func];
        for (uint32_t i = 0; i < f->ncallers; i++) {
            const gb_cfg_block_t *cb = &g->blocks[g->callers.v[f->callers + i]];
            for (uint32_t k = 0; k < cb->nsucc; k++)
                edge(e, b, g->succ.v[cb->succ + k]);
        }
    }
}

int gb_cfg_graph_distances(const gb_cfg_graph_t *g, const uint8_t *goal, int returns,
                           uint32_t *dist)
{
    edges_t e = {0};
    all_edges(&e, g, returns);
    size_t nb = g->nblocks;
    uint32_t *first = gb_calloc(nb + 1, sizeof *first), *pred = gb_calloc(e.n + 1, sizeof *pred);
    uint32_t *queue = gb_calloc(nb + 1, sizeof *queue);
    int rc = e.oom || !first || !pred || !queue ? -1 : 0;
    if (rc == 0) {
        /* predecessors by a counting sort of the edges on their target */
        for (size_t i = 0; i < e.n; i++)
            first[e.to[i] + 1]++;
        for (size_t b = 0; b < nb; b++)
            first[b + 1] += first[b];
        uint32_t *fill = queue; /* borrowed before the search needs it */
        memcpy(fill, first, nb * sizeof *fill);
        for (size_t i = 0; i < e.n; i++)
            pred[fill[e.to[i]]++] = e.from[i];
        size_t qh = 0, qt = 0;
        for (size_t b = 0; b < nb; b++)
            dist[b] = UINT32_MAX;
        for (size_t b = 0; b < nb; b++)
            if (goal[g->blocks[b].id] && !(g->blocks[b].flags & GBCFG_B_NEVER)) {
                dist[b] = 0;
                queue[qt++] = (uint32_t)b;
            }
        while (qh < qt) {
            uint32_t v = queue[qh++];
            for (uint32_t k = first[v]; k < first[v + 1]; k++)
                if (dist[pred[k]] == UINT32_MAX) {
                    dist[pred[k]] = dist[v] + 1;
                    queue[qt++] = pred[k];
                }
        }
    }
    gb_free(e.from);
    gb_free(e.to);
    gb_free(first);
    gb_free(pred);
    gb_free(queue);
    return rc;
}
