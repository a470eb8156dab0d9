/* SPDX-License-Identifier: Apache-2.0 */
/* libc number models: strtol, strtoul, strtoll, strtoull, atoi, atol (the
 * C locale's syntax: spaces, sign, 0x/0 prefixes, digits of the base), the
 * integers scanf reads (rt_num_scanned) and htons/ntohs/htonl/ntohl. A
 * parse is re-done here to find where each part of the number is; every
 * class test that decided where it ends becomes a BRANCH entry, and the
 * value is the expression of the digits consumed. */
#include <arpa/inet.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "io_int.h"
#include "rt_int.h"

/* Roles of the decisions a parse records (part of their site ids). */
enum { ROLE_SPACE = 1, ROLE_MINUS, ROLE_PLUS, ROLE_ZERO, ROLE_X, ROLE_DIGIT };

/* Where the parts of one number are, as the real strto* saw them. */
typedef struct num_parse {
    const uint8_t *s;
    int base;       /* as passed (0 = from the prefix) */
    int eff;        /* the base the digits were read in */
    size_t spaces;  /* leading white space bytes */
    size_t sign;    /* 1 if a sign byte follows them */
    int neg;        /* that sign was '-' */
    size_t zero_at; /* position of the prefix test (after the sign) */
    int zero;       /* base 0 or 16 and s[zero_at] == '0' */
    int x;          /* and s[zero_at + 1] is x or X: a hex prefix */
    size_t digits;  /* first digit */
    size_t ndig;    /* digits consumed */
    size_t lim;     /* bytes the parse may look at: the source's, or scanf's width */
} num_parse_t;

RT_HIDDEN int rt_num_is_space(uint8_t c)
{
    return c == ' ' || (uint8_t)(c - 9) < 5;
}

/* The value of c as a digit, or 99 for a non-digit. */
static int digit_of(uint8_t c)
{
    if ((uint8_t)(c - '0') < 10)
        return c - '0';
    if ((uint8_t)((c | 0x20) - 'a') < 26)
        return (c | 0x20) - 'a' + 10;
    return 99;
}

/* Walks s[0, avail) as glibc's strtol does in the C locale; a scanf field
 * `width` (0 = none) counts the bytes after the leading white space. */
static void parse(num_parse_t *p, const uint8_t *s, int base, size_t avail, size_t width)
{
    memset(p, 0, sizeof *p);
    p->s = s;
    p->base = p->eff = base;
    size_t i = 0;
    while (i < avail && rt_num_is_space(s[i]))
        i++;
    p->spaces = i;
    p->lim = width && width < avail - i ? i + width : avail;
    if (i < p->lim && (s[i] == '-' || s[i] == '+')) {
        p->sign = 1;
        p->neg = s[i++] == '-';
    }
    p->zero_at = i;
    if ((base == 0 || base == 16) && i < p->lim && s[i] == '0') {
        p->zero = 1;
        if (i + 1 < p->lim && (s[i + 1] | 0x20) == 'x') {
            p->x = 1;
            p->eff = 16;
            i += 2;
        } else if (base == 0) {
            p->eff = 8;
        }
    } else if (base == 0) {
        p->eff = 10;
    }
    p->digits = i;
    while (i < p->lim && digit_of(s[i]) < p->eff)
        i++;
    p->ndig = i - p->digits;
}

/* Where strto* leaves *endptr for this parse. */
static size_t parse_end(const num_parse_t *p)
{
    if (p->ndig)
        return p->digits + p->ndig;
    return p->x ? p->zero_at + 1 : 0; /* "0x" and no hex digit: the 0 alone */
}

/* The most digits in base b that cannot exceed `limit`. */
static size_t safe_digits(int b, uint64_t limit)
{
    size_t n = 0;
    for (uint64_t top = 1; top <= limit / (uint64_t)b; top *= (uint64_t)b)
        n++;
    return n;
}

/* The value of the digits, two's complement when negated (no overflow:
 * callers check the digit count). */
static uint64_t parse_value(const num_parse_t *p)
{
    uint64_t v = 0;
    for (size_t i = 0; i < p->ndig; i++)
        v = v * (uint64_t)p->eff + (uint64_t)digit_of(p->s[p->digits + i]);
    return p->neg ? 0 - v : v;
}

