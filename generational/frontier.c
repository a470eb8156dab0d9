/* SPDX-License-Identifier: Apache-2.0 */
/* The frontier of a run: the blocks it hit that have a successor no run
 * has covered. An input with a larger frontier has more uncovered
 * directions right beside its path, so among inputs that score alike
 * (peers' inputs flooding the worklist, a loop's children) it is expanded
 * first. Coverage only grows, so a count only falls: the search recounts
 * an input's stored frontier blocks when it pops it (search.c). */
#include <string.h>

#include "cfg_graph.h"
#include "search_int.h"

#define NONE GB_CFG_NONE

struct gb_frontier {
    const gb_cfg_t *cfg;
    const gb_cfg_graph_t *g;
    uint32_t *by_id; /* GB_MAP_SIZE entries: the block with that map id, or NONE */
};

gb_frontier_t *gb_frontier_new(const gb_cfg_t *cfg)
{
    if (!cfg)
        return NULL;
    gb_frontier_t *f = gb_calloc(1, sizeof *f);
    if (!f || !(f->by_id = gb_malloc(GB_MAP_SIZE * sizeof *f->by_id))) {
        gb_free(f);
        return NULL;
    }
    f->cfg = cfg;
    f->g = gb_cfg_graph_of(cfg);
    memset(f->by_id, 0xff, GB_MAP_SIZE * sizeof *f->by_id); /* NONE is all ones */
    for (uint32_t b = 0; b < f->g->nblocks; b++) {
        uint32_t id = f->g->blocks[b].id;
        if (id < GB_MAP_SIZE && f->by_id[id] == NONE)
            f->by_id[id] = b;
    }
    return f;
}

void gb_frontier_free(gb_frontier_t *f)
{
    if (!f)
        return;
    gb_free(f->by_id);
    gb_free(f);
}

/* 1 if block b has a successor no run covered (dead ends do not count). */
static int open_beside(const gb_frontier_t *f, uint32_t b, const uint8_t *virgin)
{
    const gb_cfg_block_t *bl = &f->g->blocks[b];
    for (uint32_t i = 0; i < bl->nsucc; i++) {
        const gb_cfg_block_t *s = &f->g->blocks[f->g->succ.v[bl->succ + i]];
        if (!virgin[s->id] && !(s->flags & GBCFG_B_DEAD))
            return 1;
    }
    return 0;
}

uint32_t gb_frontier_measure(const gb_frontier_t *f, const uint8_t *map, size_t n,
                             const uint8_t *virgin, uint32_t *out, uint32_t max)
{
    if (!f || gb_cfg_incomplete(f->cfg))
        return 0; /* blocks outside the CFG ran: its successors are not the whole story */
    if (n > GB_MAP_SIZE)
        n = GB_MAP_SIZE;
    uint32_t k = 0;
    for (size_t w = 0; w + 8 <= n && k < max; w += 8) {
        uint64_t word;
        memcpy(&word, map + w, 8);
        if (!word)
            continue; /* most of the map is zero */
        for (size_t id = w; id < w + 8 && k < max; id++) {
            uint32_t b = map[id] ? f->by_id[id] : NONE;
            if (b != NONE && open_beside(f, b, virgin))
                out[k++] = b;
        }
    }
    return k;
}

uint32_t gb_frontier_recount(const gb_frontier_t *f, uint32_t *blocks, uint32_t n,
                             const uint8_t *virgin)
{
    if (!f || gb_cfg_incomplete(f->cfg))
        return 0;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (open_beside(f, blocks[i], virgin))
            blocks[k++] = blocks[i];
    return k;
}
