/* SPDX-License-Identifier: Apache-2.0 */
/* Seed loading: every visible regular file of a directory tree, sorted by
 * name, each at most GB_MAX_INPUT bytes (what AFL++ would still sync); a
 * file that cannot be a seed is reported and skipped, as AFL++ and libFuzzer
 * do, so one stray file does not stop a campaign. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corpus.h"

/* Subfolders deeper than this are skipped: a seed tree is never that deep,
 * and it bounds the recursion whatever the file system holds. */
#define MAX_DEPTH 32

/* A directory being walked, and the ones it sits in: a symlink back to one
 * of them would make the walk endless. */
typedef struct walk_dir {
    dev_t dev;
    ino_t ino;
    const struct walk_dir *up;
    int depth;
} walk_dir_t;

typedef struct load {
    const char *root;
    gb_seed_skip_fn *skip;
    void *ctx;
    gb_seed_t *v;
    size_t n, cap, skipped;
    gb_err_t *e;
} load_t;

static int seed_cmp(const void *a, const void *b)
{
    return strcmp(((const gb_seed_t *)a)->name, ((const gb_seed_t *)b)->name);
}

static void skip(load_t *l, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 1 if `s` holds a byte below 0x20 or DEL: a name no queue file name
 * ("orig:NAME") may carry, and that would break a one-line warning. */
static int has_control(const char *s)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            return 1;
    return 0;
}

/* `s` with control bytes shown as '?', cut to fit `n`. */
static const char *shown(const char *s, char *buf, size_t n)
{
    snprintf(buf, n, "%s", s);
    for (char *c = buf; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return buf;
}

/* Tells the caller why `path` is no seed, in one line; the load goes on. */
static void skip(load_t *l, const char *path, const char *fmt, ...)
{
    char why[512], w[512], p[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    l->skipped++;
    if (l->skip)
        l->skip(l->ctx, shown(path, p, sizeof p), shown(why, w, sizeof w));
}

/* The seed's name: its path below the root with '/' made '_', because
 * names end up in queue file names ("orig:NAME"). */
static char *seed_name(const char *rel)
{
    char *s = gb_strdup(rel);
    for (char *p = s; p && *p; p++)
        if (*p == '/')
            *p = '_';
    return s;
}

/* Appends one file to the array, growing it by doubling. */
static int seed_push(load_t *l, const char *path, const char *rel)
{
    if (gb_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v, 16) != 0)
        return gb_err_set(l->e, "out of memory loading seeds from %s", l->root);
    gb_seed_t *s = &l->v[l->n];
    memset(s, 0, sizeof *s);
    s->name = seed_name(rel);
    if (!s->name)
        return gb_err_set(l->e, "out of memory loading seeds from %s", l->root);
    if (gb_read_file(path, GB_MAX_INPUT, &s->data, &s->len, l->e) != 0) {
        gb_free(s->name);
        return -1;
    }
    l->n++;
    return 0;
}

static int walk(load_t *l, const char *path, const char *rel, const walk_dir_t *up);

/* One directory entry: a seed, a subfolder to walk, or something skipped. */
static int visit(load_t *l, const char *path, const char *rel, const walk_dir_t *up)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        int err = errno;
        struct stat lst;
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
            skip(l, path, "a symbolic link to nothing (%s)", strerror(err));
        else
            skip(l, path, "cannot stat it: %s", strerror(err));
        return 0;
    }
    if (S_ISDIR(st.st_mode))
        return walk(l, path, rel, up);
    if (!S_ISREG(st.st_mode)) {
        skip(l, path, "not a regular file");
        return 0;
    }
    if ((uint64_t)st.st_size > GB_MAX_INPUT) {
        skip(l, path, "too large (%lld bytes, limit %u)", (long long)st.st_size, GB_MAX_INPUT);
        return 0;
    }
    /* Opened once here so an unreadable file is skipped, and a failure of
     * the read itself (out of memory) still stops the load. */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        skip(l, path, "cannot open it: %s", strerror(errno));
        return 0;
    }
    close(fd);
    return seed_push(l, path, rel);
}

/* 1 if (dev, ino) is `d` or a directory it sits in. */
static int on_path(const walk_dir_t *d, const struct stat *st)
{
    for (; d; d = d->up)
        if (d->dev == st->st_dev && d->ino == st->st_ino)
            return 1;
    return 0;
}

static int walk_entries(load_t *l, DIR *d, const char *path, const char *rel,
                        const walk_dir_t *here)
{
    struct dirent *de;
    errno = 0;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') /* hidden, ".", "..": AFL++ skips them too */
            continue;
        char sub[4096], subrel[4096];
        if (has_control(de->d_name)) {
            snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
            skip(l, sub, "its name holds a line break or a control byte");
        } else if ((size_t)snprintf(sub, sizeof sub, "%s/%s", path, de->d_name) >= sizeof sub ||
            (size_t)snprintf(subrel, sizeof subrel, "%s%s%s", rel, *rel ? "/" : "", de->d_name) >=
                sizeof subrel)
            skip(l, path, "a path below it is too long (%s)", de->d_name);
        else if (visit(l, sub, subrel, here) != 0)
            return -1;
        errno = 0;
    }
    return errno ? gb_err_sys(l->e, "cannot read seed directory %s", path) : 0;
}

/* The files of directory `path` (`rel` below the root, "" for the root). */
static int walk(load_t *l, const char *path, const char *rel, const walk_dir_t *up)
{
    struct stat st;
    DIR *d = opendir(path);
    if (!d || fstat(dirfd(d), &st) != 0) {
        int err = errno;
        if (d)
            closedir(d);
        if (!up)
            return gb_err_sys(l->e, "cannot open seed directory %s", path);
        skip(l, path, "cannot open the folder: %s", strerror(err));
        return 0;
    }
    walk_dir_t here = {st.st_dev, st.st_ino, up, up ? up->depth + 1 : 0};
    int rc = 0;
    if (on_path(up, &st))
        skip(l, path, "a folder that links back to one it is in");
    else if (here.depth > MAX_DEPTH)
        skip(l, path, "more than %d folders deep", MAX_DEPTH);
    else
        rc = walk_entries(l, d, path, rel, &here);
    closedir(d);
    return rc;
}

int gb_seeds_load(const char *dir, gb_seed_skip_fn *skip_fn, void *ctx, gb_seed_t **seeds,
                  size_t *n, gb_err_t *e)
{
    *seeds = NULL;
    *n = 0;
    load_t l = {.root = dir, .skip = skip_fn, .ctx = ctx, .e = e};
    int rc = walk(&l, dir, "", NULL);
    if (rc == 0 && l.n == 0 && l.skipped == 0)
        rc = gb_err_set(e, "no seed files in %s", dir);
    else if (rc == 0 && l.n == 0)
        rc = gb_err_set(e, "no usable seed in %s: %zu skipped (see the warnings)", dir, l.skipped);
    if (rc != 0) {
        gb_seeds_free(l.v, l.n);
        return -1;
    }
    qsort(l.v, l.n, sizeof *l.v, seed_cmp);
    *seeds = l.v;
    *n = l.n;
    return 0;
}

void gb_seeds_free(gb_seed_t *seeds, size_t n)
{
    for (size_t i = 0; seeds && i < n; i++) {
        gb_free(seeds[i].name);
        gb_free(seeds[i].data);
    }
    gb_free(seeds);
}
