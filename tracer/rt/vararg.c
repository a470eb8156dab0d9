/* SPDX-License-Identifier: Apache-2.0 */
/* Variadic arguments (docs/tracer.md, "Variadic arguments"): a variadic
 * function's prologue keeps its caller's descriptor and shadows
 * (__gb_va_enter), and each va_start writes them onto the shadow memory
 * of the places va_arg reads, by the x86-64 System V rules, which the
 * va_list itself tells: how much of the register save area the fixed
 * arguments used, and where the stack arguments start. */
#include <string.h>

#include "rt_int.h"

RT_EXPORT __thread const uint8_t *__gb_vadesc;

/* The frame's slots (GB_VA_SAVE): the descriptor, or NULL when the caller
 * was not instrumented code naming this function, then one shadow for
 * each argument it lists. A call through a pointer of another type may
 * list more than __gb_params holds after this function's fixed ones:
 * those read as concrete. */
RT_EXPORT void __gb_va_enter(uint32_t ok, uint32_t nfixed, void **save)
{
    const uint8_t *d = __gb_vadesc;
    __gb_vadesc = NULL;
    save[0] = NULL;
    if (!ok || !d || !rt_active || nfixed >= GB_MAX_PARAMS || d[0] >= GB_VA_SAVE)
        return;
    unsigned n = d[0] < GB_MAX_PARAMS - nfixed ? d[0] : GB_MAX_PARAMS - nfixed;
    memcpy(save + 1, __gb_params + nfixed, n * sizeof *save);
    memset(save + 1 + n, 0, (d[0] - n) * sizeof *save);
    save[0] = (void *)d;
}

#if defined(__x86_64__)
/* va_list's one element, as the x86-64 System V ABI lays it out. */
typedef struct va_tag {
    uint32_t gp_offset; /* next integer register's offset in the save area */
    uint32_t fp_offset; /* next vector register's, from 48 */
    char *overflow;     /* the next stack argument */
    char *regs;         /* the register save area */
} va_tag_t;

#define VA_GP_END 48u  /* six 8-byte integer registers */
#define VA_FP_END 176u /* then eight 16-byte vector registers */

RT_EXPORT void __gb_va_start(void *ap, void **save)
{
    va_tag_t *v = ap;
    /* Both were written by code that leaves shadows alone: whatever
     * expressions an older frame left there are stale. */
    rt_shadow_clear((uintptr_t)v, sizeof *v);
    if (v->regs)
        rt_shadow_clear((uintptr_t)v->regs, VA_FP_END);
    const uint8_t *d = save[0];
    if (!d)
        return;
    unsigned gp = v->gp_offset, fp = v->fp_offset, n = d[0];
    char *stack = v->overflow;
    for (unsigned i = 0; i < n; i++) {
        unsigned size = d[1 + i] & GB_VA_SIZE_MASK;
        char *at;
        if (d[1 + i] & GB_VA_FP) {
            at = fp < VA_FP_END && v->regs ? v->regs + fp : NULL;
            fp += at ? 16 : 0;
        } else {
            at = gp < VA_GP_END && v->regs ? v->regs + gp : NULL;
            gp += at ? 8 : 0;
        }
        if (!at) {
            at = stack;
            stack += 8;
            rt_shadow_clear((uintptr_t)at, 8);
        }
        if (save[1 + i])
            rt_shadow_store((uintptr_t)at, size, save[1 + i]);
    }
}
#else
RT_EXPORT void __gb_va_start(void *ap, void **save)
{
    (void)ap, (void)save; /* other ABIs: variadic values stay concrete */
}
#endif
