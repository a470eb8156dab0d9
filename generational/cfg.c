/* SPDX-License-Identifier: Apache-2.0 */
/* Flip selection from the static CFG (CDSE's fCFG idea, for fuzzing): a
 * flip whose new direction cannot reach a block no run has covered is not
 * worth a query. Answers by a search over the blocks of the graph
 * cfg_read.c builds (docs/cfg-format.md, "Flip selection"): callees,
 * indirect calls by signature, returns, and what code outside the CFG
 * may do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_graph.h"
#include "cfg_int.h"

#define NONE GB_CFG_NONE

/* How a block was reached in one reachability walk. */
typedef enum reach_mode {
    REACH_CALLED = 1, /* entered through a call: its returns go back to that call */
    REACH_ANY = 2,    /* its function may return to any caller */
} reach_mode_t;

typedef struct cans {
    uint64_t key;     /* (site, kind, taken) + 1; 0 = empty */
    uint32_t state;   /* ANS_* */
    uint32_t witness; /* an uncovered block it reached */
} cans_t;

static uint64_t ans_hash(uint64_t key)
{
    return key * 0x9e3779b97f4a7c15ull;
}

GB_HMAP_DEFINE_KEYED(ansmap, cans_t, uint64_t, ans_hash, gb_calloc, gb_free)

enum { ANS_ALWAYS = 1, ANS_NEVER = 2, ANS_WITNESS = 3 };

/* What one walk has done once already (each is done at most once). */
enum {
    DONE_EXTERNAL = 1, /* code outside the CFG ran: address-taken functions, setjmps */
    DONE_OUTSIDE = 2,  /* ... and returned to whatever called out to it */
    DONE_EXITS = 4,    /* exit-time code ran */
    DONE_BLIND = 8,    /* returned to every indirect call site */
};

struct gb_cfg {
    gb_cfg_graph_t g;
    ansmap_t ans;          /* answers by (site, kind, taken) */
    ansmap_t gans;         /* the same for a goal set (directed mode) */
    uint32_t *gdist;       /* per block: distance to the goal set (gb_cfg_goal_distances) */
    uint32_t last_covered; /* `covered` when the known check last ran */
    int incomplete;
    /* the walk: a stamp per block, function and signature, so nothing is
     * cleared between walks */
    uint32_t stamp;
    uint32_t *seen;  /* block reached */
    uint32_t *cont;  /* block continued after a return into it */
    uint32_t *fret;  /* function returned from to any caller */
    uint32_t *scall; /* signature called through */
    uint32_t *sret;  /* signature's functions returned from */
    uint8_t *mode;   /* reach_mode_t of each block in the current walk */
    uint32_t *queue; /* blocks reached, to be searched on from */
    size_t qn;
    uint32_t *conts; /* blocks continued, to be searched on from */
    size_t cn;
    unsigned done;
};

/* ---- building and asking -------------------------------------------- */

int gb_cfg_parse(const uint8_t *data, size_t len, gb_cfg_t **out, gb_err_t *e)
{
    *out = NULL;
    gb_cfg_t *c = gb_calloc(1, sizeof *c);
    if (!c)
        return gb_err_set(e, "out of memory");
    if (gb_cfg_graph_parse(&c->g, data, len, e) != 0) {
        gb_cfg_free(c);
        return -1;
    }
    size_t nb = c->g.nblocks + 1, nf = c->g.nfuncs + 1, ns = c->g.nsigs + 1;
    c->seen = gb_calloc(nb, sizeof *c->seen);
    c->cont = gb_calloc(nb, sizeof *c->cont);
    c->fret = gb_calloc(nf, sizeof *c->fret);
    c->scall = gb_calloc(ns, sizeof *c->scall);
    c->sret = gb_calloc(ns, sizeof *c->sret);
    c->mode = gb_calloc(nb, 1);
    c->queue = gb_calloc(2 * nb, sizeof *c->queue); /* a block is queued at most twice */
    c->conts = gb_calloc(nb, sizeof *c->conts);
    if (!c->seen || !c->cont || !c->fret || !c->scall || !c->sret || !c->mode || !c->queue ||
        !c->conts) {
        gb_cfg_free(c);
        return gb_err_set(e, "out of memory");
    }
    *out = c;
    return 0;
}

