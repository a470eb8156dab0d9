/* SPDX-License-Identifier: Apache-2.0 */
/* The scanf family: fscanf / scanf / vfscanf / vscanf on the input file,
 * sscanf / vsscanf on a buffer. The format runs one directive at a time through the real
 * function (with a %n appended, to learn what each consumed), which is the
 * same sequence of reads the whole call makes; results are combined by
 * scanf's own rule (EOF only when input ended before any assignment).
 * Integers take libc_num.c's parse (the value over the digit bytes, each
 * class test a BRANCH); %s %c %[ take the shadows of the bytes consumed,
 * and %s and %[ record which bytes they took and which one ended them;
 * anything else is stored concretely. */
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "io_int.h"

/* The two flavours in glibc: ISO C99 (what C99+ headers call) and the old
 * GNU one, where %as %aS %a[ allocate (what gnu89 headers call). */
extern int gb_real_scanf99(FILE *f, const char *fmt, ...) __asm__("__isoc99_fscanf");
extern int gb_real_vscanf99(FILE *f, const char *fmt, va_list ap) __asm__("__isoc99_vfscanf");
extern int gb_real_vscanf_gnu(FILE *f, const char *fmt, va_list ap) __asm__("vfscanf");
extern int gb_real_sscanf99(const char *s, const char *fmt, ...) __asm__("__isoc99_sscanf");
extern int gb_real_vsscanf99(const char *s, const char *fmt,
                             va_list ap) __asm__("__isoc99_vsscanf");
extern int gb_real_vsscanf_gnu(const char *s, const char *fmt, va_list ap) __asm__("vsscanf");

RT_EXPORT int __gb_model___isoc99_fscanf(FILE *f, const char *fmt, ...);
RT_EXPORT int __gb_model_fscanf(FILE *f, const char *fmt, ...);
RT_EXPORT int __gb_model___isoc99_scanf(const char *fmt, ...);
RT_EXPORT int __gb_model_scanf(const char *fmt, ...);
RT_EXPORT int __gb_model___isoc99_vfscanf(FILE *f, const char *fmt, va_list ap);
RT_EXPORT int __gb_model_vfscanf(FILE *f, const char *fmt, va_list ap);
RT_EXPORT int __gb_model___isoc99_vscanf(const char *fmt, va_list ap);
RT_EXPORT int __gb_model_vscanf(const char *fmt, va_list ap);
RT_EXPORT int __gb_model___isoc99_sscanf(const char *s, const char *fmt, ...);
RT_EXPORT int __gb_model_sscanf(const char *s, const char *fmt, ...);
RT_EXPORT int __gb_model___isoc99_vsscanf(const char *s, const char *fmt, va_list ap);
RT_EXPORT int __gb_model_vsscanf(const char *s, const char *fmt, va_list ap);

/* Roles of the decisions recorded here (part of their site ids), after
 * libc_num.c's, which the integer conversions record. */
enum {
    ROLE_STR_BYTE = 16,
    ROLE_STR_END,
    ROLE_STR_NUL,
    ROLE_LIT,
    ROLE_WS,
    ROLE_WS_END,
    ROLE_SET_BYTE,
    ROLE_SET_END
};

/* What a scan reads: the input stream, or a string. */
typedef struct scan_src {
    FILE *f;         /* fscanf: the stream; NULL for sscanf */
    const char *str; /* sscanf: the buffer, len bytes before its NUL */
    size_t len;
    size_t pos;        /* sscanf: bytes of str consumed so far */
    const char *model; /* site ids hash the model's name and its caller */
    const void *ret;
    int gnu;
} scan_src_t;

/* One conversion specification, fmt[start, end). */
typedef struct spec {
    size_t start, end;
    int suppress;   /* '*' */
    int alloc;      /* 'm': the argument is a char ** that libc fills */
    unsigned width; /* 0 = none */
    char len;       /* 'H' hh, 'h', 'l', 'L' (ll L q j), 'z', 't', 0 = none */
    char conv;
    const char *set; /* %[: the set's characters, set_len of them, after any '^' */
    size_t set_len;
    int negate; /* %[^ */
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
            s->negate = 1, i++;
        s->set = fmt + i;
        if (fmt[i] == ']')
            i++;
        while (fmt[i] && fmt[i] != ']')
            i++;
        if (!fmt[i])
            return -1;
        s->set_len = (size_t)(fmt + i - s->set);
    }
    s->end = i + 1;
    return 0;
}

