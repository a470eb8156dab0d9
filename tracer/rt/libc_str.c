/* SPDX-License-Identifier: Apache-2.0 */
/* libc search models: memchr, memrchr, strchr, strrchr, strstr, memmem,
 * strspn, strcspn, strtok and strtok_r.
 * The result shadow is an ite chain over the scanned positions, "match at
 * i ? s + i : (the rest)", ending in NULL, so a branch on the result can
 * ask for a match at another position or for none. Pointers themselves
 * are taken as concrete (the buffer's address, not its contents). */
#include <string.h>

#include "rt_int.h"

#define MAX_PAIRS (4 * RT_MODEL_MAX_BYTES) /* byte compares a substring search may build */

static rt_expr_t *ptr_at(const void *base, size_t i)
{
    return rt_const(64, (uint64_t)(uintptr_t)base + i);
}

/* s[i] == c, where c is the (possibly symbolic) searched byte. */
static rt_expr_t *byte_is(const uint8_t *s, size_t i, rt_expr_t *c)
{
    return rt_binop(GBT_OP_EQ, rt_model_byte(s + i), c);
}

/* The byte a chr-style function looks for: (unsigned char)c, symbolic when
 * the caller passed a shadow for argument 1. */
static rt_expr_t *wanted(const void *self, int c)
{
    rt_expr_t *sc = rt_model_param(self, 1);
    return sc ? rt_extract(sc, 0, 8) : rt_const(8, (uint8_t)c);
}

/* Worth building: tracing is on and something in s[0..n) or c is symbolic. */
static int symbolic_scan(const void *s, size_t n, const rt_expr_t *c)
{
    return rt_active && n <= RT_MODEL_MAX_BYTES &&
           (c->op != GBT_OP_CONST || rt_shadow_any((uintptr_t)s, n));
}

/* First match in s[0..n): built from the end, so position 0 is outermost. */
static rt_expr_t *first_match(const uint8_t *s, size_t n, rt_expr_t *c)
{
    rt_expr_t *e = rt_const(64, 0);
    for (size_t i = n; i-- > 0 && e;)
        e = rt_ite(byte_is(s, i, c), ptr_at(s, i), e);
    return e;
}

/* Last match in s[0..n): position n - 1 is outermost. With `stop_at_nul`
 * a match counts only when no byte before it is NUL (strrchr's string may
 * end earlier on another input). */
static rt_expr_t *last_match(const uint8_t *s, size_t n, rt_expr_t *c, int stop_at_nul)
{
    rt_expr_t *e = rt_const(64, 0), *live = rt_const(1, 1);
    for (size_t i = 0; i < n && e && live; i++) {
        rt_expr_t *m = byte_is(s, i, c);
        if (stop_at_nul) {
            m = rt_binop(GBT_OP_AND, m, live);
            live = rt_binop(GBT_OP_AND, live,
                            rt_binop(GBT_OP_NE, rt_model_byte(s + i), rt_const(8, 0)));
        }
        e = rt_ite(m, ptr_at(s, i), e);
    }
    return live ? e : NULL;
}

RT_EXPORT void *__gb_model_memchr(const void *s, int c, size_t n)
{
    void *r = memchr(s, c, n);
    rt_expr_t *want = wanted((const void *)__gb_model_memchr, c);
    __gb_ret = want && symbolic_scan(s, n, want) ? first_match(s, n, want) : NULL;
    return r;
}

RT_EXPORT void *__gb_model_memrchr(const void *s, int c, size_t n)
{
    void *r = memrchr(s, c, n);
    rt_expr_t *want = wanted((const void *)__gb_model_memrchr, c);
    __gb_ret = want && symbolic_scan(s, n, want) ? last_match(s, n, want, 0) : NULL;
    return r;
}

/* strchr: at each position a match wins, then a NUL ends the search. The
 * bytes are the string's extent (rt_model_str_extent), so a symbolic NUL
 * can also move. */
RT_EXPORT char *__gb_model_strchr(const char *s, int c)
{
    char *r = strchr(s, c);
    const uint8_t *u = (const uint8_t *)s;
    size_t ext = rt_model_str_extent(s, RT_MODEL_MAX_BYTES);
    rt_expr_t *want = wanted((const void *)__gb_model_strchr, c);
    __gb_ret = NULL;
    if (!want || !symbolic_scan(s, ext, want))
        return r;
    rt_expr_t *e = rt_const(64, 0);
    for (size_t i = ext; i-- > 0 && e;) {
        rt_expr_t *nul = rt_binop(GBT_OP_EQ, rt_model_byte(u + i), rt_const(8, 0));
        e = rt_ite(byte_is(u, i, want), ptr_at(s, i), rt_ite(nul, rt_const(64, 0), e));
    }
    __gb_ret = e;
    return r;
}

/* strrchr: the last match before the first NUL (included, for
 * strrchr(s, 0)), over the string's extent. */
RT_EXPORT char *__gb_model_strrchr(const char *s, int c)
{
    char *r = strrchr(s, c);
    size_t ext = rt_model_str_extent(s, RT_MODEL_MAX_BYTES);
    rt_expr_t *want = wanted((const void *)__gb_model_strrchr, c);
    __gb_ret =
        want && symbolic_scan(s, ext, want) ? last_match((const uint8_t *)s, ext, want, 1) : NULL;
    return r;
}

