/* SPDX-License-Identifier: Apache-2.0 */
/* Base services shared by every Glassbox library: one allocation wrapper
 * (so tests can inject failure), error messages, files written atomically,
 * and a clock. Library code returns a status and never exits. */
#ifndef GB_BASE_H
#define GB_BASE_H

#include <stddef.h>
#include <stdint.h>

#include "gb_hmap.h"

/* Error: a one-line message, set by the function that failed. */
typedef struct gb_err {
    char msg[512];
} gb_err_t;

/* Formats `fmt` into `e` (if not NULL) and returns -1, so callers can write
 * `return gb_err_set(e, "...")`. */
int gb_err_set(gb_err_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Like gb_err_set, and appends ": strerror(errno)". */
int gb_err_sys(gb_err_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Allocation. All return NULL on failure (never abort). */
void *gb_malloc(size_t n);
void *gb_calloc(size_t n, size_t size);
void *gb_realloc(void *p, size_t n);
char *gb_strdup(const char *s);
void gb_free(void *p);

/* Makes room for `need` elements of `size` bytes in the array whose pointer
 * is at `arrp` (a T **) and whose capacity is *cap: doubles it, starting at
 * `first`, until it holds `need`. 0, or -1 with the array unchanged. */
int gb_grow(void *arrp, size_t *cap, size_t need, size_t size, size_t first);

/* Test hook: after `n` more successful allocations, every allocation fails.
 * n < 0 turns injection off (the default). */
void gb_alloc_fail_after(long n);

/* Writes `len` bytes to `path` atomically: the data go to a fresh file in
 * `tmpdir` (same file system as path), are flushed, then renamed onto
 * `path`. A reader never sees a partial file. Returns 0 or -1 with `e`. */
int gb_write_atomic(const char *path, const char *tmpdir, const void *data, size_t len,
                    gb_err_t *e);

/* Reads a whole file of at most `max` bytes into a fresh buffer (free with
 * gb_free). Returns 0 or -1 with `e`. */
int gb_read_file(const char *path, size_t max, uint8_t **data, size_t *len, gb_err_t *e);

/* Reads `name` inside the directory open as `dirfd` like gb_read_file,
 * for files a peer may have planted: a symlink is never followed
 * (O_NOFOLLOW), anything but a regular file is refused, and the size limit
 * is checked before a byte is read. */
int gb_read_file_at(int dirfd, const char *name, size_t max, uint8_t **data, size_t *len,
                    gb_err_t *e);

/* Creates a directory and its parents (mode 0755); 0 if it exists. */
int gb_mkdirs(const char *path, gb_err_t *e);

/* Milliseconds: wall clock since the epoch, and a monotonic clock. */
uint64_t gb_time_ms(void);
uint64_t gb_mono_ms(void);

/* The first index i < n of the ascending array v with v[i] >= x, or n. */
size_t gb_lower_u64(const uint64_t *v, size_t n, uint64_t x);

/* XXH3-64 with a seed, as a plain function (usable as gbt_hash_fn). */
uint64_t gb_hash64(const void *data, size_t len, uint64_t seed);

/* A set of 64-bit hashes (inputs already run, crash signatures, names
 * already seen): a gb_hmap.h map. Zero-initialise; free with gb_hset_free. */
typedef struct gb_hkey {
    uint64_t key; /* 0 = empty slot; the hash 0 is stored as 1 */
} gb_hkey_t;
GB_HMAP_KEYED_TYPE(gb_u64set, gb_hkey_t)
typedef gb_u64set_t gb_hset_t;

int gb_hset_add(gb_hset_t *h, uint64_t key); /* 1 if new, 0 if present, -1 on OOM */
int gb_hset_has(const gb_hset_t *h, uint64_t key);
void gb_hset_free(gb_hset_t *h);

/* Writes `s` into `out` (capacity `cap` > 0, always terminated) fit for a
 * terminal or a one-line log: printable ASCII as it is, a backslash as
 * \\, every other byte (controls, escape sequences, line breaks, bytes
 * above 0x7e) as \xNN. A name is data: this is how one reaches the
 * screen. Returns `out`; a name that does not fit ends in "...". */
char *gb_text_printable(char *out, size_t cap, const char *s);

/* SHA-1 of the data as 40 lowercase hex digits plus NUL: libFuzzer's file
 * names for corpus entries. */
void gb_sha1_hex(const void *data, size_t len, char out[41]);

#endif