/* Runs fmt[a, b) followed by "%n" (when n) on the source. An unused
 * trailing argument is harmless to scanf, so both are always passed. */
static int run_piece(scan_src_t *src, const char *fmt, size_t a, size_t b, void *arg, int *n)
{
    char small[256], *buf = small;
    size_t len = b - a;
    if (len + 3 > sizeof small && !(buf = malloc(len + 3)))
        return -2;
    memcpy(buf, fmt + a, len);
    strcpy(buf + len, n ? "%n" : "");
    void *a1 = arg ? arg : n;
    int rc = src->f ? gb_real_scanf99(src->f, buf, a1, n)
                    : gb_real_sscanf99(src->str + src->pos, buf, a1, n);
    if (!src->f && n && *n > 0)
        src->pos += (size_t)*n;
    if (buf != small)
        free(buf);
    return rc;
}

/* Where the next byte comes from: an input file offset (-1 if the stream
 * is not the input) or an index into the string. */
static int64_t src_pos(const scan_src_t *src)
{
    return src->f ? io_stream_pos(src->f) : (int64_t)src->pos;
}

/* The bytes positions refer to: the input file's, or the string's. */
static const uint8_t *src_bytes(const scan_src_t *src, size_t *len)
{
    if (src->f)
        return io_input_bytes(len);
    *len = src->len;
    return (const uint8_t *)src->str;
}

static rt_expr_t *src_byte(const scan_src_t *src, int64_t off)
{
    return src->f ? io_byte(off) : rt_model_byte((const uint8_t *)src->str + off);
}

static void src_decide(const scan_src_t *src, unsigned role, int64_t off, rt_expr_t *cond,
                       int truth)
{
    uint32_t site = rt_model_site(src->model, src->ret, role, (uint64_t)off);
    if (src->f)
        rt_model_decide(site, cond, truth);
    else
        rt_model_decide_byte(site, (const uint8_t *)src->str + off, cond, truth);
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
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'n':
        return int_size(s->len);
    case 'p': return sizeof(void *);
    case 'c': return (s->width ? s->width : 1) * (s->len == 'l' ? sizeof(int) : 1);
    case 's': case '[':
        return s->len == 'l' ? 0 : strlen(dest) + 1; /* wide strings: left alone */
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
        return s->len == 'L' ? 16 : s->len == 'l' ? 8 : 4;
    default: return 0;
    }
}

static int is_int_conv(char c)
{
    return c == 'd' || c == 'i' || c == 'u' || c == 'o' || c == 'x' || c == 'X';
}

/* Where an integer conversion's bytes are, from source position p0. */
static rt_num_src_t num_src(const scan_src_t *src, size_t p0)
{
    size_t len;
    const uint8_t *d = src_bytes(src, &len);
    /* a string's NUL can be read (it ends a number); the file's end cannot */
    rt_num_src_t ns = {.s = d + p0,
                       .in_off = src->f ? (int64_t)p0 : -1,
                       .site_off = p0,
                       .model = src->model,
                       .ret = src->ret,
                       .avail = len - p0 + (src->f == NULL),
                       .per_byte = src->f == NULL};
    return ns;
}

static int num_base(char conv)
{
    return conv == 'o' ? 8 : conv == 'x' || conv == 'X' ? 16 : conv == 'i' ? 0 : 10;
}

/* The value of the integer libc read from bytes [p0, p1) and stored (n
 * bytes) at dest; NULL if it stays concrete. */
static rt_expr_t *number(const scan_src_t *src, const spec_t *s, const void *dest, size_t n,
                         size_t p0, size_t p1)
{
    uint64_t value = 0;
    memcpy(&value, dest, n); /* little-endian: the low n bytes */
    rt_num_src_t ns = num_src(src, p0);
    return rt_num_scanned(&ns, num_base(s->conv), s->conv == 'd' || s->conv == 'i', s->width,
                          p1 - p0, value, (unsigned)n * 8);
}

/* The bytes a %[ set matches, as the GNU C Library manual describes it:
 * the characters listed; '-' between two of them a range, first or last
 * itself; ']' first a member; '^' before them all the complement. 0 when
 * a range runs backwards (not described, so not guessed). */
