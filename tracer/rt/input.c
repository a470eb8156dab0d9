/* SPDX-License-Identifier: Apache-2.0 */
/* The input: the driver's buffer made symbolic, and the input-length
 * variable (docs/tracer.md, "Input length"). */
#include <stdlib.h>

#include "gb_abi.h"
#include "rt_int.h"

/* Called by the driver with the input buffer: opens the trace and makes
 * every input byte symbolic. Without GLASSBOX_TRACE_OUT the program runs
 * with no symbolic state at all. */
RT_EXPORT void __gb_input(const uint8_t *data, size_t len)
{
    rt_init();
    const char *path = getenv(GB_ENV_TRACE_OUT);
    if (!path || !*path || rt_out_open(path, data, len) != 0)
        return;
    rt_active = 1;
    rt.input_len = len;
    for (size_t i = 0; i < len; i++)
        rt_shadow_set((uintptr_t)(data + i), rt_input(i));
}

RT_HIDDEN rt_expr_t *rt_input_len(void)
{
    static rt_expr_t *len_expr;
    if (!rt_active || !rt.lim.length || rt.input_len >> (8 * GBT_LEN_BYTES))
        return NULL;
    if (!len_expr) {
        rt_expr_t *v = rt_input(GBT_LEN_OFFSET);
        for (unsigned k = 1; k < GBT_LEN_BYTES && v; k++)
            v = rt_concat(rt_input(GBT_LEN_OFFSET + k), v);
        len_expr = v ? rt_resize(v, 64) : NULL;
    }
    return len_expr;
}

/* For the driver: the shadow of LLVMFuzzerTestOneInput's size argument. */
RT_EXPORT void *__gb_input_len(void)
{
    return rt_input_len();
}
