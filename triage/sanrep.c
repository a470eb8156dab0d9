/* SPDX-License-Identifier: Apache-2.0 */
/* Reads ASan, UBSan, LeakSanitizer and libFuzzer reports: the crash type
 * and the first stack. The text comes from the target, so it is untrusted:
 * every read is bounded by the given length, lines are cut at LINE_MAX_LEN,
 * and anything unexpected just leaves a field empty. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_config.h"
#include "triage.h"

#define LINE_MAX_LEN 4096

/* A line of the report, copied and NUL-ended (cut at LINE_MAX_LEN). */
typedef struct line {
    char s[LINE_MAX_LEN];
    size_t len;
} line_t;

typedef struct cursor {
    const char *text;
    size_t len, at;
} cursor_t;

/* The next line into l; 0 at the end of the text. NULs in the text end
 * nothing: they become spaces. */
static int next_line(cursor_t *c, line_t *l)
{
    if (c->at >= c->len)
        return 0;
    const char *p = c->text + c->at;
    size_t left = c->len - c->at;
    const char *nl = memchr(p, '\n', left);
    size_t n = nl ? (size_t)(nl - p) : left;
    c->at += n + (nl ? 1 : 0);
    if (n > 0 && p[n - 1] == '\r')
        n--;
    l->len = n < LINE_MAX_LEN - 1 ? n : LINE_MAX_LEN - 1;
    memcpy(l->s, p, l->len);
    l->s[l->len] = '\0';
    for (size_t i = 0; i < l->len; i++)
        if (l->s[i] == '\0')
            l->s[i] = ' ';
    return 1;
}

