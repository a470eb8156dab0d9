/* SPDX-License-Identifier: Apache-2.0 */
/* What report.c, sarif.c and triage.c share: JSON through json-c (frames,
 * run ends, member access with defaults, atomic pretty files) and the
 * report's time format. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gb_config.h"
#include "gb_files.h"
#include "triage_int.h"

const char *gb_tj_str(json_object *o, const char *key, const char *def)
{
    json_object *v;
    if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return def;
    return json_object_get_string(v);
}

int64_t gb_tj_int(json_object *o, const char *key, int64_t def)
{
    json_object *v;
    if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
        return def;
    return json_object_get_int64(v);
}

int gb_tj_bool(json_object *o, const char *key)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

/* ---- strings that may not be UTF-8 ------------------------------------------------ */

/* The length of the valid UTF-8 sequence at s (1..4), or 0 when the byte
 * there starts none (overlong forms, surrogates and values past U+10FFFF
 * are not valid either). */
static size_t utf8_seq(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? (c < 0xf0 ? 3 : 0) : c >= 0xc2 ? 2 : 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((n == 3 && c == 0xe0 && s[1] < 0xa0) || (n == 3 && c == 0xed && s[1] >= 0xa0) ||
        (n == 4 && c == 0xf0 && s[1] < 0x90) || (n == 4 && c == 0xf4 && s[1] >= 0x90))
        return 0;
    return n;
}

int gb_tj_utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t n; *p; p += n)
        if (!(n = utf8_seq(p)))
            return 0;
    return 1;
}

void gb_triage_escape(const char *s, char *out, size_t cap)
{
    size_t at = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p && at + 5 <= cap;) {
        size_t n = utf8_seq(p);
        if (n == 1 && *p >= 0x20 && *p != 0x7f && *p != '\\') {
            out[at++] = (char)*p++;
        } else if (n > 1 && at + n < cap) {
            memcpy(out + at, p, n);
            at += n;
            p += n;
        } else if (n > 1) {
            break;
        } else {
            at += (size_t)snprintf(out + at, cap - at, *p == '\\' ? "\\\\" : "\\x%02x", *p);
            p++;
        }
    }
    if (cap)
        out[at < cap ? at : cap - 1] = '\0';
}

json_object *gb_tj_jstr(const char *s)
{
    s = s ? s : "";
    if (gb_tj_utf8_valid(s))
        return json_object_new_string(s);
    /* Each byte that starts no valid sequence becomes U+FFFD (3 bytes). */
    size_t len = strlen(s);
    char *buf = gb_malloc(len * 3 + 1);
    if (!buf)
        return NULL;
    size_t at = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = utf8_seq(p);
        if (n) {
            memcpy(buf + at, p, n);
            at += n;
            p += n;
        } else {
            memcpy(buf + at, "\xef\xbf\xbd", 3);
            at += 3;
            p++;
        }
    }
    json_object *o = json_object_new_string_len(buf, (int)at);
    gb_free(buf);
    return o;
}