static int set_members(const spec_t *s, uint8_t in[256])
{
    const uint8_t *c = (const uint8_t *)s->set;
    memset(in, 0, 256);
    for (size_t k = 0; k < s->set_len; k++) {
        if (c[k] != '-' || k == 0 || k + 1 == s->set_len) {
            in[c[k]] = 1;
            continue;
        }
        if (c[k - 1] > c[k + 1])
            return 0;
        for (unsigned b = c[k - 1]; b <= c[k + 1]; b++)
            in[b] = 1;
        k++;
    }
    for (unsigned b = 0; s->negate && b < 256; b++)
        in[b] ^= 1;
    return 1;
}

/* Runs of consecutive bytes whose in[] is `v`. */
static unsigned set_runs(const uint8_t in[256], uint8_t v)
{
    unsigned n = 0;
    for (unsigned b = 0; b < 256; b++)
        n += in[b] == v && (b == 0 || in[b - 1] != v);
    return n;
}

/* lo <= c <= hi, for a byte c. */
static rt_expr_t *range_cond(rt_expr_t *c, unsigned lo, unsigned hi)
{
    if (lo == hi)
        return rt_binop(GBT_OP_EQ, c, rt_const(8, lo));
    if (hi - lo == 255)
        return rt_const(1, 1);
    rt_expr_t *off = rt_binop(GBT_OP_SUB, c, rt_const(8, lo));
    return rt_binop(GBT_OP_ULT, off, rt_const(8, hi - lo + 1));
}

/* c is in the set: an OR of range tests over the runs of members, or the
 * negated OR over the runs of non-members, whichever is shorter ([^\n] is
 * one test, not two). */
static rt_expr_t *set_cond(rt_expr_t *c, const uint8_t in[256])
{
    uint8_t v = set_runs(in, 1) <= set_runs(in, 0);
    rt_expr_t *any = rt_const(1, 0);
    for (unsigned lo = 0; lo < 256 && any;) {
        unsigned hi = lo;
        if (in[lo] != v) {
            lo++;
            continue;
        }
        while (hi < 255 && in[hi + 1] == v)
            hi++;
        any = rt_binop(GBT_OP_OR, any, range_cond(c, lo, hi));
        lo = hi + 1;
    }
    return v ? any : rt_binop(GBT_OP_EQ, any, rt_const(1, 0));
}

/* %[ consumed source bytes [p0, p1) (suppressed or not): each is in the
 * set, and the byte that ended the field, unless the width did, is not
 * (in a string: is its NUL; the file's end is not recorded, as for %s).
 * Nothing is recorded where this reading of the set disagrees with what
 * libc took. */
static void set_decisions(const scan_src_t *src, const spec_t *s, size_t p0, size_t p1)
{
    uint8_t in[256];
    size_t len;
    const uint8_t *d = src_bytes(src, &len);
    if (!rt_active || s->len == 'l' || p1 < p0 || p1 > len || !set_members(s, in))
        return;
    int by_width = s->width && p1 - p0 == s->width;
    for (size_t k = p0; k < p1; k++)
        if (!in[d[k]])
            return;
    if (!by_width && p1 < len && in[d[p1]])
        return;
    for (size_t k = p0; k < p1; k++)
        src_decide(src, ROLE_SET_BYTE, (int64_t)k, set_cond(src_byte(src, (int64_t)k), in), 1);
    if (by_width)
        return;
    if (p1 < len)
        src_decide(src, ROLE_SET_END, (int64_t)p1, set_cond(src_byte(src, (int64_t)p1), in), 0);
    else if (!src->f)
        src_decide(src, ROLE_STR_NUL, (int64_t)p1,
                   rt_binop(GBT_OP_EQ, src_byte(src, (int64_t)p1), rt_const(8, 0)), 1);
}

/* A conversion that failed to match at p0: what decided it, for integers
 * and for %[ (its first byte is not in the set). */
static void conv_failed(const scan_src_t *src, const spec_t *s, int64_t p0)
{
    size_t len;
    src_bytes(src, &len);
    if (!rt_active || p0 < 0 || (uint64_t)p0 > len)
        return;
    if (s->conv == '[')
        set_decisions(src, s, (size_t)p0, (size_t)p0);
    if (!is_int_conv(s->conv))
        return;
    rt_num_src_t ns = num_src(src, (size_t)p0);
    rt_num_scan_failed(&ns, num_base(s->conv), s->width);
}