int gb_cfg_load(const char *path, gb_cfg_t **out, gb_err_t *e)
{
    *out = NULL;
    uint8_t *data;
    size_t len;
    int found = gb_cfg_graph_read_elf(path, &data, &len, e);
    if (found <= 0)
        return found;
    gb_err_t pe;
    int rc = gb_cfg_parse(data, len, out, &pe);
    gb_free(data);
    if (rc != 0)
        return gb_err_set(e, "%s: %s", path, pe.msg);
    return 0;
}

void gb_cfg_free(gb_cfg_t *c)
{
    if (!c)
        return;
    gb_cfg_graph_free(&c->g);
    ansmap_free(&c->ans);
    ansmap_free(&c->gans);
    gb_free(c->gdist);
    gb_free(c->seen);
    gb_free(c->cont);
    gb_free(c->fret);
    gb_free(c->scall);
    gb_free(c->sret);
    gb_free(c->mode);
    gb_free(c->queue);
    gb_free(c->conts);
    gb_free(c);
}

void gb_cfg_get_info(const gb_cfg_t *c, gb_cfg_info_t *info)
{
    memset(info, 0, sizeof *info);
    if (!c)
        return;
    info->modules = c->g.modules;
    info->functions = c->g.nfuncs;
    info->blocks = c->g.nblocks;
    info->sites = c->g.sites.n;
}

int gb_cfg_incomplete(const gb_cfg_t *c)
{
    return c && c->incomplete;
}

int gb_cfg_has_block(const gb_cfg_t *c, uint32_t id)
{
    return c && id < GB_MAP_SIZE && (c->g.known[id >> 3] >> (id & 7) & 1);
}

int gb_cfg_has_site(const gb_cfg_t *c, unsigned kind, uint32_t site)
{
    const gb_cfg_site_t *cs = c ? gb_cfg_graph_site(&c->g, site) : NULL;
    if (!cs)
        return 0;
    unsigned bk = c->g.blocks[cs->block].kind;
    return (kind == GBT_PC_BRANCH && bk == GBCFG_T_BR) ||
           (kind == GBT_PC_SWITCH && bk == GBCFG_T_SWITCH);
}

/* ---- reachability --------------------------------------------------- */

/* Marks block b reached in `mode`; REACH_ANY outranks REACH_CALLED. */
static void visit(gb_cfg_t *c, uint32_t b, reach_mode_t mode)
{
    if (c->seen[b] == c->stamp && c->mode[b] >= mode)
        return;
    c->seen[b] = c->stamp;
    c->mode[b] = (uint8_t)mode;
    c->queue[c->qn++] = b;
}

static void visit_entries(gb_cfg_t *c, const uint32_t *funcs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        visit(c, c->g.funcs[funcs[i]].first, REACH_CALLED);
}

/* Code outside the CFG runs: it may call any address-taken function and
 * longjmp to any setjmp. Its own return is the caller's business. */
static void external(gb_cfg_t *c)
{
    if (c->done & DONE_EXTERNAL)
        return;
    c->done |= DONE_EXTERNAL;
    visit_entries(c, c->g.addr_taken.v, c->g.addr_taken.n);
    for (size_t i = 0; i < c->g.setjmps.n; i++)
        visit(c, c->g.setjmps.v[i], REACH_ANY);
}

static void call_sym(gb_cfg_t *c, uint32_t sym)
{
    const gb_cfg_sym_t *s = &c->g.syms[sym];
    if (s->ndefs == 0 && !s->leaf)
        external(c);
    for (uint32_t d = 0; d < s->ndefs; d++)
        visit(c, c->g.funcs[c->g.defs.v[s->defs + d]].first, REACH_CALLED);
}

/* A call through a pointer of signature `sig`: the address-taken
 * functions of that signature (or of none known), and code outside the
 * CFG if a function outside it may be the target. */
