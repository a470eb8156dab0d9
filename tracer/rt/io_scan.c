/* SPDX-License-Identifier: Apache-2.0 */
/* fscanf / scanf on the input file. The format runs one directive at a
 * time through the real __isoc99_fscanf (with a %n appended, to learn what
 * each consumed), which is the same sequence of reads the whole call
 * makes; results are combined by scanf's own rule (EOF only when input
 * ended before any assignment). %d %u %o %x %X build their value over the
 * digit bytes and record the conditions libc decided on them (each is a
 * digit, the next is not); %s %c %[ copy INPUT shadows; anything else is
 * stored concretely. */
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "io_int.h"

extern __thread void *__gb_ret;
extern __thread void *__gb_callee;

/* The two flavours in glibc: ISO C99 (what C99+ headers call) and the old
 * GNU one, where %as %aS %a[ allocate (what gnu89 headers call). */
extern int gb_real_scanf99(FILE *f, const char *fmt, ...) __asm__("__isoc99_fscanf");
extern int gb_real_vscanf99(FILE *f, const char *fmt, va_list ap) __asm__("__isoc99_vfscanf");
extern int gb_real_vscanf_gnu(FILE *f, const char *fmt, va_list ap) __asm__("vfscanf");

RT_EXPORT int __gb_model___isoc99_fscanf(FILE *f, const char *fmt, ...);
RT_EXPORT int __gb_model_fscanf(FILE *f, const char *fmt, ...);
RT_EXPORT int __gb_model___isoc99_scanf(const char *fmt, ...);
RT_EXPORT int __gb_model_scanf(const char *fmt, ...);

#define SITE_SIGN 0x9b120000u
#define SITE_DIGIT 0x9b130000u /* + base << 8 + digit index (capped) */
#define SITE_DIGIT_END 0x9b140000u
#define SITE_HEX_PREFIX 0x9b150000u
#define SITE_STR_BYTE 0x9b160000u
#define SITE_STR_END 0x9b170000u

/* Longest digit strings whose value is built symbolically: they cannot
 * overflow 64 bits, so libc's strtol and this agree exactly. */
#define MAX_DEC_DIGITS 18
#define MAX_HEX_DIGITS 15
#define MAX_OCT_DIGITS 20

/* One conversion specification, fmt[start, end). */
typedef struct spec {
    size_t start, end;
    int suppress;   /* '*' */
    int alloc;      /* 'm': the argument is a char ** that libc fills */
    unsigned width; /* 0 = none */
    char len;       /* 'H' hh, 'h', 'l', 'L' (ll L q j), 'z', 't', 0 = none */
    char conv;
} spec_t;

/* Parses the specification at fmt[i] == '%'. -1 for what the piecewise
 * run cannot do: positional arguments ("%1$d"), GNU %a allocation (when
 * `gnu`), a malformed spec. */
static int parse_spec(const char *fmt, size_t i, int gnu, spec_t *s)
{
    memset(s, 0, sizeof *s);
    s->start = i++;
    if (fmt[i] == '*')
        s->suppress = 1, i++;
    size_t d = i;
    while (fmt[i] >= '0' && fmt[i] <= '9')
        s->width = s->width * 10 + (unsigned)(fmt[i++] - '0');
    if (fmt[i] == '$' || s->width > 100000 || (i > d && s->width == 0))
        return -1;
    if (fmt[i] == 'm')
        s->alloc = 1, i++;
    if (fmt[i] == 'h' || fmt[i] == 'l') {
        s->len = fmt[i++];
        if (fmt[i] == s->len)
            s->len = s->len == 'h' ? 'H' : 'L', i++;
    } else if (fmt[i] == 'L' || fmt[i] == 'q' || fmt[i] == 'j') {
        s->len = 'L', i++;
    } else if (fmt[i] == 'z' || fmt[i] == 't') {
        s->len = fmt[i++];
    }
    s->conv = fmt[i];
    if (!s->conv || (gnu && s->conv == 'a'))
        return -1;
    if (s->conv == '[') { /* a set: "]" right after "[" or "[^" is a member */
        i++;
        if (fmt[i] == '^')
            i++;
        if (fmt[i] == ']')
            i++;
        while (fmt[i] && fmt[i] != ']')
            i++;
        if (!fmt[i])
            return -1;
    }
    s->end = i + 1;
    return 0;
}

