/* SPDX-License-Identifier: Apache-2.0 */
/* What goes into the path constraint: back-off by (site, calling context),
 * branch entries and pins. */
#include "rt_int.h"

/* QSYM-style back-off: a (site, calling context) records its first
 * `backoff_free` hits, then only hits whose count is a power of two. The
 * context (__gb_ctx) tells apart the callers of a shared helper, so one
 * caller's loop does not use up another's budget. Open addressing; a
 * slot is free while its count is 0. */
static int backoff_allows(uint32_t site)
{
    enum { SLOTS = 1 << 17 };
    static uint64_t keys[SLOTS];
    static uint32_t hits[SLOTS];
    uint64_t key = (uint64_t)(rt.lim.backoff_ctx ? __gb_ctx : 0) << 32 | site;
    uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 47);
    for (unsigned probe = 0; probe < 64; probe++, h = (h + 1) & (SLOTS - 1)) {
        if (hits[h] == 0 || keys[h] == key) {
            keys[h] = key;
            uint32_t n = ++hits[h];
            return n <= rt.lim.backoff_free || (n & (n - 1)) == 0;
        }
    }
    return 1;
}

/* Whether an entry at `site` is recorded, asked before its condition is
 * built: back-off drops most of them (on the demo, all but 741 of 1.18 M
 * pins), and building each would cost nodes for nothing. */
RT_HIDDEN int rt_keep(uint32_t site)
{
    if (backoff_allows(site))
        return 1;
    rt.dropped++;
    return 0;
}

RT_HIDDEN void rt_record(unsigned kind, int taken, uint32_t site, rt_expr_t *cond)
{
    if (rt_keep(site))
        rt_out_pc(kind, taken, site, cond);
}

/* A pin that back-off has already let through. */
RT_HIDDEN void rt_pin_kept(rt_expr_t *e, uint64_t value, uint32_t site)
{
    rt_expr_t *eq = e ? rt_binop(GBT_OP_EQ, e, rt_const(e->width, value)) : NULL;
    if (eq && eq->op != GBT_OP_CONST)
        rt_out_pc(GBT_PC_PIN, 1, site, eq);
}

RT_HIDDEN void rt_pin(rt_expr_t *e, uint64_t value, uint32_t site)
{
    if (!e || e->op == GBT_OP_CONST || !rt_keep(site))
        return;
    rt_pin_kept(e, value, site);
}