static void call_sig(gb_cfg_t *c, uint32_t sig)
{
    if (sig == NONE) {
        external(c); /* every address-taken function */
        return;
    }
    if (c->scall[sig] == c->stamp)
        return;
    c->scall[sig] = c->stamp;
    const gb_cfg_sig_t *s = &c->g.sigs[sig];
    visit_entries(c, c->g.sig_funcs.v + s->funcs, s->nfuncs);
    visit_entries(c, c->g.any_sig.v, c->g.any_sig.n);
    if (s->out || c->g.out_any)
        external(c);
}

/* Every call in block b, direct and indirect. */
static void calls_of(gb_cfg_t *c, const gb_cfg_block_t *bl)
{
    for (uint32_t i = 0; i < bl->ncalls; i++)
        call_sym(c, c->g.calls.v[bl->calls + i]);
    for (uint32_t i = 0; i < bl->nisig; i++)
        call_sig(c, c->g.isigs.v[bl->isig + i]);
}

/* A return lands in block b after one of its calls, from a frame whose
 * own caller is not known: the rest of b runs (search() follows it). */
static void continue_at(gb_cfg_t *c, uint32_t b)
{
    if (c->cont[b] == c->stamp)
        return;
    c->cont[b] = c->stamp;
    c->conts[c->cn++] = b;
}

static void continue_all(gb_cfg_t *c, const uint32_t *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        continue_at(c, blocks[i]);
}

/* Code outside the CFG that called into the program gets control back:
 * besides what it may call, it returns to whatever called out to it. */
static void outside_return(gb_cfg_t *c)
{
    if (c->done & DONE_OUTSIDE)
        return;
    c->done |= DONE_OUTSIDE;
    external(c);
    continue_all(c, c->g.callouts.v, c->g.callouts.n);
}

/* The run ends: exit-time code may call the exit handlers. */
static void exits(gb_cfg_t *c)
{
    if (c->done & DONE_EXITS)
        return;
    c->done |= DONE_EXITS;
    visit_entries(c, c->g.exits.v, c->g.exits.n);
}

/* Returns from an address-taken function: to the indirect calls that may
 * have called it, and (when the program calls out at all) to code
 * outside the CFG. */
static void indirect_return(gb_cfg_t *c, const gb_cfg_func_t *f)
{
    if (f->sig == NONE) {
        if (!(c->done & DONE_BLIND)) {
            c->done |= DONE_BLIND;
            continue_all(c, c->g.isites.v, c->g.isites.n);
        }
    } else if (c->sret[f->sig] != c->stamp) {
        c->sret[f->sig] = c->stamp;
        const gb_cfg_sig_t *s = &c->g.sigs[f->sig];
        continue_all(c, c->g.sig_sites.v + s->sites, s->nsites);
        continue_all(c, c->g.blind.v, c->g.blind.n);
    }
    if (c->g.callouts.n)
        outside_return(c);
}

/* A return that may go to any caller of the function. */
static void any_return(gb_cfg_t *c, uint32_t func)
{
    const gb_cfg_func_t *f = &c->g.funcs[func];
    if (c->fret[func] == c->stamp)
        return;
    c->fret[func] = c->stamp;
    continue_all(c, c->g.callers.v + f->callers, f->ncallers);
    if (f->flags & GBCFG_S_ADDR_TAKEN)
        indirect_return(c, f);
    if (f->role & (GB_CFG_ENTRY | GB_CFG_EXIT))
        exits(c);
}

/* What follows block b's start (mode) or b's calls (a continuation, in
 * REACH_ANY): its calls (all of them, to be safe), its successors, and
 * if it returns to any caller, that. */
static void follow(gb_cfg_t *c, uint32_t b, reach_mode_t mode)
{
    const gb_cfg_block_t *bl = &c->g.blocks[b];
    for (uint32_t i = 0; i < bl->nsucc; i++)
        visit(c, c->g.succ.v[bl->succ + i], mode);
    calls_of(c, bl);
    if ((bl->flags & GBCFG_B_RET) && mode == REACH_ANY)
        any_return(c, bl->func);
}

/* Runs the search from the queued blocks and continuations: the first
 * block reached that is wanted, or NONE when there is none. Wanted: with
 * `goal` 0, an uncovered one (map = virgin, 0 = never hit); with `goal`
 * 1, one whose id map marks (a goal set). A continued block is not
 * reached: its counter is at its start. */