/* Runs fmt[a, b) followed by "%n" (when n) on the stream. */
static int run_piece(FILE *f, const char *fmt, size_t a, size_t b, void *arg, int *n)
{
    char small[256], *buf = small;
    size_t len = b - a;
    if (len + 3 > sizeof small && !(buf = malloc(len + 3)))
        return -2;
    memcpy(buf, fmt + a, len);
    strcpy(buf + len, n ? "%n" : "");
    int rc;
    if (arg)
        rc = n ? gb_real_scanf99(f, buf, arg, n) : gb_real_scanf99(f, buf, arg);
    else
        rc = n ? gb_real_scanf99(f, buf, n) : gb_real_scanf99(f, buf);
    if (buf != small)
        free(buf);
    return rc;
}

static size_t int_size(char len)
{
    switch (len) {
    case 'H': return 1;
    case 'h': return 2;
    case 0: return sizeof(int);
    default: return 8; /* l, ll, j, z, t on LP64 */
    }
}

/* Bytes libc wrote for a conversion (for clearing their shadows). */
static size_t dest_size(const spec_t *s, const void *dest)
{
    switch (s->conv) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': return int_size(s->len);
    case 'p': return sizeof(void *);
    case 'c': return (s->width ? s->width : 1) * (s->len == 'l' ? sizeof(int) : 1);
    case 's': case '[':
        return s->len == 'l' ? 0 : strlen(dest) + 1; /* wide strings: left alone */
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
        return s->len == 'L' ? 16 : s->len == 'l' ? 8 : 4;
    default: return 0;
    }
}

static rt_expr_t *in_range(rt_expr_t *b, unsigned lo, unsigned n) /* b - lo <u n */
{
    return rt_binop(GBT_OP_ULT, rt_binop(GBT_OP_SUB, b, rt_const(8, lo)), rt_const(8, n));
}

static rt_expr_t *is_digit(rt_expr_t *b, unsigned base)
{
    if (base != 16)
        return in_range(b, '0', base);
    return rt_binop(GBT_OP_OR, in_range(b, '0', 10),
                    in_range(rt_binop(GBT_OP_OR, b, rt_const(8, 0x20)), 'a', 6));
}

static rt_expr_t *digit_value(rt_expr_t *b, unsigned base)
{
    rt_expr_t *dec = rt_binop(GBT_OP_SUB, b, rt_const(8, '0'));
    if (base == 16) {
        rt_expr_t *hi = rt_binop(GBT_OP_SUB, rt_binop(GBT_OP_OR, b, rt_const(8, 0x20)),
                                 rt_const(8, 'a' - 10));
        dec = rt_ite(in_range(b, '0', 10), dec, hi);
    }
    return rt_unop(GBT_OP_ZEXT, 64, dec, 0);
}