void gb_tj_add_str(json_object *o, const char *key, const char *v)
{
    v = v ? v : "";
    json_object_object_add(o, key, gb_tj_jstr(v));
    if (gb_tj_utf8_valid(v))
        return;
    size_t len = strlen(v);
    char *hex = gb_malloc(len * 2 + 1), hkey[64];
    if (!hex)
        return;
    for (size_t i = 0; i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", (unsigned char)v[i]);
    snprintf(hkey, sizeof hkey, "%s_hex", key);
    json_object_object_add(o, hkey, json_object_new_string_len(hex, (int)(len * 2)));
    gb_free(hex);
}

static int hex_val(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

char *gb_tj_raw_str(json_object *o, const char *key, const char *def)
{
    char hkey[64];
    snprintf(hkey, sizeof hkey, "%s_hex", key);
    const char *hex = gb_tj_str(o, hkey, NULL);
    size_t n = hex ? strlen(hex) : 0;
    char *raw = n && n % 2 == 0 ? gb_malloc(n / 2 + 1) : NULL;
    for (size_t i = 0; raw && i < n / 2; i++) {
        int hi = hex_val(hex[2 * i]), lo = hex_val(hex[2 * i + 1]);
        if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) { /* not ours: use the text */
            gb_free(raw);
            raw = NULL;
            break;
        }
        raw[i] = (char)(hi * 16 + lo);
        raw[i + 1] = '\0';
    }
    return raw ? raw : gb_strdup(gb_tj_str(o, key, def));
}

int gb_tj_write_json_at(int dirfd, const char *name, int tmpfd, json_object *doc, gb_err_t *e)
{
    const char *s = json_object_to_json_string_ext(
        doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
    if (!s)
        return gb_err_set(e, "out of memory writing %s", name);
    size_t n = strlen(s);
    char *buf = gb_malloc(n + 2);
    if (!buf)
        return gb_err_set(e, "out of memory writing %s", name);
    memcpy(buf, s, n);
    buf[n] = '\n';
    gb_err_t sub;
    int rc = gb_file_write_at(dirfd, name, tmpfd, buf, n + 1, &sub);
    gb_free(buf);
    return rc == 0 ? 0 : gb_err_set(e, "%s: %s", name, sub.msg);
}

void gb_tj_iso_time(uint64_t ms, char out[32])
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

uint64_t gb_tj_parse_iso_time(const char *s)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
    if (!end || *end)
        return 0;
    time_t t = timegm(&tm);
    return t < 0 ? 0 : (uint64_t)t * 1000u;
}

const char *gb_tj_status_name(gb_run_status_t s)
{
    switch (s) {
    case GB_RUN_OK:
        return "ok";
    case GB_RUN_CRASH:
        return "crash";
    case GB_RUN_TIMEOUT:
        return "timeout";
    default:
        return "error";
    }
}

gb_run_status_t gb_tj_status_of(const char *name)
{
    if (strcmp(name, "ok") == 0)
        return GB_RUN_OK;
    if (strcmp(name, "crash") == 0)
        return GB_RUN_CRASH;
    if (strcmp(name, "timeout") == 0)
        return GB_RUN_TIMEOUT;
    return GB_RUN_ERROR;
}

json_object *gb_tj_frames_json(const gb_frame_t *f, size_t n, unsigned state_frames)
{
    json_object *a = json_object_new_array();
    size_t idx[GB_CRASH_STATE_FRAMES_MAX];
    size_t k = gb_crash_state_frames(f, n, state_frames, idx), next = 0;
    for (size_t i = 0; a && i < n; i++) {
        json_object *o = json_object_new_object();
        int in_state = next < k && idx[next] == i;
        next += (size_t)in_state;
        char off[24];
        snprintf(off, sizeof off, "0x%llx", (unsigned long long)f[i].offset);
        gb_tj_add_str(o, "function", f[i].func);
        gb_tj_add_str(o, "file", f[i].file);
        json_object_object_add(o, "line", json_object_new_int64(f[i].line));
        gb_tj_add_str(o, "module", f[i].module);
        json_object_object_add(o, "offset", json_object_new_string(off));
        json_object_object_add(o, "in_state", json_object_new_boolean(in_state));
        json_object_array_add(a, o);
    }
    return a;
}

/* The raw string of `key` (gb_tj_raw_str) into a fixed buffer. */
static void raw_into(json_object *o, const char *key, char *out, size_t cap)
{
    char *raw = gb_tj_raw_str(o, key, "");
    snprintf(out, cap, "%s", raw ? raw : gb_tj_str(o, key, ""));
    gb_free(raw);
}

int gb_tj_frames_from_json(json_object *a, gb_frame_t **f, size_t *n)
{
    *f = NULL;
    *n = 0;
    size_t len = json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
    if (len > GB_CRASH_MAX_FRAMES)
        len = GB_CRASH_MAX_FRAMES;
    if (len == 0)
        return 0;
    if (!(*f = gb_calloc(len, sizeof **f)))
        return -1;
    for (size_t i = 0; i < len; i++) {
        json_object *o = json_object_array_get_idx(a, i);
        gb_frame_t *x = &(*f)[i];
        raw_into(o, "function", x->func, sizeof x->func);
        raw_into(o, "file", x->file, sizeof x->file);
        raw_into(o, "module", x->module, sizeof x->module);
        int64_t line = gb_tj_int(o, "line", 0);
        x->line = line > 0 && line < 1000000000 ? (unsigned)line : 0;
        x->offset = strtoull(gb_tj_str(o, "offset", "0"), NULL, 16);
    }
    *n = len;
    return 0;
}

long gb_tj_top_located_frame(const gb_bucket_t *b)
{
    size_t idx[GB_CRASH_STATE_FRAMES_MAX];
    size_t k = gb_crash_state_frames(b->frames, b->nframes, b->state_frames, idx);
    for (size_t j = 0; j < k; j++)
        if (b->frames[idx[j]].file[0] && b->frames[idx[j]].line > 0)
            return (long)idx[j];
    return -1;
}
