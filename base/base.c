/* SPDX-License-Identifier: Apache-2.0 */
/* Base services: allocation wrapper with failure injection, errors, atomic
 * file writes. See gb_base.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gb_base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

static long fail_after = -1;

static int alloc_allowed(void)
{
    if (fail_after < 0)
        return 1;
    if (fail_after == 0)
        return 0;
    fail_after--;
    return 1;
}

void gb_alloc_fail_after(long n) { fail_after = n; }

void *gb_malloc(size_t n) { return alloc_allowed() ? malloc(n ? n : 1) : NULL; }

void *gb_calloc(size_t n, size_t size)
{
    return alloc_allowed() ? calloc(n ? n : 1, size ? size : 1) : NULL;
}

void *gb_realloc(void *p, size_t n) { return alloc_allowed() ? realloc(p, n ? n : 1) : NULL; }

char *gb_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = gb_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

int gb_grow(void *arrp, size_t *cap, size_t need, size_t size, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : (first ? first : 1);
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return -1;
        nc *= 2;
    }
    if (size && nc > SIZE_MAX / size)
        return -1;
    void *old;
    memcpy(&old, arrp, sizeof old); /* arrp is a T **: no aliasing through void ** */
    void *grown = gb_realloc(old, nc * size);
    if (!grown)
        return -1;
    memcpy(arrp, &grown, sizeof grown);
    *cap = nc;
    return 0;
}

void gb_free(void *p) { free(p); }

int gb_err_set(gb_err_t *e, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int gb_err_sys(gb_err_t *e, const char *fmt, ...)
{
    int saved = errno;
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < sizeof e->msg)
            snprintf(e->msg + n, sizeof e->msg - (size_t)n, ": %s", strerror(saved));
    }
    errno = saved;
    return -1;
}

/* Reads the open regular file `fd` (closed here) of at most `max` bytes. */
static int read_fd(int fd, const char *what, size_t max, uint8_t **data, size_t *len, gb_err_t *e)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return gb_err_set(e, "%s is not a regular file", what);
    }
    if ((uint64_t)st.st_size > max) {
        close(fd);
        return gb_err_set(e, "%s is too large (%lld bytes, limit %zu)", what,
                          (long long)st.st_size, max);
    }
    size_t n = (size_t)st.st_size, got = 0;
    uint8_t *buf = gb_malloc(n);
    if (!buf) {
        close(fd);
        return gb_err_set(e, "out of memory reading %s", what);
    }
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (got != n) {
        gb_free(buf);
        return gb_err_set(e, "short read on %s", what);
    }
    *data = buf;
    *len = n;
    return 0;
}

int gb_read_file(const char *path, size_t max, uint8_t **data, size_t *len, gb_err_t *e)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gb_err_sys(e, "cannot open %s", path);
    return read_fd(fd, path, max, data, len, e);
}

int gb_read_file_at(int dirfd, const char *name, size_t max, uint8_t **data, size_t *len,
                    gb_err_t *e)
{
    /* O_NONBLOCK: a FIFO planted in place of a file must not block the open. */
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return errno == ELOOP ? gb_err_set(e, "%s is a symbolic link: not followed", name)
                              : gb_err_sys(e, "cannot open %s", name);
    return read_fd(fd, name, max, data, len, e);
}

uint64_t gb_time_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

uint64_t gb_mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

size_t gb_lower_u64(const uint64_t *v, size_t n, uint64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t gb_hash64(const void *data, size_t len, uint64_t seed)
{
    return XXH3_64bits_withSeed(data, len, seed);
}

char *gb_text_printable(char *out, size_t cap, const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char one[8];
        int w = *p == '\\' ? snprintf(one, sizeof one, "\\\\")
                : (*p < 0x20 || *p > 0x7e) ? snprintf(one, sizeof one, "\\x%02x", *p)
                                           : snprintf(one, sizeof one, "%c", *p);
        if (n + (size_t)w + 4 > cap) {
            snprintf(out + n, cap - n, "%s", cap - n > 3 ? "..." : "");
            return out;
        }
        memcpy(out + n, one, (size_t)w);
        n += (size_t)w;
    }
    out[n] = '\0';
    return out;
}
