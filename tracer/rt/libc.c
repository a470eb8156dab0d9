/* SPDX-License-Identifier: Apache-2.0 */
/* libc models: glassbox-cc redirects calls to these functions here. Each
 * does the real work with the real libc, then sets the shadow of its
 * result in __gb_ret and moves shadow memory as the function moves bytes.
 * Comparisons are modelled for equality: the result is ite(all compared
 * bytes equal, 0, concrete result), which is what `== 0` branches need. */
#include <string.h>
#include <strings.h>

#include "rt_int.h"

/* The shadow of argument i when an instrumented caller called `self`
 * (docs/tracer.md, "Calls"); NULL otherwise. */
RT_HIDDEN rt_expr_t *rt_model_param(const void *self, unsigned i)
{
    return __gb_callee == self && rt_active ? (rt_expr_t *)__gb_params[i] : NULL;
}

/* The byte at p as an expression: its shadow, or a constant. */
RT_HIDDEN rt_expr_t *rt_model_byte(const uint8_t *p)
{
    rt_expr_t *s = rt_shadow_get((uintptr_t)p);
    return s ? s : rt_const(8, *p);
}

/* Defined by the linker's default script; weak, so a link without it
 * (a shared object) still works, with sites that vary under ASLR. */
extern const char __executable_start[] __attribute__((weak));

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    return x ^ (x >> 33);
}

/* A site id for a decision taken inside a model: stable across runs of one
 * binary, because it hashes the call's return address relative to the
 * executable's start (not the ASLR'd address), the model and the
 * decision's role and position. */
RT_HIDDEN uint32_t rt_model_site(const char *model, const void *ret, unsigned role, uint64_t pos)
{
    uintptr_t off = (uintptr_t)ret;
    if (__executable_start && off >= (uintptr_t)__executable_start)
        off -= (uintptr_t)__executable_start;
    uint64_t h = 0x6a09e667f3bcc909ull;
    for (const char *c = model; *c; c++)
        h = mix64(h ^ (uint8_t)*c);
    h = mix64(h ^ off);
    h = mix64(h ^ ((uint64_t)role << 48) ^ pos);
    return (uint32_t)(h ^ (h >> 32));
}

/* Records a condition a model decided on, as a BRANCH entry (nothing when
 * it is concrete), so the search can ask for the other outcome. */
RT_HIDDEN void rt_model_decide(uint32_t site, rt_expr_t *cond, int truth)
{
    __gb_branch(cond, (uint64_t)(truth != 0), site);
}

/* A decision on the byte at p, with back-off per input byte: when p holds
 * INPUT(k), the site's budget is k's own. A parser that sscanf's a copy of
 * each field in a loop decides at the same sites every time; plain
 * back-off would drop the 17th field's decisions as repeats of the
 * first's and leave its bytes free for the solver to spoil. Repeats on
 * one byte still back off, and the site id stays the position's, so the
 * search's statistics still group the loop's decisions. */
RT_HIDDEN void rt_model_decide_byte(uint32_t site, const uint8_t *p, rt_expr_t *cond, int truth)
{
    rt_expr_t *s = rt_shadow_get((uintptr_t)p);
    if (!s || s->op != GBT_OP_INPUT) {
        rt_model_decide(site, cond, truth);
        return;
    }
    uint32_t salt = (uint32_t)(s->imm * 0x9e3779b97f4a7c15ull >> 32) | 1;
    if (cond && cond->op != GBT_OP_CONST && rt_active && rt_keep_salted(site, salt))
        rt_out_pc(GBT_PC_BRANCH, truth != 0, site, cond);
}

/* ASCII lower case, as strcasecmp folds in the C locale. */
static uint8_t fold_byte(uint8_t c)
{
    return (uint8_t)((uint8_t)(c - 'A') < 26 ? c | 0x20 : c);
}

static rt_expr_t *fold_expr(rt_expr_t *c)
{
    rt_expr_t *upper =
        rt_binop(GBT_OP_ULT, rt_binop(GBT_OP_SUB, c, rt_const(8, 'A')), rt_const(8, 26));
    return rt_ite(upper, rt_binop(GBT_OP_OR, c, rt_const(8, 0x20)), c);
}

/* AND over i < n of (a[i] == b[i]), both sides case-folded when `fold`;
 * NULL if every pair is concrete or a concrete pair differs. */
