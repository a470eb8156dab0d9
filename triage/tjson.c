/* SPDX-License-Identifier: Apache-2.0 */
/* What report.c, sarif.c and triage.c share: JSON through json-c (frames,
 * run ends, member access with defaults, atomic pretty files) and the
 * report's time format. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gb_config.h"
#include "triage_int.h"

const char *gbt_str(json_object *o, const char *key, const char *def)
{
    json_object *v;
    if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return def;
    return json_object_get_string(v);
}

int64_t gbt_int(json_object *o, const char *key, int64_t def)
{
    json_object *v;
    if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
        return def;
    return json_object_get_int64(v);
}

int gbt_bool(json_object *o, const char *key)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

int gbt_write_json(const char *path, const char *tmp_dir, json_object *doc, gb_err_t *e)
{
    const char *s = json_object_to_json_string_ext(
        doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
    if (!s)
        return gb_err_set(e, "out of memory writing %s", path);
    size_t n = strlen(s);
    char *buf = gb_malloc(n + 2);
    if (!buf)
        return gb_err_set(e, "out of memory writing %s", path);
    memcpy(buf, s, n);
    buf[n] = '\n';
    int rc = gb_write_atomic(path, tmp_dir, buf, n + 1, e);
    gb_free(buf);
    return rc;
}

void gbt_iso_time(uint64_t ms, char out[32])
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

uint64_t gbt_parse_iso_time(const char *s)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
    if (!end || *end)
        return 0;
    time_t t = timegm(&tm);
    return t < 0 ? 0 : (uint64_t)t * 1000u;
}

const char *gbt_status_name(gb_run_status_t s)
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

gb_run_status_t gbt_status_of(const char *name)
{
    if (strcmp(name, "ok") == 0)
        return GB_RUN_OK;
    if (strcmp(name, "crash") == 0)
        return GB_RUN_CRASH;
    if (strcmp(name, "timeout") == 0)
        return GB_RUN_TIMEOUT;
    return GB_RUN_ERROR;
}

json_object *gbt_frames_json(const gb_frame_t *f, size_t n)
{
    json_object *a = json_object_new_array();
    size_t idx[GB_CRASH_STATE_FRAMES];
    size_t k = gb_crash_state_frames(f, n, idx), next = 0;
    for (size_t i = 0; a && i < n; i++) {
        json_object *o = json_object_new_object();
        int in_state = next < k && idx[next] == i;
        next += (size_t)in_state;
        char off[24];
        snprintf(off, sizeof off, "0x%llx", (unsigned long long)f[i].offset);
        json_object_object_add(o, "function", json_object_new_string(f[i].func));
        json_object_object_add(o, "file", json_object_new_string(f[i].file));
        json_object_object_add(o, "line", json_object_new_int64(f[i].line));
        json_object_object_add(o, "module", json_object_new_string(f[i].module));
        json_object_object_add(o, "offset", json_object_new_string(off));
        json_object_object_add(o, "in_state", json_object_new_boolean(in_state));
        json_object_array_add(a, o);
    }
    return a;
}

int gbt_frames_from_json(json_object *a, gb_frame_t **f, size_t *n)
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
        snprintf(x->func, sizeof x->func, "%s", gbt_str(o, "function", ""));
        snprintf(x->file, sizeof x->file, "%s", gbt_str(o, "file", ""));
        snprintf(x->module, sizeof x->module, "%s", gbt_str(o, "module", ""));
        int64_t line = gbt_int(o, "line", 0);
        x->line = line > 0 && line < 1000000000 ? (unsigned)line : 0;
        x->offset = strtoull(gbt_str(o, "offset", "0"), NULL, 16);
    }
    *n = len;
    return 0;
}

long gbt_top_located_frame(const gb_bucket_t *b)
{
    size_t idx[GB_CRASH_STATE_FRAMES];
    size_t k = gb_crash_state_frames(b->frames, b->nframes, idx);
    for (size_t j = 0; j < k; j++)
        if (b->frames[idx[j]].file[0] && b->frames[idx[j]].line > 0)
            return (long)idx[j];
    return -1;
}