static uint32_t search(gb_cfg_t *c, const uint8_t *map, int goal)
{
    size_t qi = 0, ci = 0;
    while (qi < c->qn || ci < c->cn) {
        if (ci < c->cn) {
            follow(c, c->conts[ci++], REACH_ANY);
            continue;
        }
        uint32_t b = c->queue[qi++];
        const gb_cfg_block_t *bl = &c->g.blocks[b];
        if (!map[bl->id] == !goal && !(bl->flags & GBCFG_B_NEVER))
            return b;
        follow(c, b, (reach_mode_t)c->mode[b]);
    }
    return NONE;
}

/* A new walk: every stamp of the last one is stale. */
static void new_walk(gb_cfg_t *c)
{
    c->stamp++;
    if (c->stamp == 0) { /* wrapped: old stamps could match again */
        const gb_cfg_graph_t *g = &c->g;
        memset(c->seen, 0, g->nblocks * sizeof *c->seen);
        memset(c->cont, 0, g->nblocks * sizeof *c->cont);
        memset(c->fret, 0, g->nfuncs * sizeof *c->fret);
        memset(c->scall, 0, g->nsigs * sizeof *c->scall);
        memset(c->sret, 0, g->nsigs * sizeof *c->sret);
        c->stamp = 1;
    }
    c->qn = 0;
    c->cn = 0;
    c->done = 0;
}

/* The i-th block the new direction of (kind, site, taken) starts at, or
 * NONE past the last one (at once when the entry is not a branch or a
 * switch arm the CFG knows). */
static uint32_t dir_block(const gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken,
                          uint32_t i)
{
    const gb_cfg_site_t *cs = gb_cfg_graph_site(&c->g, site);
    if (!cs)
        return NONE;
    const gb_cfg_block_t *bl = &c->g.blocks[cs->block];
    const uint32_t *succ = c->g.succ.v + bl->succ;
    if (kind == GBT_PC_BRANCH && bl->kind == GBCFG_T_BR && cs->arm == NONE)
        return i == 0 ? succ[taken ? 1 : 0] : NONE; /* successor 0 is "true" */
    if (kind != GBT_PC_SWITCH || bl->kind != GBCFG_T_SWITCH || cs->arm == NONE)
        return NONE;
    if (!taken) /* value == case: that case's block */
        return i == 0 ? succ[1 + cs->arm] : NONE;
    uint32_t k = i < 1 + cs->arm ? i : i + 1; /* value != case: default or another case */
    return k < bl->nsucc ? succ[k] : NONE;
}

/* Queues the blocks the new direction starts at; 0 if the entry is not a
 * branch or switch the CFG knows. */
static int start(gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken)
{
    uint32_t b = dir_block(c, kind, site, taken, 0);
    if (b == NONE)
        return 0;
    new_walk(c);
    for (uint32_t i = 1; b != NONE; b = dir_block(c, kind, site, taken, i++))
        visit(c, b, REACH_ANY);
    return 1;
}

/* The cached answer for `key` in `m`, a fresh one (state 0) if none; NULL on OOM. */
static cans_t *answer(ansmap_t *m, uint64_t key)
{
    int fresh;
    cans_t *a = ansmap_put(m, key, &fresh);
    if (a && fresh)
        a->key = key;
    return a;
}

/* Coverage of a block the CFG does not list means code outside it runs. */
static void check_known(gb_cfg_t *c, const uint8_t *virgin, uint32_t covered)
{
    if (covered == c->last_covered || c->incomplete)
        return;
    c->last_covered = covered;
    /* entry 0 is left out: AFL runtimes have written it at start-up as an
     * "alive" mark, without any block behind it */
    for (uint32_t id = 1; id < GB_MAP_SIZE; id++)
        if (virgin[id] && !(c->g.known[id >> 3] & (1u << (id & 7)))) {
            c->incomplete = 1;
            return;
        }
}