static int is_space(uint8_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static rt_expr_t *space_expr(rt_expr_t *b)
{
    return rt_binop(GBT_OP_OR, rt_binop(GBT_OP_EQ, b, rt_const(8, ' ')), in_range(b, '\t', 5));
}

static int digit_ok(uint8_t c, unsigned base)
{
    if (base != 16)
        return c >= '0' && c < '0' + base;
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* The value of the integer libc read from input bytes [p0, p1), with the
 * conditions libc decided on them; NULL (and nothing recorded) if it stays
 * concrete. */
static rt_expr_t *number(const spec_t *s, const uint8_t *d, size_t p0, size_t p1, size_t len)
{
    unsigned base = s->conv == 'o' ? 8 : (s->conv == 'x' || s->conv == 'X') ? 16 : 10;
    size_t q = p0, t;
    while (q < p1 && is_space(d[q]))
        q++;
    t = q;
    int sign = t < p1 && (d[t] == '-' || d[t] == '+');
    t += (size_t)sign;
    int prefix = base == 16 && p1 - t > 2 && d[t] == '0' && (d[t + 1] | 0x20) == 'x';
    t += prefix ? 2 : 0;
    size_t nd = p1 - t, max = base == 10 ? MAX_DEC_DIGITS : base == 16 ? MAX_HEX_DIGITS
                                                                       : MAX_OCT_DIGITS;
    if (nd == 0 || nd > max)
        return NULL;
    for (size_t k = t; k < p1; k++)
        if (!digit_ok(d[k], base))
            return NULL; /* not what it seems (pushed-back bytes?): stay concrete */
    if (sign)
        io_branch(rt_binop(GBT_OP_EQ, io_byte((int64_t)q), rt_const(8, d[q])), 1, SITE_SIGN);
    if (prefix) {
        io_branch(rt_binop(GBT_OP_EQ, io_byte((int64_t)t - 2), rt_const(8, '0')), 1,
                  SITE_HEX_PREFIX);
        rt_expr_t *x = rt_binop(GBT_OP_OR, io_byte((int64_t)t - 1), rt_const(8, 0x20));
        io_branch(rt_binop(GBT_OP_EQ, x, rt_const(8, 'x')), 1, SITE_HEX_PREFIX + 1);
    }
    rt_expr_t *v = rt_const(64, 0);
    for (size_t k = 0; k < nd && v; k++) {
        rt_expr_t *b = io_byte((int64_t)(t + k));
        io_branch(is_digit(b, base), 1, SITE_DIGIT + (base << 8) + (k < 255 ? k : 255));
        v = rt_binop(GBT_OP_ADD, rt_binop(GBT_OP_MUL, v, rt_const(64, base)), digit_value(b, base));
    }
    if (p1 < len && !digit_ok(d[p1], base) && !(s->width && p1 - q == s->width))
        io_branch(is_digit(io_byte((int64_t)p1), base), 0, SITE_DIGIT_END + base);
    return sign && d[q] == '-' ? rt_unop(GBT_OP_NEG, 64, v, 0) : v;
}

/* Shadows for what one conversion stored at `arg`, which libc read from
 * input offsets [p0, p1) (p0 < 0: not from the input). */
static void shadow_conv(const spec_t *s, void *arg, int64_t p0, int64_t p1)
{
    size_t len;
    const uint8_t *d = io_input_bytes(&len);
    void *dest = s->alloc ? *(void **)arg : arg;
    size_t n = dest ? dest_size(s, dest) : 0;
    if (!rt_active || !n)
        return;
    rt_shadow_clear((uintptr_t)dest, n);
    if (p0 < 0 || p1 < p0 || (uint64_t)p1 > len || s->len == 'l')
        return;
    switch (s->conv) {
    case 'd': case 'u': case 'o': case 'x': case 'X': {
        rt_expr_t *v = number(s, d, (size_t)p0, (size_t)p1, len);
        if (v)
            rt_shadow_store((uintptr_t)dest, n, rt_resize(v, (unsigned)n * 8));
        return;
    }
    case 's': case '[': case 'c': {
        size_t copied = s->conv == 'c' ? n : n - 1;
        int64_t from = p1 - (int64_t)copied;
        if (copied > (size_t)(p1 - p0) || memcmp(dest, d + from, copied) != 0)
            return; /* not the file's bytes (pushed back by ungetc?): concrete */
        io_mark(dest, copied, from);
        for (size_t k = 0; s->conv == 's' && k < copied; k++)
            io_branch(space_expr(io_byte(from + (int64_t)k)), 0, SITE_STR_BYTE);
        if (s->conv == 's' && (size_t)p1 < len && is_space(d[p1]) &&
            !(s->width && copied == s->width))
            io_branch(space_expr(io_byte(p1)), 1, SITE_STR_END);
        return;
    }
    default: return;
    }
}

/* A user %n: the count so far, stored at the width its modifier says. */
static void store_count(const spec_t *s, void *arg, int used)
{
    switch (s->len) {
    case 'H': *(signed char *)arg = (signed char)used; break;
    case 'h': *(short *)arg = (short)used; break;
    case 0: *(int *)arg = used; break;
    default: *(long long *)arg = used; break;
    }
    if (rt_active)
        rt_shadow_clear((uintptr_t)arg, int_size(s->len));
}

static int scan_fail(int done) { return done ? done : EOF; }

/* The format directive by directive; see the file comment. *bad = 1 when
 * the format needs the whole-call fallback (checked before any read). */
static int scan(FILE *f, const char *fmt, va_list ap, int gnu, int *bad)
{
    spec_t s;
    for (size_t i = 0; fmt[i];) {
        if (fmt[i] != '%' || fmt[i + 1] == '%')
            i += fmt[i] == '%' ? 2 : 1;
        else if (parse_spec(fmt, i, gnu, &s) != 0)
            return *bad = 1, 0;
        else
            i = s.end;
    }
    int done = 0, used = 0;
    size_t text = 0, i = 0;
    for (;;) {
        while (fmt[i] && !(fmt[i] == '%' && fmt[i + 1] != '%'))
            i += fmt[i] == '%' ? 2 : 1;
        if (!fmt[i]) { /* trailing text: matched without a %n, as the whole call would */
            int rc = i > text ? run_piece(f, fmt, text, i, NULL, NULL) : 0;
            return rc == EOF ? scan_fail(done) : done;
        }
        parse_spec(fmt, i, gnu, &s);
        int n = -1, rc;
        if (i > text) {
            rc = run_piece(f, fmt, text, i, NULL, &n);
            if (rc == EOF || n < 0)
                return rc == EOF ? scan_fail(done) : done;
            used += n;
        }
        text = i = s.end;
        if (s.conv == 'n') {
            if (!s.suppress)
                store_count(&s, va_arg(ap, void *), used);
            continue;
        }
        void *arg = s.suppress ? NULL : va_arg(ap, void *);
        int64_t p0 = io_stream_pos(f);
        n = -1;
        rc = run_piece(f, fmt, s.start, s.end, arg, &n);
        if (rc == EOF || n < 0)
            return rc == EOF ? scan_fail(done) : done + (rc > 0 ? rc : 0);
        done += rc;
        used += n;
        if (arg)
            shadow_conv(&s, arg, p0, p0 >= 0 ? p0 + n : -1);
    }
}

static int model_vfscanf(FILE *f, const char *fmt, va_list ap, int gnu)
{
    __gb_callee = NULL;
    int bad = 0, r = 0;
    va_list cp;
    va_copy(cp, ap);
    if (rt_active || io_stream_pos(f) >= 0)
        r = scan(f, fmt, cp, gnu, &bad);
    else
        bad = 1; /* not tracing this stream: one plain call */
    va_end(cp);
    if (bad) /* concrete results; destination shadows are not cleared */
        r = gnu ? gb_real_vscanf_gnu(f, fmt, ap) : gb_real_vscanf99(f, fmt, ap);
    __gb_ret = NULL;
    return r;
}

RT_EXPORT int __gb_model___isoc99_fscanf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = model_vfscanf(f, fmt, ap, 0);
    va_end(ap);
    return r;
}

RT_EXPORT int __gb_model_fscanf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = model_vfscanf(f, fmt, ap, 1);
    va_end(ap);
    return r;
}

RT_EXPORT int __gb_model___isoc99_scanf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = model_vfscanf(stdin, fmt, ap, 0);
    va_end(ap);
    return r;
}

RT_EXPORT int __gb_model_scanf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = model_vfscanf(stdin, fmt, ap, 1);
    va_end(ap);
    return r;
}