/* c is a digit in base b (C locale). */
RT_HIDDEN rt_expr_t *rt_num_digit_cond(rt_expr_t *c, int b)
{
    rt_expr_t *dec = rt_binop(GBT_OP_ULT, rt_binop(GBT_OP_SUB, c, rt_const(8, '0')),
                              rt_const(8, (uint64_t)(b < 10 ? b : 10)));
    if (b <= 10)
        return dec;
    rt_expr_t *lower = rt_binop(GBT_OP_OR, c, rt_const(8, 0x20));
    rt_expr_t *alpha = rt_binop(GBT_OP_ULT, rt_binop(GBT_OP_SUB, lower, rt_const(8, 'a')),
                                rt_const(8, (uint64_t)(b - 10)));
    return rt_binop(GBT_OP_OR, dec, alpha);
}

/* The digit's value as 64 bits, assuming it is a digit in base b. */
static rt_expr_t *digit_value(rt_expr_t *c, int b)
{
    rt_expr_t *dec = rt_binop(GBT_OP_SUB, c, rt_const(8, '0'));
    if (b > 10) {
        rt_expr_t *isdec = rt_binop(GBT_OP_ULT, dec, rt_const(8, 10));
        rt_expr_t *lower = rt_binop(GBT_OP_OR, c, rt_const(8, 0x20));
        dec = rt_ite(isdec, dec, rt_binop(GBT_OP_SUB, lower, rt_const(8, 'a' - 10)));
    }
    return rt_resize(dec, 64);
}

RT_HIDDEN rt_expr_t *rt_num_space_cond(rt_expr_t *c)
{
    rt_expr_t *sp = rt_binop(GBT_OP_EQ, c, rt_const(8, ' '));
    rt_expr_t *ctl = rt_binop(GBT_OP_ULT, rt_binop(GBT_OP_SUB, c, rt_const(8, 9)), rt_const(8, 5));
    return rt_binop(GBT_OP_OR, sp, ctl);
}

/* The BRANCH entries of a parse, in the order strto* tested the bytes. */
typedef rt_num_src_t decider_t;

static int from_input(const decider_t *d)
{
    return d->in_off >= 0;
}

static void decide(const decider_t *d, unsigned role, size_t pos, rt_expr_t *cond, int truth)
{
    if (!from_input(d) && !rt_shadow_get((uintptr_t)(d->s + pos)))
        return; /* a concrete byte: nothing to record */
    uint32_t site = rt_model_site(d->model, d->ret, role, d->site_off + pos);
    if (d->per_byte)
        rt_model_decide_byte(site, d->s + pos, cond, truth);
    else
        rt_model_decide(site, cond, truth);
}

/* The byte at pos: in memory, its shadow or constant; in the input file,
 * INPUT (NULL past its end, which makes the conditions on it concrete). */
static rt_expr_t *at(const decider_t *d, size_t pos)
{
    return from_input(d) ? io_byte(d->in_off + (int64_t)pos) : rt_model_byte(d->s + pos);
}

static void decide_prefix(const decider_t *d, const num_parse_t *p)
{
    for (size_t i = 0; i <= p->spaces; i++)
        decide(d, ROLE_SPACE, i, rt_num_space_cond(at(d, i)), i < p->spaces);
    size_t q = p->spaces;
    rt_expr_t *c = at(d, q);
    decide(d, ROLE_MINUS, q, rt_binop(GBT_OP_EQ, c, rt_const(8, '-')), p->sign && p->neg);
    if (!(p->sign && p->neg))
        decide(d, ROLE_PLUS, q, rt_binop(GBT_OP_EQ, c, rt_const(8, '+')), p->sign != 0);
    if (p->base != 0 && p->base != 16)
        return;
    q = p->zero_at;
    if (p->base == 16) {
        /* In base 16 a '0' that starts no "0x" is just a digit: one
         * decision, "a 0x prefix here", lets another input put any digit
         * first (a leading '0' decision would pin it: 0x08000000 could
         * never become 0x1fffc000). */
        if (q + 1 < p->lim) {
            rt_expr_t *x = rt_binop(GBT_OP_OR, at(d, q + 1), rt_const(8, 0x20));
            rt_expr_t *pre = rt_binop(GBT_OP_AND, rt_binop(GBT_OP_EQ, at(d, q), rt_const(8, '0')),
                                      rt_binop(GBT_OP_EQ, x, rt_const(8, 'x')));
            decide(d, ROLE_X, q + 1, pre, p->x);
        }
        return;
    }
    if (q < p->lim)
        decide(d, ROLE_ZERO, q, rt_binop(GBT_OP_EQ, at(d, q), rt_const(8, '0')), p->zero);
    if (p->zero && q + 1 < p->lim) {
        rt_expr_t *x = rt_binop(GBT_OP_OR, at(d, q + 1), rt_const(8, 0x20));
        decide(d, ROLE_X, q + 1, rt_binop(GBT_OP_EQ, x, rt_const(8, 'x')), p->x);
    }
}