/* Copies at most n bytes of src into dst[cap] (always NUL-ended). */
static void copy_n(char *dst, size_t cap, const char *src, size_t n)
{
    if (cap == 0)
        return;
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static int is_hex(char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

/* Parses "0x..." (at most 16 digits) at s; returns the bytes used, 0 if none. */
static size_t parse_hex(const char *s, uint64_t *v)
{
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !is_hex(s[2]))
        return 0;
    uint64_t x = 0;
    size_t i = 2;
    for (; is_hex(s[i]) && i < 18; i++) {
        char ch = s[i];
        unsigned d = ch <= '9' ? (unsigned)(ch - '0') : (unsigned)((ch | 0x20) - 'a' + 10);
        x = x << 4 | d;
    }
    *v = x;
    return i;
}

/* ---- stack frames ---------------------------------------------------------- */

/* "(MODULE+0xOFF)" inside [open, close]: fills module and offset. */
static int parse_module_group(const char *open, const char *close, gb_frame_t *f)
{
    const char *plus = NULL;
    for (const char *p = open + 1; p + 2 < close; p++)
        if (p[0] == '+' && p[1] == '0' && p[2] == 'x')
            plus = p;
    if (!plus)
        return 0;
    uint64_t off;
    if (parse_hex(plus + 1, &off) == 0)
        return 0;
    copy_n(f->module, sizeof f->module, open + 1, (size_t)(plus - open - 1));
    f->offset = off;
    return 1;
}

/* The last "(...+0x...)" group of s (a "(BuildId: ...)" after it is
 * skipped); its '(' or NULL. */
static const char *find_module_group(const char *s, size_t len, gb_frame_t *f)
{
    for (size_t i = len; i-- > 0;) {
        if (s[i] != ')')
            continue;
        size_t depth = 0, j = i;
        while (j-- > 0) {
            if (s[j] == ')')
                depth++;
            else if (s[j] == '(' && depth-- == 0)
                break;
        }
        if (j >= i)
            return NULL;
        if (strncmp(s + j, "(BuildId:", 9) != 0 && parse_module_group(s + j, s + i, f))
            return s + j;
        i = j;
    }
    return NULL;
}

/* "FILE:LINE" or "FILE:LINE:COL" (the last word of a symbolized frame). */
static void parse_file_line(const char *w, size_t n, gb_frame_t *f)
{
    /* Walk back over up to two ":digits" fields. */
    size_t end = n;
    unsigned nums[2] = {0, 0};
    int k = 0;
    while (k < 2 && end > 0) {
        size_t d = end;
        while (d > 0 && w[d - 1] >= '0' && w[d - 1] <= '9')
            d--;
        if (d == end || d == 0 || w[d - 1] != ':' || end - d > 9)
            break;
        nums[k++] = (unsigned)strtoul(w + d, NULL, 10);
        end = d - 1;
    }
    if (k == 0) {
        copy_n(f->file, sizeof f->file, w, n);
        return;
    }
    copy_n(f->file, sizeof f->file, w, end);
    f->line = k == 2 ? nums[1] : nums[0];
}

/* Drops a "+0x1f" tail (a symbol without line info). */
static void strip_func_offset(char *func)
{
    char *plus = strstr(func, "+0x");
    if (plus && plus != func)
        *plus = '\0';
}

/* "    #N 0xPC in FUNC LOCATION" or "    #N 0xPC  (MODULE+0xOFF)". 1 if it is one. */
static int parse_frame(const line_t *l, gb_frame_t *f, unsigned *index)
{
    const char *s = l->s;
    while (*s == ' ' || *s == '\t')
        s++;
    if (s[0] != '#' || s[1] < '0' || s[1] > '9')
        return 0;
    char *end;
    unsigned long idx = strtoul(s + 1, &end, 10);
    if (*end != ' ' || idx > 1000000)
        return 0;
    s = end;
    while (*s == ' ')
        s++;
    uint64_t pc;
    size_t used = parse_hex(s, &pc);
    if (used == 0)
        return 0;
    s += used;
    memset(f, 0, sizeof *f);
    *index = (unsigned)idx;
    size_t rest = l->len - (size_t)(s - l->s);
    const char *group = find_module_group(s, rest, f);
    const char *in = strncmp(s, " in ", 4) == 0 ? s + 4 : NULL;
    if (!in)
        return 1; /* unsymbolized: the module group is all there is */
    if (group) {
        /* "in FUNC (MODULE+0xOFF)" */
        const char *fe = group;
        while (fe > in && fe[-1] == ' ')
            fe--;
        copy_n(f->func, sizeof f->func, in, (size_t)(fe - in));
    } else {
        /* "in FUNC FILE:LINE:COL": the location is the last word. */
        const char *stop = s + rest;
        while (stop > in && stop[-1] == ' ')
            stop--;
        const char *w = stop;
        while (w > in && w[-1] != ' ')
            w--;
        if (w == in) {
            copy_n(f->func, sizeof f->func, in, (size_t)(stop - in));
        } else {
            const char *fe = w;
            while (fe > in && fe[-1] == ' ')
                fe--;
            copy_n(f->func, sizeof f->func, in, (size_t)(fe - in));
            parse_file_line(w, (size_t)(stop - w), f);
        }
    }
    strip_func_offset(f->func);
    return 1;
}

/* ---- report headers -------------------------------------------------------- */

/* The UBSan check a "runtime error:" message names, for runtimes that do
 * not print it (report_error_type=0). */
static const char *ubsan_check_of(const char *msg)
{
    static const struct {
        const char *needle, *check;
    } map[] = {
        {"signed integer overflow", "signed-integer-overflow"},
        {"unsigned integer overflow", "unsigned-integer-overflow"},
        {"negation of", "signed-integer-overflow"},
        {"division by zero", "integer-divide-by-zero"},
        {"shift exponent", "shift-exponent"},
        {"left shift of", "shift-base"},
        {"out of bounds for type", "bounds"},
        {"null pointer", "null"},
        {"misaligned address", "alignment"},
        {"not a valid value for type 'bool'", "bool"},
        {"not a valid value for type", "enum"},
        {"unreachable program point", "unreachable"},
        {"without returning a value", "return"},
        {"pointer overflow", "pointer-overflow"},
        {"non-zero offset", "pointer-overflow"},
        {"outside the range of representable values", "float-cast-overflow"},
        {"variable length array bound", "vla-bound"},
        {"implicit conversion", "implicit-conversion"},
        {"indirect function call through", "function"},
        {"passing zero to", "invalid-builtin-use"},
        {"which is declared to never be null", "nonnull-attribute"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strstr(msg, map[i].needle))
            return map[i].check;
    return "undefined-behavior";
}

/* The first word at s (up to a space, ':' or '('). */
static void first_word(const char *s, char *out, size_t cap)
{
    size_t n = strcspn(s, " :(\t");
    copy_n(out, cap, s, n);
}

/* ASan's names for the ends it reports that are not memory errors. */
static void asan_type_of(const char *after, char *type, size_t cap)
{
    static const struct {
        const char *prefix, *type;
    } map[] = {
        {"attempting double-free", "double-free"},
        {"attempting free on address which was not malloc", "bad-free"},
        {"requested allocation size", "out-of-memory"},
        {"allocation-size-too-big", "out-of-memory"},
        {"out of memory", "out-of-memory"},
        {"out-of-memory", "out-of-memory"},
        {"rss-limit-exceeded", "out-of-memory"},
        {"malloc-limit-exceeded", "out-of-memory"},
        {"ABRT", "abort"},
        {"BUS", "bus error"},
        {"FPE", "floating-point exception"},
        {"ILL", "illegal instruction"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strncmp(after, map[i].prefix, strlen(map[i].prefix)) == 0) {
            copy_n(type, cap, map[i].type, strlen(map[i].type));
            return;
        }
    first_word(after, type, cap);
}

typedef struct parse {
    gb_sanrep_t *r;
    int in_header;  /* the header was seen; still before the first stack */
    int stack_done; /* the first stack has been read */
    int stack_open; /* frames of the first stack are being read */
    char access[8]; /* "READ" / "WRITE" */
    unsigned size;  /* access size, 0 = not said */
    int segv, has_summary;
    size_t cap;
} parse_t;

/* "ERROR: <San>: ..." headers and UBSan's "runtime error:". 1 if l is one. */
static int parse_header(parse_t *p, const line_t *l)
{
    static const char *const sans[] = {
        "AddressSanitizer", "LeakSanitizer",   "UndefinedBehaviorSanitizer",
        "libFuzzer",        "MemorySanitizer", "ThreadSanitizer"};
    gb_sanrep_t *r = p->r;
    const char *err = strstr(l->s, "ERROR: ");
    for (size_t i = 0; err && i < sizeof sans / sizeof sans[0]; i++) {
        size_t n = strlen(sans[i]);
        if (strncmp(err + 7, sans[i], n) != 0 || err[7 + n] != ':')
            continue;
        const char *after = err + 7 + n + 1;
        while (*after == ' ')
            after++;
        copy_n(r->sanitizer, sizeof r->sanitizer, sans[i], n);
        if (i == 1)
            snprintf(r->type, sizeof r->type, "memory-leak");
        else if (i == 3)
            snprintf(r->type, sizeof r->type, "%s",
                     strncmp(after, "timeout", 7) == 0          ? "timeout"
                     : strncmp(after, "out-of-memory", 13) == 0 ? "out-of-memory"
                                                                : "");
        else
            asan_type_of(after, r->type, sizeof r->type);
        p->segv = strncmp(r->type, "SEGV", 4) == 0;
        const char *addr = strstr(after, "address 0x");
        if (addr && parse_hex(addr + 8, &r->address))
            r->has_address = 1;
        return 1;
    }
    const char *rt = strstr(l->s, "runtime error: ");
    if (rt) {
        snprintf(r->sanitizer, sizeof r->sanitizer, "UndefinedBehaviorSanitizer");
        snprintf(r->type, sizeof r->type, "UBSan %s", ubsan_check_of(rt + 15));
        return 1;
    }
    return 0;
}

/* Lines between the header and the end of the report that refine it. */
static void parse_detail(parse_t *p, const line_t *l)
{
    gb_sanrep_t *r = p->r;
    const char *s = l->s;
    while (*s == ' ')
        s++;
    if (!p->access[0] &&
        (strncmp(s, "READ of size ", 13) == 0 || strncmp(s, "WRITE of size ", 14) == 0)) {
        int w = s[0] == 'W';
        snprintf(p->access, sizeof p->access, "%s", w ? "WRITE" : "READ");
        p->size = (unsigned)strtoul(s + (w ? 14 : 13), NULL, 10);
    } else if (!p->access[0] && p->segv && strstr(s, "The signal is caused by a ")) {
        /* Only a SEGV's type says the access: a stack overflow is one
         * whatever instruction hit the guard page. */
        const char *k = strstr(s, "caused by a ") + 12;
        if (strncmp(k, "READ", 4) == 0 || strncmp(k, "WRITE", 5) == 0)
            first_word(k, p->access, sizeof p->access);
    } else if (!p->has_summary && strncmp(s, "SUMMARY: ", 9) == 0) {
        /* The summary names the type the way the sanitizer's flags do;
         * only one of the header's sanitizer counts (a leak report's
         * summary says "AddressSanitizer: 40 byte(s) leaked"). */
        const char *colon = strchr(s + 9, ':');
        size_t sn = strlen(r->sanitizer);
        if (!colon || sn == 0 || (size_t)(colon - (s + 9)) != sn ||
            strncmp(s + 9, r->sanitizer, sn) != 0)
            return;
        const char *t = colon + 1;
        while (*t == ' ')
            t++;
        p->has_summary = 1;
        if (strncmp(s + 9, "UndefinedBehaviorSanitizer", 26) == 0) {
            char w[96];
            first_word(t, w, sizeof w);
            if (w[0] && strcmp(w, "undefined-behavior") != 0)
                snprintf(r->type, sizeof r->type, "UBSan %s", w);
        } else if (strncmp(s + 9, "AddressSanitizer", 16) == 0 && !p->segv) {
            char w[96];
            asan_type_of(t, w, sizeof w);
            if (w[0] && strcmp(w, "SEGV") != 0)
                snprintf(r->type, sizeof r->type, "%s", w);
        }
    }
}

static int add_frame(parse_t *p, const gb_frame_t *f, gb_err_t *e)
{
    gb_sanrep_t *r = p->r;
    if (r->nframes >= GB_CRASH_MAX_FRAMES)
        return 0;
    if (gb_grow(&r->frames, &p->cap, r->nframes + 1, sizeof *r->frames, 16) != 0)
        return gb_err_set(e, "out of memory reading a sanitizer report");
    r->frames[r->nframes++] = *f;
    if (f->func[0])
        r->symbolized = 1;
    return 0;
}

/* The type's final form, the bucket key's: access kind, without sizes or
 * addresses (one bug reached by inputs of other lengths is one bug;
 * docs/triage.md, "Crash types"). The detail keeps them. */
static void finish_type(parse_t *p)
{
    gb_sanrep_t *r = p->r;
    char base[128], where[32] = "";
    snprintf(base, sizeof base, "%s", r->type);
    if (r->has_address)
        snprintf(where, sizeof where, " at 0x%llx", (unsigned long long)r->address);
    if (p->segv) {
        int null = r->has_address && r->address < 4096;
        snprintf(r->type, sizeof r->type, "SEGV on unknown address%s%s", p->access[0] ? " " : "",
                 p->access);
        snprintf(r->detail, sizeof r->detail, "SEGV on unknown address%s%s%s%s",
                 null ? " (null deref)" : "", p->access[0] ? " " : "", p->access, where);
        return;
    }
    if (p->access[0])
        snprintf(r->type, sizeof r->type, "%.96s %s", base, p->access);
    if (p->access[0] && p->size)
        snprintf(r->detail, sizeof r->detail, "%.96s %s %u%s", base, p->access, p->size, where);
    else
        snprintf(r->detail, sizeof r->detail, "%.120s%s", r->type, where);
}

int gb_sanrep_parse(const char *text, size_t len, gb_sanrep_t *out, gb_err_t *e)
{
    memset(out, 0, sizeof *out);
    if (!text)
        return 0;
    line_t *l = gb_malloc(sizeof *l);
    if (!l)
        return gb_err_set(e, "out of memory reading a sanitizer report");
    parse_t p = {.r = out};
    cursor_t c = {text, len, 0};
    int rc = 0;
    while (rc == 0 && next_line(&c, l)) {
        if (!out->found) {
            out->found = parse_header(&p, l);
            continue;
        }
        gb_frame_t f;
        unsigned idx;
        if (!p.stack_done && parse_frame(l, &f, &idx)) {
            /* A "#0" after frames starts another stack: the first is done. */
            if (idx == 0 && out->nframes > 0)
                p.stack_done = 1;
            else
                rc = add_frame(&p, &f, e);
            p.stack_open = 1;
            continue;
        }
        if (p.stack_open)
            p.stack_done = 1;
        parse_detail(&p, l);
    }
    gb_free(l);
    if (rc != 0) {
        gb_sanrep_clear(out);
        return -1;
    }
    if (out->found)
        finish_type(&p);
    return 0;
}

void gb_sanrep_clear(gb_sanrep_t *r)
{
    if (!r)
        return;
    gb_free(r->frames);
    memset(r, 0, sizeof *r);
}
