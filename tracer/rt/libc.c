/* SPDX-License-Identifier: Apache-2.0 */
/* libc models: glassbox-cc redirects calls to these functions here. Each
 * does the real work with the real libc, then sets the shadow of its
 * result in __gb_ret and moves shadow memory as the function moves bytes.
 * Comparisons are modelled for equality: the result is ite(all compared
 * bytes equal, 0, concrete result), which is what `== 0` branches need. */
#include <string.h>

#include "rt_int.h"

extern __thread void *__gb_ret;
extern __thread void *__gb_params[];
extern __thread void *__gb_callee;

/* The shadow of argument i when an instrumented caller called `self`
 * (docs/tracer.md, "Calls"); NULL otherwise. Consumes the callee tag. */
static rt_expr_t *param(const void *self, unsigned i)
{
    return __gb_callee == self && rt.active ? (rt_expr_t *)__gb_params[i] : NULL;
}

#define MAX_MODEL_BYTES 4096 /* longer symbolic compares stay concrete */

static rt_expr_t *byte_at(const uint8_t *p)
{
    rt_expr_t *s = rt_shadow_get((uintptr_t)p);
    return s ? s : rt_const(8, *p);
}

/* AND over i < n of (a[i] == b[i]); NULL if every pair is concrete. */
static rt_expr_t *all_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (n > MAX_MODEL_BYTES || (!rt_shadow_any((uintptr_t)a, n) && !rt_shadow_any((uintptr_t)b, n)))
        return NULL;
    rt_expr_t *acc = rt_const(1, 1);
    for (size_t i = 0; i < n && acc; i++) {
        rt_expr_t *sa = rt_shadow_get((uintptr_t)(a + i)), *sb = rt_shadow_get((uintptr_t)(b + i));
        if (!sa && !sb) {
            if (a[i] != b[i])
                return NULL; /* a concrete difference decides the result */
            continue;
        }
        acc = rt_binop(GBT_OP_AND, acc, rt_binop(GBT_OP_EQ, byte_at(a + i), byte_at(b + i)));
    }
    return acc;
}

static void set_cmp_result(rt_expr_t *eq, int result)
{
    __gb_ret = NULL;
    if (!eq || eq->op == GBT_OP_CONST || !rt.active)
        return;
    __gb_ret = rt_ite(eq, rt_const(32, 0), rt_const(32, (uint64_t)(result ? result : 1)));
}

RT_EXPORT int __gb_model_memcmp(const void *a, const void *b, size_t n)
{
    int r = memcmp(a, b, n);
    set_cmp_result(all_equal(a, b, n), r);
    return r;
}

RT_EXPORT int __gb_model_bcmp(const void *a, const void *b, size_t n)
{
    return __gb_model_memcmp(a, b, n);
}

/* Bytes compared by strncmp(a, b, n): up to and including the first NUL of
 * the shorter string, at most n. If those are equal, the strings are. */
static size_t str_span(const char *a, const char *b, size_t n)
{
    size_t la = strnlen(a, n), lb = strnlen(b, n);
    size_t m = (la < lb ? la : lb) + 1;
    return m < n ? m : n;
}

RT_EXPORT int __gb_model_strncmp(const char *a, const char *b, size_t n)
{
    int r = strncmp(a, b, n);
    set_cmp_result(all_equal((const uint8_t *)a, (const uint8_t *)b, str_span(a, b, n)), r);
    return r;
}

RT_EXPORT int __gb_model_strcmp(const char *a, const char *b)
{
    int r = strcmp(a, b);
    set_cmp_result(all_equal((const uint8_t *)a, (const uint8_t *)b, str_span(a, b, (size_t)-1)),
                   r);
    return r;
}

/* strlen(s) = k: ite(s[0]==0, 0, ite(s[1]==0, 1, ... k)). */
RT_EXPORT size_t __gb_model_strlen(const char *s)
{
    size_t k = strlen(s);
    __gb_ret = NULL;
    if (!rt.active || k > MAX_MODEL_BYTES || !rt_shadow_any((uintptr_t)s, k + 1))
        return k;
    rt_expr_t *e = rt_const(64, k);
    for (size_t i = k; i-- > 0 && e;) {
        rt_expr_t *b = rt_shadow_get((uintptr_t)(s + i));
        if (b)
            e = rt_ite(rt_binop(GBT_OP_EQ, b, rt_const(8, 0)), rt_const(64, i), e);
    }
    __gb_ret = e;
    return k;
}

RT_EXPORT void *__gb_model_memcpy(void *d, const void *s, size_t n)
{
    rt_shadow_copy((uintptr_t)d, (uintptr_t)s, n);
    __gb_ret = NULL;
    return memcpy(d, s, n);
}

RT_EXPORT void *__gb_model_memmove(void *d, const void *s, size_t n)
{
    rt_shadow_copy((uintptr_t)d, (uintptr_t)s, n);
    __gb_ret = NULL;
    return memmove(d, s, n);
}

RT_EXPORT void *__gb_model_memset(void *d, int c, size_t n)
{
    rt_shadow_clear((uintptr_t)d, n); /* the fill byte's shadow is not passed */
    __gb_ret = NULL;
    return memset(d, c, n);
}

RT_EXPORT char *__gb_model_strcpy(char *d, const char *s)
{
    size_t n = strlen(s) + 1;
    rt_shadow_copy((uintptr_t)d, (uintptr_t)s, n);
    __gb_ret = NULL;
    return memcpy(d, s, n);
}

static rt_expr_t *abs_expr(rt_expr_t *x)
{
    if (!x)
        return NULL;
    rt_expr_t *neg = rt_binop(GBT_OP_SLT, x, rt_const(x->width, 0));
    return rt_ite(neg, rt_unop(GBT_OP_NEG, x->width, x, 0), x);
}

RT_EXPORT int __gb_model_abs(int x)
{
    __gb_ret = abs_expr(param((const void *)__gb_model_abs, 0));
    __gb_callee = NULL;
    return x < 0 ? -x : x;
}

RT_EXPORT long __gb_model_labs(long x)
{
    __gb_ret = abs_expr(param((const void *)__gb_model_labs, 0));
    __gb_callee = NULL;
    return x < 0 ? -x : x;
}

RT_EXPORT long long __gb_model_llabs(long long x)
{
    __gb_ret = abs_expr(param((const void *)__gb_model_llabs, 0));
    __gb_callee = NULL;
    return x < 0 ? -x : x;
}