/* Records the decisions and returns the value's expression (64 bits), or
 * NULL when nothing symbolic was consumed or the digits could overflow. */
static rt_expr_t *num_expr(const decider_t *d, const num_parse_t *p, uint64_t limit)
{
    decide_prefix(d, p);
    rt_expr_t *v = rt_const(64, 0);
    for (size_t i = 0; i <= p->ndig && p->digits + i < p->lim; i++) {
        size_t pos = p->digits + i;
        rt_expr_t *c = at(d, pos);
        decide(d, ROLE_DIGIT, pos, rt_num_digit_cond(c, p->eff), i < p->ndig);
        if (i < p->ndig)
            v = rt_binop(GBT_OP_ADD, rt_binop(GBT_OP_MUL, v, rt_const(64, (uint64_t)p->eff)),
                         digit_value(c, p->eff));
    }
    if (p->ndig > safe_digits(p->eff, limit))
        return NULL; /* may saturate: a later run with fewer digits will tell */
    /* The sign's own decision is in the trace. */
    if (p->neg)
        v = rt_unop(GBT_OP_NEG, 64, v, 0);
    return v && v->op != GBT_OP_CONST ? v : NULL;
}

/* Shared by the strto* models: `r` is the real result, `end` where the real
 * function stopped. Returns the result's shadow (64 bits). */
static rt_expr_t *strto_model(const char *model, const void *ret, const char *s, int base,
                              uint64_t r, const char *end, uint64_t limit)
{
    if (!rt_active || base < 0 || base == 1 || base > 36)
        return NULL;
    num_parse_t p;
    parse(&p, (const uint8_t *)s, base, RT_MODEL_MAX_BYTES, 0);
    if (!rt_shadow_any((uintptr_t)s, p.digits + p.ndig + 1))
        return NULL; /* every byte the parse looked at is concrete */
    if (parse_end(&p) != (size_t)(end - s))
        return NULL; /* not the syntax modelled here (another locale?) */
    if (p.ndig <= safe_digits(p.eff, limit) && parse_value(&p) != r)
        return NULL;
    decider_t d = {.s = (const uint8_t *)s,
                   .in_off = -1,
                   .model = model,
                   .ret = ret,
                   .avail = RT_MODEL_MAX_BYTES};
    return num_expr(&d, &p, limit);
}

/* An integer scanf converted (glibc hands the characters to strtol or
 * strtoul): it used `used` bytes of the source, spaces included, and
 * stored `value` in `bits`. The value's expression (64 bits), or NULL when
 * the parse here disagrees with libc or nothing symbolic was read. */
RT_HIDDEN rt_expr_t *rt_num_scanned(const rt_num_src_t *src, int base, int is_signed, size_t width,
                                    size_t used, uint64_t value, unsigned bits)
{
    num_parse_t p;
    if (!rt_active || src->avail < used)
        return NULL;
    parse(&p, src->s, base, src->avail, width);
    uint64_t limit = is_signed ? (uint64_t)LONG_MAX : (uint64_t)ULONG_MAX;
    size_t seen = p.digits + p.ndig + (p.digits + p.ndig < p.lim);
    if (!from_input(src) && !rt_shadow_any((uintptr_t)src->s, seen))
        return NULL;
    if (parse_end(&p) != used ||
        (p.ndig <= safe_digits(p.eff, limit) && ((parse_value(&p) ^ value) & rt_mask(bits)) != 0))
        return NULL; /* a syntax not modelled, or bytes pushed back with ungetc */
    return num_expr(src, &p, limit);
}