static rt_expr_t *all_equal(const uint8_t *a, const uint8_t *b, size_t n, int fold)
{
    if (n > RT_MODEL_MAX_BYTES ||
        (!rt_shadow_any((uintptr_t)a, n) && !rt_shadow_any((uintptr_t)b, n)))
        return NULL;
    rt_expr_t *acc = rt_const(1, 1);
    for (size_t i = 0; i < n && acc; i++) {
        rt_expr_t *sa = rt_shadow_get((uintptr_t)(a + i)), *sb = rt_shadow_get((uintptr_t)(b + i));
        if (!sa && !sb) {
            if (fold ? fold_byte(a[i]) != fold_byte(b[i]) : a[i] != b[i])
                return NULL; /* a concrete difference decides the result */
            continue;
        }
        rt_expr_t *x = rt_model_byte(a + i), *y = rt_model_byte(b + i);
        if (fold) {
            x = fold_expr(x);
            y = fold_expr(y);
        }
        acc = rt_binop(GBT_OP_AND, acc, rt_binop(GBT_OP_EQ, x, y));
    }
    return acc;
}

static void set_cmp_result(rt_expr_t *eq, int result)
{
    __gb_ret = NULL;
    if (!eq || eq->op == GBT_OP_CONST || !rt_active)
        return;
    __gb_ret = rt_ite(eq, rt_const(32, 0), rt_const(32, (uint64_t)(result ? result : 1)));
}

RT_EXPORT int __gb_model_memcmp(const void *a, const void *b, size_t n)
{
    int r = memcmp(a, b, n);
    set_cmp_result(all_equal(a, b, n, 0), r);
    return r;
}

RT_EXPORT int __gb_model_bcmp(const void *a, const void *b, size_t n)
{
    return __gb_model_memcmp(a, b, n);
}

/* A concrete NUL: it ends the string on every input. */
static int hard_nul(const char *p)
{
    return *p == 0 && !rt_shadow_get((uintptr_t)p);
}

/* How many bytes of s (at most `limit`) a string model reads: up to this
 * run's NUL and, when that NUL is symbolic, on past it up to a concrete
 * NUL, so another input can move the terminator. The extra bytes stay on
 * the terminator's page, which is mapped. */
RT_HIDDEN size_t rt_model_str_extent(const char *s, size_t limit)
{
    if (limit > RT_MODEL_MAX_BYTES)
        limit = RT_MODEL_MAX_BYTES;
    size_t i = strnlen(s, limit);
    if (i == limit)
        return limit;
    while (!hard_nul(s + i) && i + 1 < limit && ((uintptr_t)(s + i + 1) & 4095) != 0)
        i++;
    return i + 1;
}

/* Bytes compared by strncmp(a, b, n): if they are equal, so are the
 * strings. Both extents, when the shorter ends at a concrete NUL (or at
 * n); else up to this run's first NUL of the shorter string. */
static size_t str_span(const char *a, const char *b, size_t n)
{
    size_t ea = rt_model_str_extent(a, n), eb = rt_model_str_extent(b, n);
    size_t m = ea < eb ? ea : eb;
    if (m == n || (m > 0 && hard_nul((ea < eb ? a : b) + m - 1)))
        return m;
    size_t la = strnlen(a, n), lb = strnlen(b, n);
    m = (la < lb ? la : lb) + 1;
    return m < n ? m : n;
}

RT_EXPORT int __gb_model_strncmp(const char *a, const char *b, size_t n)
{
    int r = strncmp(a, b, n);
    set_cmp_result(all_equal((const uint8_t *)a, (const uint8_t *)b, str_span(a, b, n), 0), r);
    return r;
}

RT_EXPORT int __gb_model_strcmp(const char *a, const char *b)
{
    int r = strcmp(a, b);
    set_cmp_result(all_equal((const uint8_t *)a, (const uint8_t *)b, str_span(a, b, (size_t)-1), 0),
                   r);
    return r;
}

RT_EXPORT int __gb_model_strncasecmp(const char *a, const char *b, size_t n)
{
    int r = strncasecmp(a, b, n);
    set_cmp_result(all_equal((const uint8_t *)a, (const uint8_t *)b, str_span(a, b, n), 1), r);
    return r;
}

RT_EXPORT int __gb_model_strcasecmp(const char *a, const char *b)
{
    int r = strcasecmp(a, b);
    set_cmp_result(all_equal((const uint8_t *)a, (const uint8_t *)b, str_span(a, b, (size_t)-1), 1),
                   r);
    return r;
}

/* The length of s as an expression over its first `e` bytes (its extent):
 * ite(s[0]==0, 0, ite(s[1]==0, 1, ... e)). */
static rt_expr_t *length_expr(const char *s, size_t e)
{
    if (!rt_active || !rt_shadow_any((uintptr_t)s, e))
        return NULL;
    rt_expr_t *r = rt_const(64, e);
    for (size_t i = e; i-- > 0 && r;) {
        rt_expr_t *b = rt_shadow_get((uintptr_t)(s + i));
        if (b)
            r = rt_ite(rt_binop(GBT_OP_EQ, b, rt_const(8, 0)), rt_const(64, i), r);
        else if (s[i] == 0)
            r = rt_const(64, i);
    }
    return r;
}

