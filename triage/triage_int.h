/* SPDX-License-Identifier: Apache-2.0 */
/* triage/ internals (tjson.c, seen.c) shared by triage.c, report.c and sarif.c:
 * frames and run results to and from JSON, and small file helpers. */
#ifndef GB_TRIAGE_INT_H
#define GB_TRIAGE_INT_H

#include <json-c/json.h>

#include "triage.h"

/* Frames as [{"function","file","line","module","offset"}] and back
 * (fields missing in the JSON stay empty). NULL / -1 when out of memory. */
json_object *gbt_frames_json(const gb_frame_t *f, size_t n);
int gbt_frames_from_json(json_object *a, gb_frame_t **f, size_t *n);

/* "ok", "crash", "timeout", "error". */
const char *gbt_status_name(gb_run_status_t s);
gb_run_status_t gbt_status_of(const char *name);

/* A JSON object's string / integer member, or the default. */
const char *gbt_str(json_object *o, const char *key, const char *def);
int64_t gbt_int(json_object *o, const char *key, int64_t def);
int gbt_bool(json_object *o, const char *key); /* 0 when missing */

/* Serializes `doc` (pretty, with a final newline) into `name` in the
 * directory `dirfd` atomically, staged in `tmpfd` (gb_file_write_at:
 * never through a symlink). */
int gbt_write_json_at(int dirfd, const char *name, int tmpfd, json_object *doc, gb_err_t *e);

/* Strings from file names and binaries may hold any bytes, and JSON must
 * be UTF-8 (docs/triage.md, "Names that are not UTF-8"). 1 when `s` is
 * valid UTF-8. */
int gbt_utf8_valid(const char *s);
/* A JSON string of `s` with every byte that is not part of valid UTF-8
 * replaced by U+FFFD (NULL = ""). */
json_object *gbt_jstr(const char *s);
/* Adds `key`: gbt_jstr(v), and when v is not valid UTF-8 also
 * `key`_hex: v's exact bytes in lowercase hex, so nothing is lost. */
void gbt_add_str(json_object *o, const char *key, const char *v);
/* The exact string gbt_add_str wrote: from `key`_hex when present, else
 * `key` (or def). malloc'd; NULL when out of memory. */
char *gbt_raw_str(json_object *o, const char *key, const char *def);

/* ISO 8601 UTC of a gb_time_ms value into out[32]. */
void gbt_iso_time(uint64_t ms, char out[32]);
/* And back; 0 when it is not one. */
uint64_t gbt_parse_iso_time(const char *s);

/* The top state frame that has a file, for locations: its index in
 * b->frames, or -1. */
long gbt_top_located_frame(const gb_bucket_t *b);

/* ---- REPORT/.seen (seen.c) ---------------------------------------------- */

/* One line per input, JSON: {"sha1","outcome","path","seen"}; outcome is
 * a bucket id or "no-crash". Failed runs are not remembered: they are
 * tried again next time. */
typedef struct gbt_seen_entry {
    char sha1[41];
    char outcome[24];
    char *path;
    uint64_t ms;
} gbt_seen_entry_t;

typedef struct gbt_seen {
    gbt_seen_entry_t *v;
    size_t n, cap;
    gb_hset_t set; /* hashes of sha1 (gbt_sha_key) */
} gbt_seen_t;

uint64_t gbt_sha_key(const char *sha1);
/* 0, or -1 when out of memory. */
int gbt_seen_add(gbt_seen_t *s, const char *sha1, const char *outcome, const char *path,
                 uint64_t ms);
void gbt_seen_free(gbt_seen_t *s);
/* Reads REPORT/.seen from the report dir `rfd` (absent: empty). A line
 * that is not one of ours, or a .seen that is not a regular file, sets
 * *damaged; the good lines are kept. -1 only when out of memory. */
int gbt_seen_load(gbt_seen_t *s, int rfd, int *damaged, gb_err_t *e);
/* Writes it back atomically (staged in `tmpfd`). */
int gbt_seen_save(const gbt_seen_t *s, int rfd, int tmpfd, gb_err_t *e);
/* Drops every entry that names a bucket not in res (its crash.json
 * damaged or gone), so those inputs run again and rebuild it. */
void gbt_seen_forget_lost(gbt_seen_t *s, const gb_triage_result_t *res);
/* Puts every input of res's buckets into s: a damaged index is rebuilt
 * from the buckets. 0, or -1 when out of memory. */
int gbt_seen_merge(gbt_seen_t *s, const gb_triage_result_t *res);

#endif