/* Both questions, one walk: can the new direction of (kind, site, taken)
 * reach a block that `map` marks (goal: nonzero there) or leaves unmarked
 * (not goal: 0 there, never covered)? Answers are cached in `m`: the
 * marked set only shrinks (goals reached, blocks covered), so "cannot"
 * stays true and a witness is checked again before it is trusted. */
static int may_reach(gb_cfg_t *c, ansmap_t *m, unsigned kind, uint32_t site, unsigned taken,
                     const uint8_t *map, int goal, const uint8_t *virgin, uint32_t covered)
{
    if (!c)
        return 1;
    check_known(c, virgin, covered);
    if (c->incomplete || (kind != GBT_PC_BRANCH && kind != GBT_PC_SWITCH))
        return 1;
    cans_t *a = answer(m, ((uint64_t)site << 3 | (uint64_t)kind << 1 | (taken & 1)) + 1);
    if (!a)
        return 1;
    if (a->state == ANS_ALWAYS)
        return 1;
    if (a->state == ANS_NEVER)
        return 0;
    if (a->state == ANS_WITNESS && (map[c->g.blocks[a->witness].id] != 0) == (goal != 0))
        return 1; /* still uncovered, or still wanted */
    if (!start(c, kind, site, taken)) {
        a->state = ANS_ALWAYS;
        return 1;
    }
    uint32_t w = search(c, map, goal);
    a->state = w == NONE ? ANS_NEVER : ANS_WITNESS;
    a->witness = w;
    return w != NONE;
}

int gb_cfg_flip_may_reach(gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken,
                          const uint8_t *virgin, uint32_t covered)
{
    return may_reach(c, c ? &c->ans : NULL, kind, site, taken, virgin, 0, virgin, covered);
}

const gb_cfg_graph_t *gb_cfg_graph_of(const gb_cfg_t *c) { return &c->g; }

int gb_cfg_flip_may_reach_goal(gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken,
                               const uint8_t *goal, const uint8_t *virgin, uint32_t covered)
{
    return may_reach(c, c ? &c->gans : NULL, kind, site, taken, goal, 1, virgin, covered);
}

int gb_cfg_goal_from_entry(gb_cfg_t *c, const uint8_t *goal)
{
    if (!c)
        return 1;
    new_walk(c);
    /* The driver calls the entry points; code outside the CFG (the C
     * runtime's constructors, callbacks) may call any address-taken
     * function. */
    for (size_t f = 0; f < c->g.nfuncs; f++)
        if (c->g.funcs[f].role & GB_CFG_ENTRY)
            visit(c, c->g.funcs[f].first, REACH_ANY);
    external(c);
    return search(c, goal, 1) != NONE;
}

/* ---- directed mode: lines and distances ------------------------------ */

int gb_cfg_line_blocks(const gb_cfg_t *c, const char *file, uint32_t line, uint32_t **blocks,
                       size_t *n, gb_cfg_where_t *where)
{
    gb_cfg_u32v_t out = {0};
    uint32_t files = 0;
    memset(where, 0, sizeof *where);
    *blocks = NULL;
    *n = 0;
    if (!c)
        return 0;
    where->line_modules = c->g.line_modules;
    if (gb_cfg_graph_line_blocks(&c->g, file, line, &out, &files, &where->before,
                                 &where->after) != 0) {
        gb_free(out.v);
        return -1;
    }
    where->files = files;
    *blocks = out.v;
    *n = out.n;
    return 0;
}

uint32_t gb_cfg_block_id(const gb_cfg_t *c, uint32_t b)
{
    return c->g.blocks[b].id;
}

uint32_t gb_cfg_block_flags(const gb_cfg_t *c, uint32_t b)
{
    return c->g.blocks[b].flags;
}

int gb_cfg_block_calls(const gb_cfg_t *c, uint32_t b, const char *name)
{
    const gb_cfg_block_t *bl = &c->g.blocks[b];
    size_t n = strlen(name);
    for (uint32_t k = 0; k < bl->ncalls; k++) {
        const gb_cfg_sym_t *s = &c->g.syms[c->g.calls.v[bl->calls + k]];
        if (s->ndefs == 0 && s->len == n && memcmp(s->name, name, n) == 0)
            return 1;
    }
    return 0;
}