RT_EXPORT size_t __gb_model_strlen(const char *s)
{
    size_t k = strlen(s);
    __gb_ret = length_expr(s, rt_model_str_extent(s, RT_MODEL_MAX_BYTES));
    return k;
}

RT_EXPORT size_t __gb_model_strnlen(const char *s, size_t n)
{
    size_t k = strnlen(s, n);
    __gb_ret = length_expr(s, rt_model_str_extent(s, n));
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

/* strncpy copies the string's bytes and pads with zeros up to n: the pad
 * is concrete. */
RT_EXPORT char *__gb_model_strncpy(char *d, const char *s, size_t n)
{
    size_t k = strnlen(s, n);
    rt_shadow_copy((uintptr_t)d, (uintptr_t)s, k);
    rt_shadow_clear((uintptr_t)d + k, n - k);
    __gb_ret = NULL;
    return strncpy(d, s, n);
}

RT_EXPORT char *__gb_model_strcat(char *d, const char *s)
{
    size_t ld = strlen(d), n = strlen(s) + 1;
    rt_shadow_copy((uintptr_t)d + ld, (uintptr_t)s, n);
    __gb_ret = NULL;
    memcpy(d + ld, s, n);
    return d;
}

/* _FORTIFY_SOURCE's checked copies (glibc's __*_chk): within the
 * destination's size they are the plain function, modelled; past it the
 * real one runs, which reports the overflow and aborts. */
extern void *__memcpy_chk(void *d, const void *s, size_t n, size_t dn);
extern void *__memmove_chk(void *d, const void *s, size_t n, size_t dn);
extern void *__memset_chk(void *d, int c, size_t n, size_t dn);
extern char *__strcpy_chk(char *d, const char *s, size_t dn);
extern char *__strncpy_chk(char *d, const char *s, size_t n, size_t dn);
extern char *__strcat_chk(char *d, const char *s, size_t dn);

RT_EXPORT void *__gb_model___memcpy_chk(void *d, const void *s, size_t n, size_t dn)
{
    return n <= dn ? __gb_model_memcpy(d, s, n) : __memcpy_chk(d, s, n, dn);
}

RT_EXPORT void *__gb_model___memmove_chk(void *d, const void *s, size_t n, size_t dn)
{
    return n <= dn ? __gb_model_memmove(d, s, n) : __memmove_chk(d, s, n, dn);
}

RT_EXPORT void *__gb_model___memset_chk(void *d, int c, size_t n, size_t dn)
{
    return n <= dn ? __gb_model_memset(d, c, n) : __memset_chk(d, c, n, dn);
}

RT_EXPORT char *__gb_model___strcpy_chk(char *d, const char *s, size_t dn)
{
    return strlen(s) < dn ? __gb_model_strcpy(d, s) : __strcpy_chk(d, s, dn);
}

RT_EXPORT char *__gb_model___strncpy_chk(char *d, const char *s, size_t n, size_t dn)
{
    return n <= dn ? __gb_model_strncpy(d, s, n) : __strncpy_chk(d, s, n, dn);
}

RT_EXPORT char *__gb_model___strcat_chk(char *d, const char *s, size_t dn)
{
    return strlen(d) + strlen(s) < dn ? __gb_model_strcat(d, s) : __strcat_chk(d, s, dn);
}

/* The new buffer may reuse freed memory with stale shadows: every byte
 * gets the source's shadow or is cleared. */
RT_EXPORT char *__gb_model_strdup(const char *s)
{
    char *r = strdup(s);
    if (r)
        rt_shadow_copy((uintptr_t)r, (uintptr_t)s, strlen(s) + 1);
    __gb_ret = NULL;
    return r;
}

RT_EXPORT char *__gb_model_strndup(const char *s, size_t n)
{
    char *r = strndup(s, n);
    if (r) {
        size_t k = strlen(r);
        rt_shadow_copy((uintptr_t)r, (uintptr_t)s, k);
        rt_shadow_clear((uintptr_t)r + k, 1); /* the NUL strndup adds */
    }
    __gb_ret = NULL;
    return r;
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
    __gb_ret = abs_expr(rt_model_param((const void *)__gb_model_abs, 0));
    __gb_callee = NULL;
    return x < 0 ? -x : x;
}

RT_EXPORT long __gb_model_labs(long x)
{
    __gb_ret = abs_expr(rt_model_param((const void *)__gb_model_labs, 0));
    __gb_callee = NULL;
    return x < 0 ? -x : x;
}

RT_EXPORT long long __gb_model_llabs(long long x)
{
    __gb_ret = abs_expr(rt_model_param((const void *)__gb_model_llabs, 0));
    __gb_callee = NULL;
    return x < 0 ? -x : x;
}