/* AND over j < nl of h[i + j] == n[j]; constant 0 on a concrete mismatch. */
static rt_expr_t *match_at(const uint8_t *h, size_t i, const uint8_t *nd, size_t nl)
{
    rt_expr_t *acc = rt_const(1, 1);
    for (size_t j = 0; j < nl && acc; j++) {
        rt_expr_t *a = rt_shadow_get((uintptr_t)(h + i + j)),
                  *b = rt_shadow_get((uintptr_t)(nd + j));
        if (!a && !b) {
            if (h[i + j] != nd[j])
                return rt_const(1, 0);
            continue;
        }
        acc = rt_binop(GBT_OP_AND, acc,
                       rt_binop(GBT_OP_EQ, rt_model_byte(h + i + j), rt_model_byte(nd + j)));
    }
    return acc;
}

/* The first position of needle nd (nl bytes) in h (hl bytes), as a chain;
 * NULL (concrete) when nothing is symbolic or the chain would be too big.
 * With `stop_at_nul` (strstr), a NUL in h before a match ends the search. */
static rt_expr_t *find_expr(const uint8_t *h, size_t hl, const uint8_t *nd, size_t nl,
                            int stop_at_nul)
{
    if (!rt_active || nl > hl || hl > RT_MODEL_MAX_BYTES || (hl - nl + 1) * nl > MAX_PAIRS ||
        (!rt_shadow_any((uintptr_t)h, hl) && !rt_shadow_any((uintptr_t)nd, nl)))
        return NULL;
    rt_expr_t *e = rt_const(64, 0);
    for (size_t i = hl - nl + 1; i-- > 0 && e;) {
        if (stop_at_nul)
            e = rt_ite(rt_binop(GBT_OP_EQ, rt_model_byte(h + i), rt_const(8, 0)), rt_const(64, 0),
                       e);
        e = rt_ite(match_at(h, i, nd, nl), ptr_at(h, i), e);
    }
    return e;
}

/* strstr: the haystack is its extent and ends at its first NUL; the
 * needle's length is this run's. */
RT_EXPORT char *__gb_model_strstr(const char *h, const char *nd)
{
    char *r = strstr(h, nd);
    __gb_ret = find_expr((const uint8_t *)h, rt_model_str_extent(h, RT_MODEL_MAX_BYTES),
                         (const uint8_t *)nd, strlen(nd), 1);
    return r;
}

RT_EXPORT void *__gb_model_memmem(const void *h, size_t hl, const void *nd, size_t nl)
{
    void *r = memmem(h, hl, nd, nl);
    __gb_ret = find_expr(h, hl, nd, nl, 0);
    return r;
}

/* b is one of the first n bytes of the set `set` (a string: its NUL is no
 * member). */
static rt_expr_t *in_set(rt_expr_t *b, const char *set, size_t n)
{
    rt_expr_t *acc = rt_const(1, 0);
    for (size_t k = 0; k < n && set[k] && acc; k++)
        acc = rt_binop(GBT_OP_OR, acc,
                       rt_binop(GBT_OP_EQ, b, rt_model_byte((const uint8_t *)set + k)));
    return acc;
}

/* The span of s whose bytes are (accept = 1) or are not (0) in `set`, and
 * not NUL: ite(stop(s[0]), 0, ite(stop(s[1]), 1, ... n)), over the
 * string's extent n. NULL when nothing in it is symbolic. */
static rt_expr_t *span_expr(const char *s, const char *set, int accept)
{
    size_t ext = rt_model_str_extent(s, RT_MODEL_MAX_BYTES);
    size_t sl = rt_model_str_extent(set, RT_MODEL_MAX_BYTES);
    if (!rt_active || ext > RT_MODEL_MAX_BYTES ||
        (!rt_shadow_any((uintptr_t)s, ext) && !rt_shadow_any((uintptr_t)set, sl)))
        return NULL;
    const uint8_t *u = (const uint8_t *)s;
    rt_expr_t *e = rt_const(64, ext);
    for (size_t i = ext; i-- > 0 && e;) {
        rt_expr_t *b = rt_model_byte(u + i), *m = in_set(b, set, sl);
        rt_expr_t *stop = accept ? rt_binop(GBT_OP_EQ, m, rt_const(1, 0))
                                 : rt_binop(GBT_OP_OR, m, rt_binop(GBT_OP_EQ, b, rt_const(8, 0)));
        e = rt_ite(stop, rt_const(64, i), e);
    }
    return e;
}

RT_EXPORT size_t __gb_model_strspn(const char *s, const char *accept)
{
    size_t r = strspn(s, accept);
    __gb_ret = span_expr(s, accept, 1);
    return r;
}

RT_EXPORT size_t __gb_model_strcspn(const char *s, const char *reject)
{
    size_t r = strcspn(s, reject);
    __gb_ret = span_expr(s, reject, 0);
    return r;
}

/* strtok and strtok_r write a NUL over the delimiter that ends a token:
 * that byte's shadow goes, the token's bytes keep theirs (a call the
 * tracer does not model would have cleared the whole buffer). The token's
 * address is concrete. */
static char *tokenized(char *tok)
{
    __gb_ret = NULL;
    if (tok)
        rt_shadow_clear((uintptr_t)(tok + strlen(tok)), 1);
    return tok;
}

RT_EXPORT char *__gb_model_strtok(char *s, const char *delim)
{
    return tokenized(strtok(s, delim));
}

RT_EXPORT char *__gb_model_strtok_r(char *s, const char *delim, char **save)
{
    return tokenized(strtok_r(s, delim, save));
}