/* %s %c %[ stored the `copied` bytes that end at p1: they take those
 * bytes' shadows; %s also records that each is not white space and that
 * what ended it is (or, in a string, is its NUL). */
static void copy_str(const scan_src_t *src, const spec_t *s, void *dest, size_t copied, size_t p0,
                     size_t p1)
{
    size_t len;
    const uint8_t *d = src_bytes(src, &len);
    size_t from = p1 - copied;
    if (copied > p1 - p0 || memcmp(dest, d + from, copied) != 0)
        return; /* not the source's bytes (pushed back by ungetc?): concrete */
    if (src->f)
        io_mark(dest, copied, (int64_t)from);
    else
        rt_shadow_copy((uintptr_t)dest, (uintptr_t)(d + from), copied);
    if (s->conv != 's' || (s->width && copied == s->width))
        return;
    for (size_t k = from; k < p1; k++)
        src_decide(src, ROLE_STR_BYTE, (int64_t)k, rt_num_space_cond(src_byte(src, (int64_t)k)), 0);
    if (p1 < len && rt_num_is_space(d[p1]))
        src_decide(src, ROLE_STR_END, (int64_t)p1, rt_num_space_cond(src_byte(src, (int64_t)p1)),
                   1);
    else if (!src->f && p1 == len)
        src_decide(src, ROLE_STR_NUL, (int64_t)p1,
                   rt_binop(GBT_OP_EQ, src_byte(src, (int64_t)p1), rt_const(8, 0)), 1);
}

/* Shadows for what one conversion stored at `arg`, which libc read from
 * source positions [p0, p1) (p0 < 0: not from the input). */
static void shadow_conv(const scan_src_t *src, const spec_t *s, void *arg, int64_t p0, int64_t p1)
{
    size_t len;
    src_bytes(src, &len);
    void *dest = s->alloc ? *(void **)arg : arg;
    size_t n = dest ? dest_size(s, dest) : 0;
    if (!rt_active || !n)
        return;
    rt_shadow_clear((uintptr_t)dest, n);
    if (p0 < 0 || p1 < p0 || (uint64_t)p1 > len)
        return;
    switch (s->conv) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': {
        rt_expr_t *v = number(src, s, dest, n, (size_t)p0, (size_t)p1);
        if (v)
            rt_shadow_store((uintptr_t)dest, n, rt_resize(v, (unsigned)n * 8));
        return;
    }
    case 's': case '[': case 'c':
        if (s->len != 'l')
            copy_str(src, s, dest, s->conv == 'c' ? n : n - 1, (size_t)p0, (size_t)p1);
        return;
    default: return;
    }
}

/* The decisions of literal text fmt[a, b) matched against source bytes
 * from p0, as libc makes them: a white space directive takes every space
 * byte and stops at one that is not; any other character must equal its
 * byte (the first that does not ends the match). Stops at what it does not
 * follow (%%) and, in the file, at its end. */
