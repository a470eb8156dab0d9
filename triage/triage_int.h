/* SPDX-License-Identifier: Apache-2.0 */
/* triage/ internals (tjson.c, seen.c) shared by triage.c, report.c and sarif.c:
 * frames and run results to and from JSON, and small file helpers. */
#ifndef GB_TRIAGE_INT_H
#define GB_TRIAGE_INT_H

#include <json-c/json.h>

#include "triage.h"

/* Frames as [{"function","file","line","module","offset","in_state"}]
 * (in_state: one of the top `state_frames` of the crash state) and back
 * (fields missing in the JSON stay empty). NULL / -1 when out of memory. */
json_object *gb_tj_frames_json(const gb_frame_t *f, size_t n, unsigned state_frames);
int gb_tj_frames_from_json(json_object *a, gb_frame_t **f, size_t *n);

/* "ok", "crash", "timeout", "error". */
const char *gb_tj_status_name(gb_run_status_t s);
gb_run_status_t gb_tj_status_of(const char *name);

/* A JSON object's string / integer member, or the default. */
const char *gb_tj_str(json_object *o, const char *key, const char *def);
int64_t gb_tj_int(json_object *o, const char *key, int64_t def);
int gb_tj_bool(json_object *o, const char *key); /* 0 when missing */

/* Serializes `doc` (pretty, with a final newline) into `name` in the
 * directory `dirfd` atomically, staged in `tmpfd` (gb_file_write_at:
 * never through a symlink). */
int gb_tj_write_json_at(int dirfd, const char *name, int tmpfd, json_object *doc, gb_err_t *e);

/* Strings from file names and binaries may hold any bytes, and JSON must
 * be UTF-8 (docs/triage.md, "Names that are not UTF-8"). 1 when `s` is
 * valid UTF-8. */
int gb_tj_utf8_valid(const char *s);
/* A JSON string of `s` with every byte that is not part of valid UTF-8
 * replaced by U+FFFD (NULL = ""). */
json_object *gb_tj_jstr(const char *s);
/* Adds `key`: gb_tj_jstr(v), and when v is not valid UTF-8 also
 * `key`_hex: v's exact bytes in lowercase hex, so nothing is lost. */
void gb_tj_add_str(json_object *o, const char *key, const char *v);
/* The exact string gb_tj_add_str wrote: from `key`_hex when present, else
 * `key` (or def). malloc'd; NULL when out of memory. */
char *gb_tj_raw_str(json_object *o, const char *key, const char *def);

/* ISO 8601 UTC of a gb_time_ms value into out[32]. */
void gb_tj_iso_time(uint64_t ms, char out[32]);
/* And back; 0 when it is not one. */
uint64_t gb_tj_parse_iso_time(const char *s);

/* The top state frame that has a file, for locations: its index in
 * b->frames, or -1. */
long gb_tj_top_located_frame(const gb_bucket_t *b);

/* ---- REPORT/.seen (seen.c) ---------------------------------------------- */

/* One line per input, JSON: {"sha1","outcome","path","seen"}; outcome is
 * a bucket id or "no-crash". Failed runs are not remembered: they are
 * tried again next time. */
typedef struct gb_tj_seen_entry {
    char sha1[41];
    char outcome[24];
    char *path;
    uint64_t ms;
} gb_tj_seen_entry_t;

typedef struct gb_tj_seen {
    gb_tj_seen_entry_t *v;
    size_t n, cap;
    gb_hset_t set; /* hashes of sha1 (gb_tj_sha_key) */
} gb_tj_seen_t;

uint64_t gb_tj_sha_key(const char *sha1);
/* 0, or -1 when out of memory. */
int gb_tj_seen_add(gb_tj_seen_t *s, const char *sha1, const char *outcome, const char *path,
                   uint64_t ms);
void gb_tj_seen_free(gb_tj_seen_t *s);
/* Reads REPORT/.seen from the report dir `rfd` (absent: empty). A line
 * that is not one of ours, or a .seen that is not a regular file, sets
 * *damaged; the good lines are kept. -1 only when out of memory. */
int gb_tj_seen_load(gb_tj_seen_t *s, int rfd, int *damaged, gb_err_t *e);
/* Writes it back atomically (staged in `tmpfd`). */
int gb_tj_seen_save(const gb_tj_seen_t *s, int rfd, int tmpfd, gb_err_t *e);
/* Drops every entry that names a bucket not in res (its crash.json
 * damaged or gone), so those inputs run again and rebuild it. */
void gb_tj_seen_forget_lost(gb_tj_seen_t *s, const gb_triage_result_t *res);
/* Puts every input of res's buckets into s: a damaged index is rebuilt
 * from the buckets. 0, or -1 when out of memory. */
int gb_tj_seen_merge(gb_tj_seen_t *s, const gb_triage_result_t *res);

#endif