uint32_t gb_cfg_block_line(const gb_cfg_t *c, uint32_t b, const char **file, uint32_t *flen)
{
    const gb_cfg_block_t *bl = &c->g.blocks[b];
    *file = NULL;
    *flen = 0;
    if (bl->nlines == 0)
        return 0;
    const gb_cfg_file_t *f = &c->g.files[c->g.lines.v[bl->lines]];
    *file = f->text;
    *flen = f->len;
    return c->g.lines.v[bl->lines + 1];
}

const char *gb_cfg_block_func(const gb_cfg_t *c, uint32_t b, uint32_t *len)
{
    const gb_cfg_func_t *f = &c->g.funcs[c->g.blocks[b].func];
    *len = f->len;
    return f->name;
}

int gb_cfg_goal_distances(gb_cfg_t *c, const uint8_t *goal, uint32_t *dist_by_id)
{
    for (size_t id = 0; id < GB_MAP_SIZE; id++)
        dist_by_id[id] = UINT32_MAX;
    if (!c)
        return 0;
    if (!c->gdist && !(c->gdist = gb_calloc(c->g.nblocks + 1, sizeof *c->gdist)))
        return -1;
    uint32_t *down = gb_calloc(c->g.nblocks + 1, sizeof *down);
    int rc = down ? gb_cfg_graph_distances(&c->g, goal, 0, down) : -1;
    if (rc == 0)
        rc = gb_cfg_graph_distances(&c->g, goal, 1, c->gdist);
    for (size_t b = 0; rc == 0 && b < c->g.nblocks; b++)
        if (down[b] != UINT32_MAX)
            c->gdist[b] = down[b];
        else if (c->gdist[b] != UINT32_MAX)
            c->gdist[b] += GB_CFG_RET_PENALTY;
    gb_free(down);
    if (rc != 0)
        return -1;
    for (size_t b = 0; b < c->g.nblocks; b++) {
        uint32_t id = c->g.blocks[b].id;
        if (c->gdist[b] < dist_by_id[id])
            dist_by_id[id] = c->gdist[b];
    }
    return 0;
}

uint32_t gb_cfg_flip_distance(const gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken)
{
    uint32_t d = UINT32_MAX, b;
    if (!c || !c->gdist)
        return d;
    for (uint32_t i = 0; (b = dir_block(c, kind, site, taken, i)) != NONE; i++)
        if (c->gdist[b] < d)
            d = c->gdist[b];
    return d;
}

int gb_cfg_flip_opens(const gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken,
                      const uint8_t *virgin)
{
    uint32_t b;
    if (!c || c->incomplete)
        return 0;
    for (uint32_t i = 0; (b = dir_block(c, kind, site, taken, i)) != NONE; i++) {
        const gb_cfg_block_t *bl = &c->g.blocks[b];
        if (!virgin[bl->id] && !(bl->flags & GBCFG_B_NEVER))
            return 1;
    }
    return 0;
}

int gb_cfg_leaves(const gb_cfg_t *c, const char *const *allowed, size_t nallowed, char *name,
                  size_t cap)
{
    const gb_cfg_graph_t *g = &c->g;
    for (size_t b = 0; b < g->nblocks; b++) {
        const gb_cfg_block_t *bl = &g->blocks[b];
        for (uint32_t k = 0; k < bl->ncalls; k++) {
            const gb_cfg_sym_t *sy = &g->syms[g->calls.v[bl->calls + k]];
            if (sy->ndefs)
                continue;
            size_t i = 0;
            while (i < nallowed &&
                   (strlen(allowed[i]) != sy->len || memcmp(allowed[i], sy->name, sy->len) != 0))
                i++;
            if (i < nallowed)
                continue;
            snprintf(name, cap, "%.*s", (int)sy->len, sy->name);
            return 1;
        }
        for (uint32_t k = 0; k < bl->nisig; k++) {
            uint32_t sig = g->isigs.v[bl->isig + k];
            if (sig == NONE || g->out_any || g->sigs[sig].out) {
                snprintf(name, cap, "an indirect call");
                return 1;
            }
        }
    }
    return 0;
}
