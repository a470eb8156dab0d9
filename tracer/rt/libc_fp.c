/* SPDX-License-Identifier: Apache-2.0 */
/* libc floating-point parsing models: strtod, strtof, atof, for the plain
 * decimal form [spaces][sign]digits[.digits] with few enough digits that
 * the value is one correctly rounded division, N / 10^k (Clinger's fast
 * path): every class test that decided where the number ends becomes a
 * BRANCH entry, and the value is that division over the digits' Horner
 * expression. Other forms (exponents, hex, inf/nan, long digit strings, a
 * locale whose decimal point is not '.') leave the result concrete. */
#include <stdlib.h>
#include <string.h>

#include "rt_int.h"

/* Roles of the decisions (part of their site ids). */
enum { ROLE_SPACE = 1, ROLE_MINUS, ROLE_PLUS, ROLE_HEX, ROLE_INT, ROLE_DOT, ROLE_FRAC, ROLE_EXP };

/* Significant digits whose integer N stays exact and below the fast
 * path's bound: 10^15 < 2^53 for double, 10^7 < 2^24 for float; the
 * powers 10^k used (k <= 15, k <= 7) are exact in each format. */
#define DBL_FAST_DIGITS 15
#define FLT_FAST_DIGITS 7

/* 10^k for the fraction digits k the fast path takes (all exact). */
static const double pow10[DBL_FAST_DIGITS + 1] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                  1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/* Where the parts of one decimal number are, as strtod would read them. */
typedef struct dec_parse {
    const uint8_t *s;
    size_t spaces;    /* leading white space bytes */
    int sign, neg;    /* a sign byte follows them; it is '-' */
    size_t idig;      /* first integer digit (after the sign) */
    size_t nint;      /* integer digits */
    int dot;          /* a '.' follows them */
    size_t nfrac;     /* fraction digits after the '.' */
    size_t end;       /* where the number ends (0: no number) */
} dec_parse_t;

static int is_digit(uint8_t c) { return (uint8_t)(c - '0') < 10; }

static void parse(dec_parse_t *p, const uint8_t *s)
{
    memset(p, 0, sizeof *p);
    p->s = s;
    size_t i = 0;
    while (i < RT_MODEL_MAX_BYTES && rt_num_is_space(s[i]))
        i++;
    p->spaces = i;
    if (s[i] == '-' || s[i] == '+') {
        p->sign = 1;
        p->neg = s[i++] == '-';
    }
    p->idig = i;
    while (i < RT_MODEL_MAX_BYTES && is_digit(s[i]))
        i++;
    p->nint = i - p->idig;
    if (s[i] == '.') {
        p->dot = 1;
        size_t f = ++i;
        while (i < RT_MODEL_MAX_BYTES && is_digit(s[i]))
            i++;
        p->nfrac = i - f;
    }
    p->end = p->nint + p->nfrac ? i : 0;
}

/* The value of the parse in the fast path, as the host computes it. */
static double fast_value(const dec_parse_t *p, int is_float, uint64_t *n)
{
    *n = 0;
    for (size_t i = 0; i < p->nint + p->dot + p->nfrac; i++)
        if (i != p->nint)
            *n = *n * 10 + (uint64_t)(p->s[p->idig + i] - '0');
    size_t k = p->nfrac <= DBL_FAST_DIGITS ? p->nfrac : 0; /* else not used */
    double v = is_float ? (double)((float)*n / (float)pow10[k]) : (double)*n / pow10[k];
    return p->neg ? -v : v;
}

static void decide(const char *model, const void *ret, const uint8_t *s, unsigned role,
                   size_t pos, rt_expr_t *cond, int truth)
{
    if (rt_shadow_get((uintptr_t)(s + pos)))
        rt_model_decide_byte(rt_model_site(model, ret, role, pos), s + pos, cond, truth);
}

static rt_expr_t *eq(rt_expr_t *c, uint8_t v) { return rt_binop(GBT_OP_EQ, c, rt_const(8, v)); }

/* The BRANCH entries of white space, sign and "not a hex prefix". */
static void decide_prefix(const char *model, const void *ret, const dec_parse_t *p)
{
    const uint8_t *s = p->s;
    for (size_t i = 0; i <= p->spaces; i++)
        decide(model, ret, s, ROLE_SPACE, i, rt_num_space_cond(rt_model_byte(s + i)),
               i < p->spaces);
    rt_expr_t *c = rt_model_byte(s + p->spaces);
    decide(model, ret, s, ROLE_MINUS, p->spaces, eq(c, '-'), p->neg);
    if (!p->neg)
        decide(model, ret, s, ROLE_PLUS, p->spaces, eq(c, '+'), p->sign);
    rt_expr_t *x = rt_binop(GBT_OP_OR, rt_model_byte(s + p->idig + 1), rt_const(8, 0x20));
    rt_expr_t *hex = rt_binop(GBT_OP_AND, eq(rt_model_byte(s + p->idig), '0'), eq(x, 'x'));
    if (p->nint > 0) /* "0x" would be a hex float */
        decide(model, ret, s, ROLE_HEX, p->idig + 1, hex, 0);
}

/* The digit decisions of a run of n digits at `at` (and the byte that
 * ended it); the run's Horner expression folded into *acc (64 bits). */
static void decide_digits(const char *model, const void *ret, const uint8_t *s, unsigned role,
                          size_t at, size_t n, rt_expr_t **acc)
{
    for (size_t i = 0; i <= n; i++) {
        rt_expr_t *c = rt_model_byte(s + at + i);
        decide(model, ret, s, role, at + i, rt_num_digit_cond(c, 10), i < n);
        if (i < n)
            *acc = rt_binop(GBT_OP_ADD, rt_binop(GBT_OP_MUL, *acc, rt_const(64, 10)),
                            rt_resize(rt_binop(GBT_OP_SUB, c, rt_const(8, '0')), 64));
    }
}

