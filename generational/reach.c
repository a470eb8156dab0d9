/* SPDX-License-Identifier: Apache-2.0 */
/* Directed mode (`glassbox reach`, docs/reach.md): the targets' blocks and
 * goal set, static distances for the worklist, the loop bound, and the
 * bookkeeping of the proof that no bounded path reaches a target. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbt.h"
#include "search_int.h"

/* Calls outside the instrumented code a proof tolerates: they end the
 * run and return nothing the program could branch on. Anything else may
 * hand back a concrete value that depends on the input without the
 * tracer knowing (docs/tracer.md, "External calls"). */
static const char *const ends_run[] = {"abort", "__assert_fail", "exit", "_exit",
                                       "__stack_chk_fail"};

/* Tracer settings the proof's argument depends on (docs/reach.md): the
 * back-off budget, the length variable and the expression caps. */
static const char *const tracer_env[] = {"GLASSBOX_BACKOFF", "GLASSBOX_LENGTH",
                                         "GLASSBOX_MAX_DEPTH", "GLASSBOX_MAX_NODES",
                                         "GLASSBOX_MAX_PCS"};

static void set_dead(gb_reach_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_dead(gb_reach_t *r, const char *fmt, ...)
{
    if (r->dead[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->dead, sizeof r->dead, fmt, ap);
    va_end(ap);
}

void gb_reach_hole(gb_reach_t *r, const char *fmt, ...)
{
    r->holes++;
    if (r->hole[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->hole, sizeof r->hole, fmt, ap);
    va_end(ap);
}

int gb_reach_lookup(const char *bin, const gb_reach_target_t *t, gb_reach_where_t *w,
                    gb_err_t *e)
{
    memset(w, 0, sizeof *w);
    gb_cfg_t *c = NULL;
    if (gb_cfg_load(bin, &c, e) != 0)
        return -1;
    if (!c)
        return 0;
    w->has_cfg = 1;
    uint32_t *b = NULL;
    size_t n = 0;
    gb_cfg_where_t cw;
    int rc = gb_cfg_line_blocks(c, t->file, t->line, &b, &n, &cw);
    gb_free(b);
    gb_cfg_free(c);
    if (rc != 0)
        return gb_err_set(e, "out of memory");
    w->blocks = n;
    w->files = cw.files;
    w->line_modules = cw.line_modules;
    w->before = cw.before;
    w->after = cw.after;
    return 0;
}

/* A failing assert or a trap: the blocks --target asserts aims at. */
static int is_assert(const gb_cfg_t *c, uint32_t b)
{
    return (gb_cfg_block_flags(c, b) & GBCFG_B_TRAP) || gb_cfg_block_calls(c, b, "__assert_fail") ||
           gb_cfg_block_calls(c, b, "__assert_perror_fail");
}

void gb_reach_targets_free(gb_reach_target_t *t, size_t n)
{
    for (size_t i = 0; t && i < n; i++)
        gb_free((char *)t[i].file);
    gb_free(t);
}

int gb_reach_asserts(const char *bin, gb_reach_target_t **out, size_t *n, gb_err_t *e)
{
    *out = NULL;
    *n = 0;
    gb_cfg_t *c = NULL;
    if (gb_cfg_load(bin, &c, e) != 0)
        return -1;
    if (!c)
        return 0;
    gb_cfg_info_t info;
    gb_cfg_get_info(c, &info);
    gb_reach_target_t *v = gb_calloc(info.blocks + 1, sizeof *v);
    int rc = v ? 0 : gb_err_set(e, "out of memory");
    for (uint32_t b = 0; rc == 0 && b < info.blocks; b++) {
        if (!is_assert(c, b))
            continue;
        const char *f;
        uint32_t flen;
        uint32_t line = gb_cfg_block_line(c, b, &f, &flen);
        char *name = gb_malloc(flen + 2);
        if (!name) {
            rc = gb_err_set(e, "out of memory");
            break;
        }
        if (f)
            memcpy(name, f, flen), name[flen] = '\0';
        else
            strcpy(name, "?");
        v[*n] = (gb_reach_target_t){name, line, b + 1};
        ++*n;
    }
    gb_cfg_free(c);
    if (rc != 0) {
        gb_reach_targets_free(v, *n);
        *n = 0;
        return -1;
    }
    *out = v;
    return 0;
}

/* The goal: the ids of the blocks of every target still left. */
static void make_goal(gb_reach_t *r, const gb_cfg_t *c)
{
    memset(r->goal, 0, sizeof r->goal);
    for (size_t i = 0; i < r->n; i++)
        if (!r->t[i].reached && !r->t[i].no_path)
            for (size_t k = 0; k < r->t[i].nblocks; k++)
                r->goal[gb_cfg_block_id(c, r->t[i].blocks[k])] = 1;
}

/* 1 when a block the targets do not list has one of target i's ids. */
static int shares_id(const gb_cfg_t *c, const gb_reach_tgt_t *t)
{
    gb_cfg_info_t info;
    gb_cfg_get_info(c, &info);
    for (uint32_t b = 0; b < info.blocks; b++) {
        uint32_t id = gb_cfg_block_id(c, b);
        int mine = 0, same = 0;
        for (size_t k = 0; k < t->nblocks; k++) {
            mine |= t->blocks[k] == b;
            same |= gb_cfg_block_id(c, t->blocks[k]) == id;
        }
        if (same && !mine)
            return 1;
    }
    return 0;
}

/* Each target's blocks, and whether a CFG path leads to it at all. */
static int resolve(gb_search_t *s, gb_err_t *e)
{
    gb_reach_t *r = &s->reach;
    for (size_t i = 0; i < r->n; i++) {
        gb_reach_tgt_t *t = &r->t[i];
        const gb_reach_target_t *o = &s->o.targets[i];
        gb_cfg_where_t w;
        gb_cfg_info_t info;
        gb_cfg_get_info(s->cfg, &info);
        if (o->block) { /* one block (--target asserts), from the same binary's CFG */
            if (o->block > info.blocks || !(t->blocks = gb_malloc(sizeof *t->blocks)))
                return gb_err_set(e, "target %zu: no block %u in %s's CFG", i, o->block,
                                  s->o.cov_bin);
            t->blocks[0] = o->block - 1;
            t->nblocks = 1;
        } else if (gb_cfg_line_blocks(s->cfg, o->file, o->line, &t->blocks, &t->nblocks, &w) !=
                   0)
            return gb_err_set(e, "out of memory");
        if (t->nblocks == 0)
            return gb_err_set(e, "%s:%u has no block in %s's CFG", o->file, o->line,
                              s->o.cov_bin);
        t->shared_id = shares_id(s->cfg, t);
        t->folded = 1;
        for (size_t k = 0; k < t->nblocks; k++)
            t->folded &= (gb_cfg_block_flags(s->cfg, t->blocks[k]) & GBCFG_B_NEVER) != 0;
        t->dist = UINT32_MAX;
        memset(r->goal, 0, sizeof r->goal);
        for (size_t k = 0; k < t->nblocks; k++)
            r->goal[gb_cfg_block_id(s->cfg, t->blocks[k])] = 1;
        t->no_path = !gb_cfg_goal_from_entry(s->cfg, r->goal);
        r->left += !t->no_path;
    }
    return 0;
}

/* What rules a proof out before any run: no complete CFG, calls that
 * leave it, tracer settings other than the ones the argument needs. */
static void check_static(gb_search_t *s)
{
    gb_reach_t *r = &s->reach;
    char name[128];
    if (gb_cfg_leaves(s->cfg, ends_run, sizeof ends_run / sizeof ends_run[0], name,
                      sizeof name))
        set_dead(r, "the program calls %s, outside the instrumented code: its results "
                    "may depend on the input without the tracer knowing", name);
    for (size_t i = 0; i < sizeof tracer_env / sizeof tracer_env[0]; i++)
        if (getenv(tracer_env[i]))
            set_dead(r, "%s is set: the proof assumes the tracer's defaults", tracer_env[i]);
    if (r->unroll > GB_REACH_UNROLL_MAX)
        set_dead(r, "--unroll %u is above %u, where the tracer's back-off may drop entries",
                 r->unroll, GB_REACH_UNROLL_MAX);
}

int gb_reach_init(gb_search_t *s, gb_err_t *e)
{
    gb_reach_t *r = &s->reach;
    if (s->o.ntargets == 0)
        return 0;
    if (!s->cfg)
        return gb_err_set(e, "%s carries no static CFG (build it with glassbox-cc -g)",
                          s->o.cov_bin);
    r->on = 1;
    r->unroll = s->o.unroll ? s->o.unroll : GB_REACH_UNROLL;
    r->n = s->o.ntargets;
    if (!(r->t = gb_calloc(r->n, sizeof *r->t)))
        return gb_err_set(e, "out of memory");
    if (resolve(s, e) != 0)
        return -1;
    make_goal(r, s->cfg);
    if (gb_cfg_goal_distances(s->cfg, r->goal, r->dist) != 0)
        return gb_err_set(e, "out of memory");
    check_static(s);
    return 0;
}

void gb_reach_free(gb_reach_t *r)
{
    for (size_t i = 0; r->t && i < r->n; i++) {
        gb_free(r->t[i].blocks);
        gb_free(r->t[i].input);
    }
    gb_free(r->t);
}

/* Target i was reached by `it`: keep the input, drop it from the goal. */
static void reached(gb_search_t *s, gb_reach_tgt_t *t, const gb_item_t *it, int crashed)
{
    gb_reach_t *r = &s->reach;
    t->reached = 1;
    t->crashed = crashed;
    t->ms = gb_time_ms() - s->pulse.start_ms;
    t->execs = s->st.execs;
    t->dist = 0;
    if ((t->input = gb_malloc(it->len ? it->len : 1)))
        memcpy(t->input, it->data, it->len);
    t->input_len = it->len;
    r->left--;
    make_goal(r, s->cfg);
    if (r->left && gb_cfg_goal_distances(s->cfg, r->goal, r->dist) != 0)
        memset(r->dist, 0, sizeof r->dist); /* out of memory: no order, still correct */
}

void gb_reach_on_run(gb_search_t *s, gb_item_t *it, const uint8_t *map, size_t n, int crashed)
{
    gb_reach_t *r = &s->reach;
    if (!r->on)
        return;
    uint32_t d = UINT32_MAX;
    for (size_t id = 0; id < n && id < GB_MAP_SIZE; id++)
        if (map[id] && r->dist[id] < d)
            d = r->dist[id];
    it->dist = d;
    for (size_t i = 0; i < r->n; i++) {
        gb_reach_tgt_t *t = &r->t[i];
        if (t->reached || t->no_path)
            continue;
        int hit = 0;
        for (size_t k = 0; k < t->nblocks && !hit; k++) {
            uint32_t id = gb_cfg_block_id(s->cfg, t->blocks[k]);
            hit = id < n && map[id];
        }
        if (hit)
            reached(s, t, it, crashed);
        else if (d < t->dist)
            t->dist = d;
    }
}

void gb_reach_on_trace(gb_search_t *s, const gb_trace_t *t, int divergent)
{
    gb_reach_t *r = &s->reach;
    if (!r->on)
        return;
    gb_trace_info_t info;
    gb_trace_get_info(t, &info);
    r->paths++;
    r->dropped |= info.dropped > 0;
    if (divergent)
        gb_reach_hole(r, "an input left the path its flip predicted (the tracer's model of "
                         "the program is not exact there)");
    if (!info.complete || info.truncated)
        gb_reach_hole(r, "a trace was cut off before its END record");
    else if (info.end_kind == GBT_END_LIMIT)
        gb_reach_hole(r, "a trace hit the tracer's cap on entries");
    for (size_t j = 0; j < info.pcs; j++) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, j, &pc);
        if (pc.kind == GBT_PC_PIN) {
            set_dead(r, "a trace pinned a symbolic value to its concrete one (a PIN entry): "
                        "queries with pins do not speak for every input");
            break;
        }
    }
}

/* Occurrence counts per site, in a small open-addressing table. */
typedef struct occ {
    uint32_t site, n;
} occ_t;

uint8_t *gb_reach_over_bound(const gb_search_t *s, const gb_trace_t *t, size_t pcs)
{
    size_t cap = 16;
    while (cap < 2 * pcs)
        cap *= 2;
    uint8_t *over = gb_calloc(pcs ? pcs : 1, 1);
    occ_t *tab = gb_calloc(cap, sizeof *tab);
    uint8_t *used = gb_calloc(cap, 1);
    if (!over || !tab || !used) {
        gb_free(over);
        over = NULL;
        goto done;
    }
    int past = 0;
    for (size_t j = 0; j < pcs; j++) {
        gb_pc_info_t pc;
        gb_trace_get_pc(t, j, &pc);
        size_t h = (pc.site * 0x9e3779b1u) & (cap - 1);
        while (used[h] && tab[h].site != pc.site)
            h = (h + 1) & (cap - 1);
        used[h] = 1;
        tab[h].site = pc.site;
        if (pc.kind != GBT_PC_PIN && ++tab[h].n > s->reach.unroll)
            past = 1;
        over[j] = (uint8_t)past;
    }
done:
    gb_free(tab);
    gb_free(used);
    return over;
}

void gb_search_get_reach(const gb_search_t *s, size_t i, gb_reach_result_t *out)
{
    const gb_reach_t *r = &s->reach;
    memset(out, 0, sizeof *out);
    if (i >= r->n)
        return;
    const gb_reach_tgt_t *t = &r->t[i];
    gb_reach_proof_t p;
    gb_search_get_proof(s, &p);
    out->verdict = t->reached   ? GB_REACH_REACHED
                   : t->no_path ? GB_REACH_NO_CFG_PATH
                   : p.complete ? GB_REACH_UNREACHABLE
                                : GB_REACH_UNKNOWN;
    out->nblocks = t->nblocks;
    out->shared_id = t->shared_id;
    out->folded = t->folded;
    out->input = t->input;
    out->input_len = t->input_len;
    out->crashed = t->crashed;
    out->ms = t->ms;
    out->execs = t->execs;
    /* steps, with or without returns (the penalty only orders) */
    out->dist = t->dist != UINT32_MAX && t->dist >= GB_CFG_RET_PENALTY
                    ? t->dist - GB_CFG_RET_PENALTY
                    : t->dist;
}

size_t gb_reach_exact_waiting(const gb_search_t *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->work.n; i++)
        n += !s->work.heap[i]->extra;
    return n;
}

void gb_search_get_proof(const gb_search_t *s, gb_reach_proof_t *p)
{
    const gb_reach_t *r = &s->reach;
    memset(p, 0, sizeof *p);
    p->unroll = r->unroll;
    p->max_len = GB_MAX_INPUT;
    p->paths = r->paths;
    p->refuted = r->refuted;
    p->cfg_pruned = r->cfg_pruned;
    p->bound_pruned = r->bound_pruned;
    p->children = r->children;
    p->holes = r->holes;
    size_t exact = gb_reach_exact_waiting(s);
    p->pending = exact;
    /* No expanded trace, no evidence: every seed hung, say. */
    p->complete = gb_reach_alive(r) && r->finished && exact == 0 && r->paths > 0;
    p->bound_cut = r->bound_pruned > 0 || r->dropped;
    p->why_not = r->dead[0]   ? r->dead
                 : r->hole[0] ? r->hole
                 : p->complete ? NULL
                 : r->finished && r->paths == 0
                     ? "no input was expanded (every seed hung, or none ran)"
                     : "the search stopped before every bounded path was explored (time "
                       "limit, or a target was reached first)";
}
