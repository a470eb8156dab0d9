/* SPDX-License-Identifier: Apache-2.0 */
/* REPORT/.seen, triage's index of every input triaged so far: read and
 * written by descriptor, its damage detected, and repaired from the
 * buckets, which are the truth (docs/triage.md, "Damage"). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "gb_files.h"
#include "triage_int.h"

/* .seen holds a line of ~200 bytes per input ever triaged: 256 MiB is
 * over a million inputs, and more is not a file of ours. */
#define GB_SEEN_MAX_BYTES (256u << 20)

uint64_t gb_tj_sha_key(const char *sha1)
{
    return gb_hash64(sha1, 40, 0);
}

int gb_tj_seen_add(gb_tj_seen_t *s, const char *sha1, const char *outcome, const char *path,
                   uint64_t ms)
{
    if (gb_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v, 64) != 0 ||
        gb_hset_add(&s->set, gb_tj_sha_key(sha1)) < 0)
        return -1;
    gb_tj_seen_entry_t *x = &s->v[s->n];
    memset(x, 0, sizeof *x);
    snprintf(x->sha1, sizeof x->sha1, "%s", sha1);
    snprintf(x->outcome, sizeof x->outcome, "%s", outcome);
    if (!(x->path = gb_strdup(path)))
        return -1;
    x->ms = ms;
    s->n++;
    return 0;
}

void gb_tj_seen_free(gb_tj_seen_t *s)
{
    for (size_t i = 0; i < s->n; i++)
        gb_free(s->v[i].path);
    gb_free(s->v);
    gb_hset_free(&s->set);
}

/* One line of .seen into s; 0 added or already there, 1 not a line of
 * ours (damage), -1 out of memory. */
static int seen_line(gb_tj_seen_t *s, const char *line, size_t len)
{
    json_tokener *tok = json_tokener_new();
    json_object *o = tok ? json_tokener_parse_ex(tok, line, (int)len) : NULL;
    int bad = !o || tok == NULL || json_tokener_get_error(tok) != json_tokener_success;
    if (tok)
        json_tokener_free(tok);
    const char *sha = gb_tj_str(o, "sha1", ""), *out = gb_tj_str(o, "outcome", "");
    int rc = 1;
    if (!bad && strlen(sha) == 40 && strspn(sha, "0123456789abcdef") == 40 && *out &&
        strlen(out) < sizeof s->v[0].outcome) {
        char *path = gb_tj_raw_str(o, "path", "");
        rc =
            !path ? -1
            : gb_hset_has(&s->set, gb_tj_sha_key(sha))
                ? 0
                : gb_tj_seen_add(s, sha, out, path, gb_tj_parse_iso_time(gb_tj_str(o, "seen", "")));
        gb_free(path);
    }
    json_object_put(o);
    return rc;
}

/* REPORT/.seen by descriptor. A line that is not one of ours (random
 * bytes, a torn edit) sets *damaged: the caller warns and rebuilds the
 * index from the buckets, which are the truth (rebuild_seen). */
int gb_tj_seen_load(gb_tj_seen_t *s, int rfd, int *damaged, gb_err_t *e)
{
    uint8_t *data;
    size_t len;
    gb_err_t re;
    *damaged = 0;
    if (gb_read_file_at(rfd, ".seen", GB_SEEN_MAX_BYTES, &data, &len, &re) != 0) {
        if (errno == ENOENT)
            return 0;
        *damaged = 1; /* a symlink, a FIFO, too large: not ours */
        return 0;
    }
    int rc = 0;
    for (size_t at = 0; rc >= 0 && at < len;) {
        const char *line = (const char *)data + at;
        const char *nl = memchr(line, '\n', len - at);
        size_t n = nl ? (size_t)(nl - line) : len - at;
        if (n && (rc = seen_line(s, line, n)) == 1)
            *damaged = 1;
        at += n + 1;
    }
    gb_free(data);
    return rc < 0 ? gb_err_set(e, "out of memory reading .seen") : 0;
}

int gb_tj_seen_save(const gb_tj_seen_t *s, int rfd, int tmpfd, gb_err_t *e)
{
    size_t len = 0, cap = 0;
    char *buf = NULL;
    for (size_t i = 0; i < s->n; i++) {
        json_object *o = json_object_new_object();
        char when[32];
        gb_tj_iso_time(s->v[i].ms, when);
        json_object_object_add(o, "sha1", json_object_new_string(s->v[i].sha1));
        gb_tj_add_str(o, "outcome", s->v[i].outcome);
        gb_tj_add_str(o, "path", s->v[i].path);
        json_object_object_add(o, "seen", json_object_new_string(when));
        const char *j = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
        size_t jl = strlen(j);
        if (gb_grow(&buf, &cap, len + jl + 2, 1, 4096) != 0) {
            json_object_put(o);
            gb_free(buf);
            return gb_err_set(e, "out of memory writing .seen");
        }
        memcpy(buf + len, j, jl);
        len += jl;
        buf[len++] = '\n';
        json_object_put(o);
    }
    gb_err_t sub;
    int rc = gb_file_write_at(rfd, ".seen", tmpfd, buf ? buf : "", len, &sub);
    gb_free(buf);
    return rc == 0 ? 0 : gb_err_set(e, ".seen: %s", sub.msg);
}

static int has_bucket(const gb_triage_result_t *res, const char *id)
{
    for (size_t i = 0; i < res->nbuckets; i++)
        if (strcmp(res->buckets[i].id, id) == 0)
            return 1;
    return 0;
}

/* Drops from .seen every entry that names a bucket not loaded (its
 * crash.json damaged or gone): those inputs run again and rebuild it. */
void gb_tj_seen_forget_lost(gb_tj_seen_t *s, const gb_triage_result_t *res)
{
    size_t k = 0;
    gb_hset_free(&s->set);
    memset(&s->set, 0, sizeof s->set);
    for (size_t i = 0; i < s->n; i++) {
        gb_tj_seen_entry_t *x = &s->v[i];
        if (strcmp(x->outcome, "no-crash") != 0 && !has_bucket(res, x->outcome)) {
            gb_free(x->path);
            continue;
        }
        s->v[k++] = *x;
        gb_hset_add(&s->set, gb_tj_sha_key(x->sha1));
    }
    s->n = k;
}

/* Every input of a loaded bucket is in .seen: a damaged index is rebuilt
 * from the buckets rather than counting their inputs twice. */
int gb_tj_seen_merge(gb_tj_seen_t *s, const gb_triage_result_t *res)
{
    for (size_t i = 0; i < res->nbuckets; i++) {
        const gb_bucket_t *b = &res->buckets[i];
        for (size_t k = 0; k < b->ninputs; k++) {
            const gb_bucket_input_t *x = &b->inputs[k];
            if (strlen(x->sha1) == 40 && !gb_hset_has(&s->set, gb_tj_sha_key(x->sha1)) &&
                gb_tj_seen_add(s, x->sha1, b->id, x->path, x->seen_ms) != 0)
                return -1;
        }
    }
    return 0;
}
