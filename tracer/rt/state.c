/* SPDX-License-Identifier: Apache-2.0 */
/* The runtime's state: the process-wide tracing state and limits (read
 * once from the environment), and the per-thread values instrumented code
 * passes across calls. Every other runtime file reads it; it calls none. */
#include <stdlib.h>
#include <string.h>

#include "gb_config.h"
#include "rt_int.h"

rt_state_t rt;
RT_TLS int rt_active;

/* Shadow passing across calls (see docs/tracer.md, "Calls"). */
RT_EXPORT __thread void *__gb_params[GB_MAX_PARAMS];
RT_EXPORT __thread void *__gb_ret;
RT_EXPORT __thread void *__gb_callee;
/* The call-context hash, kept by instrumented calls (gb_abi.h). */
RT_EXPORT __thread uint32_t __gb_ctx;

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    return (*end || v == 0) ? dflt : (uint64_t)v;
}

RT_HIDDEN void rt_init(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    rt.lim.max_pcs = env_u64("GLASSBOX_MAX_PCS", GB_RT_MAX_PCS);
    rt.lim.max_depth = (unsigned)env_u64("GLASSBOX_MAX_DEPTH", GB_RT_MAX_DEPTH);
    if (rt.lim.max_depth > GB_RT_MAX_DEPTH_CAP)
        rt.lim.max_depth = GB_RT_MAX_DEPTH_CAP;
    rt.lim.max_nodes = env_u64("GLASSBOX_MAX_NODES", GB_RT_MAX_NODES);
    rt.lim.backoff_free = (unsigned)env_u64("GLASSBOX_BACKOFF", GB_RT_BACKOFF_FREE);
    const char *bc = getenv("GLASSBOX_BACKOFF_CTX");
    rt.lim.backoff_ctx = !(bc && strcmp(bc, "0") == 0);
    /* "auto" by default: a read is symbolic unless its table holds wide
     * values or its index an earlier table read (a CRC's table or chain,
     * whose exact queries made the demo campaign ~50x slower; table.c and
     * docs/tracer.md, "Constant tables"). */
    const char *tb = getenv("GLASSBOX_TABLES");
    rt.lim.tables = !tb                   ? RT_TABLES_AUTO
                    : strcmp(tb, "1") == 0 ? RT_TABLES_ALL
                    : strcmp(tb, "0") == 0 ? RT_TABLES_NONE
                                           : RT_TABLES_AUTO;
    const char *ln = getenv("GLASSBOX_LENGTH");
    rt.lim.length = !(ln && strcmp(ln, "0") == 0);
}
