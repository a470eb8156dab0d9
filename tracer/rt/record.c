/* SPDX-License-Identifier: Apache-2.0 */
/* What goes into the path constraint: back-off by (site, calling context),
 * branch entries and pins. */
#include <stdint.h>
#include <sys/mman.h>

#include "gb_hmap.h"
#include "rt_int.h"

/* The back-off table's memory comes from mmap, not from the target's
 * malloc, which may be instrumented or in a state the runtime must not
 * enter; the length is kept in front of the slots for munmap. */
#define MAP_HEAD 64 /* keeps the slots cache-line aligned */

static void *map_calloc(size_t n, size_t size)
{
    if (size && n > (SIZE_MAX - MAP_HEAD) / size)
        return NULL;
    size_t len = n * size + MAP_HEAD;
    void *p =
        mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    *(size_t *)p = len;
    return (char *)p + MAP_HEAD;
}

static void map_free(void *p)
{
    if (p)
        munmap((char *)p - MAP_HEAD, *(size_t *)(void *)((char *)p - MAP_HEAD));
}

/* One (site, context) and how often it was hit. */
typedef struct bo_slot {
    uint64_t key;     /* context << 32 | site */
    uint32_t hits;    /* 0 = empty slot */
    uint16_t changes; /* hits of a branch that went the other way than the hit before */
    uint8_t last;     /* a branch's direction at its last hit + 1; 0 = none yet */
} bo_slot_t;

/* The site sits in the low bits: fold the context's bits into them. */
static uint64_t bo_hash(const void *ctx, uint64_t key)
{
    (void)ctx;
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 32);
}

static uint64_t bo_slot_hash(const void *ctx, const bo_slot_t *s)
{
    return bo_hash(ctx, s->key);
}
static int bo_match(const void *ctx, const bo_slot_t *s, uint64_t key)
{
    (void)ctx;
    return s->key == key;
}
static int bo_empty(const bo_slot_t *s)
{
    return s->hits == 0;
}

GB_HMAP_DEFINE(bo_map, bo_slot_t, uint64_t, const void *, bo_hash, bo_slot_hash, bo_match, bo_empty,
               map_calloc, map_free)

/* Only the tracing thread gets here: other threads have no shadows. */
static bo_map_t backoff;

/* QSYM-style back-off: a (site, calling context) records its first
 * `backoff_free` hits, then only hits whose count is a power of two. The
 * context (__gb_ctx) tells apart the callers of a shared helper, so one
 * caller's loop does not use up another's budget. Out of memory, every
 * hit is recorded. */
static int within(uint32_t n) { return n <= rt.lim.backoff_free || (n & (n - 1)) == 0; }

/* A branch (dir = its direction, 0 or 1; -1 for anything else) whose hit
 * went the other way than its hit before is kept on a budget of its own,
 * counted the same way: a loop's exit after thousands of iterations is
 * the entry a search needs to run it once more. */
static int backoff_allows_dir(uint32_t site, uint32_t salt, int dir)
{
    uint32_t ctx = (rt.lim.backoff_ctx ? __gb_ctx : 0) ^ salt;
    uint64_t key = (uint64_t)ctx << 32 | site;
    int fresh;
    bo_slot_t *s = bo_map_put(&backoff, key, &fresh);
    if (RT_UNLIKELY(!s))
        return 1;
    s->key = key;
    int changed = dir >= 0 && s->last && s->last != dir + 1;
    if (dir >= 0)
        s->last = (uint8_t)(dir + 1);
    if (within(++s->hits))
        return 1;
    if (!changed || s->changes == UINT16_MAX)
        return 0;
    return within(++s->changes);
}

static int backoff_allows(uint32_t site, uint32_t salt)
{
    return backoff_allows_dir(site, salt, -1);
}

/* Whether an entry at `site` is recorded, asked before its condition is
 * built: back-off drops most of them (on the demo, all but 741 of 1.18 M
 * pins), and building each would cost nodes for nothing. */
RT_HIDDEN int rt_keep(uint32_t site)
{
    return rt_keep_salted(site, 0);
}

/* Back-off keyed by a salt too, as if it were another calling context. */
RT_HIDDEN int rt_keep_salted(uint32_t site, uint32_t salt)
{
    if (backoff_allows(site, salt))
        return 1;
    rt.dropped++;
    return 0;
}

RT_HIDDEN void rt_record(unsigned kind, int taken, uint32_t site, rt_expr_t *cond)
{
    if (backoff_allows_dir(site, 0, kind == GBT_PC_BRANCH ? taken != 0 : -1))
        rt_out_pc(kind, taken, site, cond);
    else
        rt.dropped++;
}

/* A pin that back-off has already let through. */
RT_HIDDEN void rt_pin_kept(rt_expr_t *e, uint64_t value, uint32_t site)
{
    rt_expr_t *eq = rt_binop_k(GBT_OP_EQ, e, value);
    if (eq && eq->op != GBT_OP_CONST)
        rt_out_pc(GBT_PC_PIN, 1, site, eq);
}

RT_HIDDEN void rt_pin(rt_expr_t *e, uint64_t value, uint32_t site)
{
    if (!e || e->op == GBT_OP_CONST || !rt_keep(site))
        return;
    rt_pin_kept(e, value, site);
}