static void text_decisions(const scan_src_t *src, const char *fmt, size_t a, size_t b, int64_t p0)
{
    size_t len;
    const uint8_t *d = src_bytes(src, &len);
    size_t lim = len + (src->f == NULL); /* a string's NUL is read, and matches nothing */
    if (!rt_active || p0 < 0)
        return;
    size_t p = (size_t)p0;
    for (size_t i = a; i < b && p < lim; i++) {
        uint8_t c = (uint8_t)fmt[i];
        if (rt_num_is_space(c)) {
            while (i + 1 < b && rt_num_is_space((uint8_t)fmt[i + 1]))
                i++; /* a run of white space is one directive */
            for (; p < lim && rt_num_is_space(d[p]); p++)
                src_decide(src, ROLE_WS, (int64_t)p, rt_num_space_cond(src_byte(src, (int64_t)p)),
                           1);
            if (p < lim)
                src_decide(src, ROLE_WS_END, (int64_t)p,
                           rt_num_space_cond(src_byte(src, (int64_t)p)), 0);
            continue;
        }
        if (c == '%')
            return;
        src_decide(src, ROLE_LIT, (int64_t)p,
                   rt_binop(GBT_OP_EQ, src_byte(src, (int64_t)p), rt_const(8, c)), d[p] == c);
        if (d[p++] != c)
            return;
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

/* Every specification parses (*bad = 1 if not: the whole-call fallback). */
static int format_ok(const char *fmt, int gnu)
{
    spec_t s;
    for (size_t i = 0; fmt[i];) {
        if (fmt[i] != '%' || fmt[i + 1] == '%')
            i += fmt[i] == '%' ? 2 : 1;
        else if (parse_spec(fmt, i, gnu, &s) != 0)
            return 0;
        else
            i = s.end;
    }
    return 1;
}

/* The format directive by directive; see the file comment. *bad = 1 when
 * the format needs the whole-call fallback (checked before any read). */
static int scan(scan_src_t *src, const char *fmt, va_list ap, int *bad)
{
    spec_t s;
    if (!format_ok(fmt, src->gnu))
        return *bad = 1, 0;
    int done = 0, used = 0;
    size_t text = 0, i = 0;
    for (;;) {
        while (fmt[i] && !(fmt[i] == '%' && fmt[i + 1] != '%'))
            i += fmt[i] == '%' ? 2 : 1;
        if (!fmt[i]) { /* trailing text: matched without a %n, as the whole call would */
            text_decisions(src, fmt, text, i, src_pos(src));
            int rc = i > text ? run_piece(src, fmt, text, i, NULL, NULL) : 0;
            return rc == EOF ? scan_fail(done) : done;
        }
        parse_spec(fmt, i, src->gnu, &s);
        int n = -1, rc;
        if (i > text) {
            text_decisions(src, fmt, text, i, src_pos(src));
            rc = run_piece(src, fmt, text, i, NULL, &n);
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
        int64_t p0 = src_pos(src);
        n = -1;
        rc = run_piece(src, fmt, s.start, s.end, arg, &n);
        if (rc == 0 && n < 0)
            conv_failed(src, &s, p0);
        if (rc == EOF || n < 0)
            return rc == EOF ? scan_fail(done) : done + (rc > 0 ? rc : 0);
        done += rc;
        used += n;
        if (arg)
            shadow_conv(src, &s, arg, p0, p0 >= 0 ? p0 + n : -1);
        if (s.conv == '[' && p0 >= 0) /* suppressed too: "%*[^\n]" skips a line */
            set_decisions(src, &s, (size_t)p0, (size_t)(p0 + n));
    }
}

static int model_vfscanf(FILE *f, const char *fmt, va_list ap, int gnu, const void *ret)
{
    __gb_callee = NULL;
    int bad = 0, r = 0;
    va_list cp;
    va_copy(cp, ap);
    scan_src_t src = {f, NULL, 0, 0, "fscanf", ret, gnu};
    if (rt_active || io_stream_pos(f) >= 0)
        r = scan(&src, fmt, cp, &bad);
    else
        bad = 1; /* not tracing this stream: one plain call */
    va_end(cp);
    if (bad) /* concrete results; destination shadows are not cleared */
        r = gnu ? gb_real_vscanf_gnu(f, fmt, ap) : gb_real_vscanf99(f, fmt, ap);
    __gb_ret = NULL;
    return r;
}

/* The destination a conversion wrote: the argument, or for %m (and the
 * GNU %as %a[ %aS) the buffer libc allocated, whose pointer is cleared. */
static void *written_dest(const spec_t *s, const char *fmt, int gnu, void *arg)
{
    int alloc =
        s->alloc || (gnu && s->conv == 'a' && fmt[s->end] && strchr("s[S", fmt[s->end]) != NULL);
    if (!alloc)
        return arg;
    rt_shadow_clear((uintptr_t)arg, sizeof(void *));
    return *(void **)arg;
}

/* After a concrete sscanf: no destination of the first `count`
 * assignments (and of any %n) keeps a shadow. Positional arguments are
 * not followed. */
static void clear_dests(const char *fmt, va_list ap, int gnu, int count)
{
    spec_t s;
    for (size_t i = 0; fmt[i] && count > 0;) {
        if (fmt[i] != '%' || fmt[i + 1] == '%') {
            i += fmt[i] == '%' ? 2 : 1;
            continue;
        }
        if (parse_spec(fmt, i, 0, &s) != 0)
            return;
        i = s.end;
        if (s.suppress)
            continue;
        void *arg = va_arg(ap, void *);
        count -= s.conv != 'n';
        char *dest = written_dest(&s, fmt, gnu, arg);
        if (dest && dest != arg && s.conv == 'a')
            rt_shadow_clear((uintptr_t)dest, strlen(dest) + 1); /* GNU %as */
        else if (dest)
            rt_shadow_clear((uintptr_t)dest, dest_size(&s, dest));
    }
}

static int real_vsscanf(const char *str, const char *fmt, va_list ap, int gnu)
{
    va_list cp;
    va_copy(cp, ap);
    int r = gnu ? gb_real_vsscanf_gnu(str, fmt, cp) : gb_real_vsscanf99(str, fmt, cp);
    va_end(cp);
    return r;
}

/* sscanf: the real call first, for the truth; then the piecewise run,
 * which must return the same. If it does not (or cannot run), the real
 * call again, with every destination concrete. */
static int model_vsscanf(const char *str, const char *fmt, va_list ap, int gnu, const void *ret)
{
    __gb_callee = NULL;
    __gb_ret = NULL;
    if (!rt_active)
        return real_vsscanf(str, fmt, ap, gnu);
    int truth = real_vsscanf(str, fmt, ap, gnu), bad = 0;
    scan_src_t src = {NULL, str, strlen(str), 0, "sscanf", ret, gnu};
    va_list cp;
    va_copy(cp, ap);
    int r = scan(&src, fmt, cp, &bad);
    va_end(cp);
    if (!bad && r == truth)
        return r;
    int most = r > truth ? r : truth;
    truth = real_vsscanf(str, fmt, ap, gnu);
    va_copy(cp, ap);
    clear_dests(fmt, cp, gnu, bad ? truth : most);
    va_end(cp);
    return truth;
}

/* The entry points: the flavour, and the caller for site ids. */
#define SCAN_ENTRY(name, src_decl, model, src, gnu)                                                \
    RT_EXPORT int __gb_model_##name(src_decl, const char *fmt, ...)                                \
    {                                                                                              \
        va_list ap;                                                                                \
        va_start(ap, fmt);                                                                         \
        int r = model(src, fmt, ap, gnu, __builtin_return_address(0));                             \
        va_end(ap);                                                                                \
        return r;                                                                                  \
    }

SCAN_ENTRY(__isoc99_fscanf, FILE *f, model_vfscanf, f, 0)
SCAN_ENTRY(fscanf, FILE *f, model_vfscanf, f, 1)
SCAN_ENTRY(__isoc99_sscanf, const char *s, model_vsscanf, s, 0)
SCAN_ENTRY(sscanf, const char *s, model_vsscanf, s, 1)

#define SCANF_ENTRY(name, gnu)                                                                     \
    RT_EXPORT int __gb_model_##name(const char *fmt, ...)                                          \
    {                                                                                              \
        va_list ap;                                                                                \
        va_start(ap, fmt);                                                                         \
        int r = model_vfscanf(stdin, fmt, ap, gnu, __builtin_return_address(0));                   \
        va_end(ap);                                                                                \
        return r;                                                                                  \
    }

SCANF_ENTRY(__isoc99_scanf, 0)
SCANF_ENTRY(scanf, 1)

/* The va_list forms: the same walk, the caller's list copied. */
RT_EXPORT int __gb_model___isoc99_vfscanf(FILE *f, const char *fmt, va_list ap)
{
    return model_vfscanf(f, fmt, ap, 0, __builtin_return_address(0));
}

RT_EXPORT int __gb_model_vfscanf(FILE *f, const char *fmt, va_list ap)
{
    return model_vfscanf(f, fmt, ap, 1, __builtin_return_address(0));
}

RT_EXPORT int __gb_model___isoc99_vscanf(const char *fmt, va_list ap)
{
    return model_vfscanf(stdin, fmt, ap, 0, __builtin_return_address(0));
}

RT_EXPORT int __gb_model_vscanf(const char *fmt, va_list ap)
{
    return model_vfscanf(stdin, fmt, ap, 1, __builtin_return_address(0));
}

RT_EXPORT int __gb_model___isoc99_vsscanf(const char *s, const char *fmt, va_list ap)
{
    return model_vsscanf(s, fmt, ap, 0, __builtin_return_address(0));
}

RT_EXPORT int __gb_model_vsscanf(const char *s, const char *fmt, va_list ap)
{
    return model_vsscanf(s, fmt, ap, 1, __builtin_return_address(0));
}
