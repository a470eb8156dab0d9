/* SPDX-License-Identifier: Apache-2.0 */
/* Flip selection from the static CFG (CDSE's fCFG idea, for fuzzing): a
 * flip whose new direction cannot reach a block no run has covered is not
 * worth a query. Answers by a search over the blocks of the graph
 * cfg_read.c builds (docs/cfg-format.md, "Flip selection"), with callees,
 * indirect calls by signature, and returns. */
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

struct gb_cfg {
    gb_cfg_graph_t g;
    ansmap_t ans;          /* answers by (site, kind, taken) */
    uint32_t last_covered; /* `covered` when the known check last ran */
    int incomplete;
    /* the search: a stamp per block, function and signature, so nothing
     * is cleared */
    uint32_t stamp, *seen, *fseen;
    uint32_t *scall; /* signature called through */
    uint8_t *mode;   /* reach_mode_t of each block in the current walk */
    uint32_t *queue;
    size_t qn;
    int external_done;
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
    size_t nb = c->g.nblocks + 1;
    c->seen = gb_calloc(nb, sizeof *c->seen);
    c->fseen = gb_calloc(c->g.nfuncs + 1, sizeof *c->fseen);
    c->scall = gb_calloc(c->g.nsigs + 1, sizeof *c->scall);
    c->mode = gb_calloc(nb, 1);
    c->queue = gb_calloc(2 * nb, sizeof *c->queue); /* a block is queued at most twice */
    if (!c->seen || !c->fseen || !c->scall || !c->mode || !c->queue) {
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
    gb_free(c->seen);
    gb_free(c->fseen);
    gb_free(c->scall);
    gb_free(c->mode);
    gb_free(c->queue);
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

/* Code outside the CFG may call any address-taken function and longjmp
 * to any setjmp; both become reachable. */
static void external(gb_cfg_t *c)
{
    if (c->external_done)
        return;
    c->external_done = 1;
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

/* A return that may go to any caller: what follows each call site. */
static void any_return(gb_cfg_t *c, uint32_t func)
{
    const gb_cfg_func_t *f = &c->g.funcs[func];
    if (c->fseen[func] == c->stamp)
        return;
    c->fseen[func] = c->stamp;
    if (!(f->flags & GBCFG_S_LOCAL) || (f->flags & GBCFG_S_ADDR_TAKEN))
        external(c); /* called from code outside the CFG too */
    for (uint32_t k = 0; k < f->ncallers; k++) {
        const gb_cfg_block_t *cb = &c->g.blocks[c->g.callers.v[f->callers + k]];
        for (uint32_t i = 0; i < cb->nsucc; i++)
            visit(c, c->g.succ.v[cb->succ + i], REACH_ANY);
        calls_of(c, cb);
    }
}

/* Runs the search from the queued blocks: the first uncovered block found,
 * or NONE when there is none. */
static uint32_t search(gb_cfg_t *c, const uint8_t *virgin)
{
    for (size_t qi = 0; qi < c->qn; qi++) {
        uint32_t b = c->queue[qi];
        const gb_cfg_block_t *bl = &c->g.blocks[b];
        if (!virgin[bl->id] && !(bl->flags & GBCFG_B_DEAD))
            return b;
        reach_mode_t mode = (reach_mode_t)c->mode[b];
        for (uint32_t i = 0; i < bl->nsucc; i++)
            visit(c, c->g.succ.v[bl->succ + i], mode);
        calls_of(c, bl);
        if ((bl->flags & GBCFG_B_RET) && mode == REACH_ANY)
            any_return(c, bl->func);
    }
    return NONE;
}

/* A new walk: every stamp of the last one is stale. */
static void new_walk(gb_cfg_t *c)
{
    c->stamp++;
    if (c->stamp == 0) { /* wrapped: old stamps could match again */
        memset(c->seen, 0, c->g.nblocks * sizeof *c->seen);
        memset(c->fseen, 0, c->g.nfuncs * sizeof *c->fseen);
        memset(c->scall, 0, c->g.nsigs * sizeof *c->scall);
        c->stamp = 1;
    }
    c->qn = 0;
    c->external_done = 0;
}

/* Queues the blocks the new direction starts at; 0 if the entry is not a
 * branch or switch the CFG knows. */
static int start(gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken)
{
    const gb_cfg_site_t *cs = gb_cfg_graph_site(&c->g, site);
    if (!cs)
        return 0;
    const gb_cfg_block_t *bl = &c->g.blocks[cs->block];
    const uint32_t *succ = c->g.succ.v + bl->succ;
    new_walk(c);
    if (kind == GBT_PC_BRANCH && bl->kind == GBCFG_T_BR && cs->arm == NONE) {
        visit(c, succ[taken ? 1 : 0], REACH_ANY); /* successor 0 is "true" */
        return 1;
    }
    if (kind != GBT_PC_SWITCH || bl->kind != GBCFG_T_SWITCH || cs->arm == NONE)
        return 0;
    if (!taken) { /* value == case: that case's block */
        visit(c, succ[1 + cs->arm], REACH_ANY);
        return 1;
    }
    for (uint32_t i = 0; i < bl->nsucc; i++) /* value != case: default or another case */
        if (i != 1 + cs->arm)
            visit(c, succ[i], REACH_ANY);
    return 1;
}

/* The cached answer for `key`, a fresh one (state 0) if none; NULL on OOM. */
static cans_t *answer(gb_cfg_t *c, uint64_t key)
{
    int fresh;
    cans_t *a = ansmap_put(&c->ans, key, &fresh);
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

int gb_cfg_flip_may_reach(gb_cfg_t *c, unsigned kind, uint32_t site, unsigned taken,
                          const uint8_t *virgin, uint32_t covered)
{
    if (!c)
        return 1;
    check_known(c, virgin, covered);
    if (c->incomplete || (kind != GBT_PC_BRANCH && kind != GBT_PC_SWITCH))
        return 1;
    cans_t *a = answer(c, ((uint64_t)site << 3 | (uint64_t)kind << 1 | (taken & 1)) + 1);
    if (!a)
        return 1;
    if (a->state == ANS_ALWAYS)
        return 1;
    if (a->state == ANS_NEVER)
        return 0;
    if (a->state == ANS_WITNESS && !virgin[c->g.blocks[a->witness].id])
        return 1; /* still uncovered */
    if (!start(c, kind, site, taken)) {
        a->state = ANS_ALWAYS;
        return 1;
    }
    uint32_t w = search(c, virgin);
    a->state = w == NONE ? ANS_NEVER : ANS_WITNESS;
    a->witness = w;
    return w != NONE;
}