/* (float)N / 10^k, negated after a '-': the fast path as FP nodes. */
static rt_expr_t *value_expr(const dec_parse_t *p, rt_expr_t *n, unsigned w)
{
    /* N has at most 15 (7) digits here, so its low 53 (24) bits are N: a
     * narrow N is what rt_fcmp's integer rewrite of compares looks for. */
    rt_expr_t *v = rt_unop(GBT_OP_UITOFP, w, rt_resize(n, w == 32 ? 24 : 53), 0);
    if (p->nfrac > 0) {
        double d = pow10[p->nfrac];
        float f = (float)d;
        uint64_t bits = 0;
        if (w == 32)
            memcpy(&bits, &f, sizeof f);
        else
            memcpy(&bits, &d, sizeof d);
        v = rt_binop(GBT_OP_FDIV, v, rt_const(w, bits));
    }
    if (p->neg) /* IEEE negation: the sign bit flips, -0 included */
        v = rt_binop(GBT_OP_XOR, v, rt_const(w, 1ull << (w - 1)));
    return v && v->op != GBT_OP_CONST ? v : NULL;
}

/* No number: the decisions that ended the parse before its first digit
 * (spaces, sign, "a digit here", "a '.' here" and after a '.', "a digit
 * there"), so the search can put a first digit where the parse stopped,
 * then a dot and more digits, one decision at a time (issue 37: a seed of
 * letters gave no entry at all, and the search ran dry with budget left).
 * Nothing is recorded when those bytes are all concrete. */
static void no_number(const char *model, const void *ret, const dec_parse_t *p)
{
    const uint8_t *s = p->s;
    size_t i = p->idig;
    decide_prefix(model, ret, p);
    decide(model, ret, s, ROLE_INT, i, rt_num_digit_cond(rt_model_byte(s + i), 10), 0);
    decide(model, ret, s, ROLE_DOT, i, eq(rt_model_byte(s + i), '.'), p->dot);
    if (p->dot)
        decide(model, ret, s, ROLE_FRAC, i + 1, rt_num_digit_cond(rt_model_byte(s + i + 1), 10),
               0);
}

/* Shared by the models: `r` is the real result (a float's widened
 * exactly), `end` where the real function stopped, w 32 or 64. */
static rt_expr_t *strtod_model(const char *model, const void *ret, const char *str, double r,
                               const char *end, unsigned w)
{
    dec_parse_t p;
    const uint8_t *s = (const uint8_t *)str;
    if (!rt_active)
        return NULL;
    parse(&p, s);
    size_t seen = (p.end ? p.end : p.idig) + 2;
    if (!rt_shadow_any((uintptr_t)s, seen))
        return NULL; /* concrete */
    if (p.end == 0 && end == str) {
        no_number(model, ret, &p);
        return NULL; /* its result, 0, stays concrete */
    }
    if (p.end == 0 || p.end != (size_t)(end - str))
        return NULL; /* a form not modelled here */
    if ((s[p.end] | 0x20) == 'e')
        return NULL; /* "1.5e" without digits: not worth a model */
    uint64_t n;
    size_t digits = p.nint + p.nfrac;
    int fast = digits <= (w == 32 ? FLT_FAST_DIGITS : DBL_FAST_DIGITS);
    double v = fast_value(&p, w == 32, &n);
    if (fast && memcmp(&v, &r, sizeof v) != 0)
        return NULL; /* not the value modelled: another locale? */
    decide_prefix(model, ret, &p);
    rt_expr_t *acc = rt_const(64, 0);
    decide_digits(model, ret, s, ROLE_INT, p.idig, p.nint, &acc);
    size_t after = p.idig + p.nint;
    decide(model, ret, s, ROLE_DOT, after, eq(rt_model_byte(s + after), '.'), p.dot);
    if (p.dot)
        decide_digits(model, ret, s, ROLE_FRAC, after + 1, p.nfrac, &acc);
    rt_expr_t *e = rt_binop(GBT_OP_OR, rt_model_byte(s + p.end), rt_const(8, 0x20));
    decide(model, ret, s, ROLE_EXP, p.end, eq(e, 'e'), 0);
    return fast ? value_expr(&p, acc, w) : NULL; /* more digits: the decisions only */
}

/* *endptr was written by libc: its old shadow is stale. */
static void clear_end(char **endptr)
{
    if (endptr)
        rt_shadow_clear((uintptr_t)endptr, sizeof *endptr);
}

RT_EXPORT double __gb_model_strtod(const char *s, char **endptr)
{
    char *end;
    double r = strtod(s, &end);
    __gb_ret = strtod_model("strtod", __builtin_return_address(0), s, r, end, 64);
    if (endptr)
        *endptr = end;
    clear_end(endptr);
    return r;
}

RT_EXPORT float __gb_model_strtof(const char *s, char **endptr)
{
    char *end;
    float r = strtof(s, &end);
    __gb_ret = strtod_model("strtof", __builtin_return_address(0), s, (double)r, end, 32);
    if (endptr)
        *endptr = end;
    clear_end(endptr);
    return r;
}

/* atof is strtod(s, NULL) in glibc (and inline as such at -O2). */
RT_EXPORT double __gb_model_atof(const char *s)
{
    char *end;
    double r = strtod(s, &end);
    __gb_ret = strtod_model("atof", __builtin_return_address(0), s, r, end, 64);
    return r;
}