/* An integer conversion that failed: if the parse here fails too, its
 * decisions (spaces, sign, no digit), so the search can ask for a number. */
RT_HIDDEN void rt_num_scan_failed(const rt_num_src_t *src, int base, size_t width)
{
    num_parse_t p;
    if (!rt_active)
        return;
    parse(&p, src->s, base, src->avail, width);
    if (parse_end(&p) == 0)
        num_expr(src, &p, (uint64_t)LONG_MAX);
}

/* *endptr was written by libc: its old shadow is stale. */
static void clear_end(char **endptr)
{
    if (endptr)
        rt_shadow_clear((uintptr_t)endptr, sizeof *endptr);
}

/* The four strto* models differ only in type, libc function and limit. */
#define STRTO_MODEL(type, fn, limit)                                                         \
    RT_EXPORT type __gb_model_##fn(const char *s, char **endptr, int base)                   \
    {                                                                                        \
        char *end;                                                                           \
        type r = fn(s, &end, base);                                                          \
        __gb_ret = strto_model(#fn, __builtin_return_address(0), s, base, (uint64_t)r, end, \
                               (uint64_t)(limit));                                           \
        if (endptr)                                                                          \
            *endptr = end;                                                                   \
        clear_end(endptr);                                                                   \
        return r;                                                                            \
    }

STRTO_MODEL(long, strtol, LONG_MAX)
STRTO_MODEL(long long, strtoll, LLONG_MAX)
STRTO_MODEL(unsigned long, strtoul, ULONG_MAX)
STRTO_MODEL(unsigned long long, strtoull, ULLONG_MAX)

/* atoi and atol are strtol(s, NULL, 10) in glibc (and inline as such at
 * -O2); atoi's result is its low 32 bits. */
RT_EXPORT int __gb_model_atoi(const char *s)
{
    char *end;
    long r = strtol(s, &end, 10);
    __gb_ret = rt_resize(strto_model("atoi", __builtin_return_address(0), s, 10, (uint64_t)r, end,
                                     (uint64_t)LONG_MAX),
                         32);
    return (int)r;
}

RT_EXPORT long __gb_model_atol(const char *s)
{
    char *end;
    long r = strtol(s, &end, 10);
    __gb_ret = strto_model("atol", __builtin_return_address(0), s, 10, (uint64_t)r, end,
                           (uint64_t)LONG_MAX);
    return r;
}

/* Byte order: calls at -O0 (at -O2 they are llvm.bswap, see intrin.c). */
static rt_expr_t *bswap_expr(rt_expr_t *x, unsigned width)
{
    x = rt_resize(x, width);
    if (!x)
        return NULL;
    rt_expr_t *e = rt_extract(x, 0, 8);
    for (unsigned lo = 8; lo < width; lo += 8)
        e = rt_concat(e, rt_extract(x, lo, 8));
    return e;
}

RT_EXPORT uint16_t __gb_model_htons(uint16_t x)
{
    __gb_ret = bswap_expr(rt_model_param((const void *)__gb_model_htons, 0), 16);
    return htons(x);
}

RT_EXPORT uint16_t __gb_model_ntohs(uint16_t x)
{
    __gb_ret = bswap_expr(rt_model_param((const void *)__gb_model_ntohs, 0), 16);
    return ntohs(x);
}

RT_EXPORT uint32_t __gb_model_htonl(uint32_t x)
{
    __gb_ret = bswap_expr(rt_model_param((const void *)__gb_model_htonl, 0), 32);
    return htonl(x);
}

RT_EXPORT uint32_t __gb_model_ntohl(uint32_t x)
{
    __gb_ret = bswap_expr(rt_model_param((const void *)__gb_model_ntohl, 0), 32);
    return ntohl(x);
}
