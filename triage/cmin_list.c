/* SPDX-License-Identifier: Apache-2.0 */
/* glassbox cmin: the input dirs read into a set of files (regular files
 * only, never through a symlink, size-capped; docs/cmin.md). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmin_int.h"

/* ---- Listing ---------------------------------------------------------- */

void cmin_set_free(cmin_set_t *s)
{
    for (size_t i = 0; i < s->ndirs; i++) {
        if (s->dirs[i].fd >= 0)
            close(s->dirs[i].fd);
        gb_free(s->dirs[i].path);
        gb_free(s->dirs[i].tag);
    }
    for (size_t i = 0; i < s->n; i++) {
        gb_free(s->in[i].name);
        gb_free(s->in[i].trace);
    }
    gb_free(s->dirs);
    gb_free(s->in);
    memset(s, 0, sizeof *s);
}

/* The last component of `path` without trailing slashes, into buf. */
static void base_name(const char *path, char *buf, size_t n)
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    size_t start = len;
    while (start > 0 && path[start - 1] != '/')
        start--;
    size_t k = len - start < n - 1 ? len - start : n - 1;
    memcpy(buf, path + start, k);
    buf[k] = '\0';
}

/* A clashing name's tag: an AFL++ queue is known by its instance
 * (SYNC/NAME/queue gives NAME), anything else by its basename. */
static char *dir_tag(const char *path)
{
    char b[256], parent[4096];
    base_name(path, b, sizeof b);
    if (strcmp(b, "queue") == 0 && strlen(path) < sizeof parent) {
        strcpy(parent, path);
        char *slash = strrchr(parent, '/');
        while (slash && slash[1] == '\0' && slash > parent) { /* trailing slashes */
            *slash = '\0';
            slash = strrchr(parent, '/');
        }
        if (slash && slash > parent) {
            *slash = '\0';
            base_name(parent, b, sizeof b);
        }
    }
    return gb_strdup(b[0] && strcmp(b, "/") != 0 ? b : "in");
}

static int add_dir(cmin_set_t *s, int fd, const char *path, gb_err_t *e)
{
    if (gb_grow(&s->dirs, &s->capd, s->ndirs + 1, sizeof *s->dirs, 4) != 0) {
        close(fd);
        return gb_err_set(e, "out of memory listing %s", path);
    }
    cmin_dir_t *d = &s->dirs[s->ndirs++];
    d->fd = fd;
    d->path = gb_strdup(path);
    d->tag = dir_tag(path);
    return d->path && d->tag ? 0 : gb_err_set(e, "out of memory listing %s", path);
}

static int add_input(cmin_set_t *s, const char *name, uint64_t size, gb_err_t *e)
{
    if (gb_grow(&s->in, &s->cap, s->n + 1, sizeof *s->in, 256) != 0)
        return gb_err_set(e, "out of memory listing inputs");
    cmin_in_t *in = &s->in[s->n];
    memset(in, 0, sizeof *in);
    in->dir = (uint32_t)(s->ndirs - 1);
    in->size = (uint32_t)size;
    if (!(in->name = gb_strdup(name)))
        return gb_err_set(e, "out of memory listing inputs");
    s->n++;
    return 0;
}

/* 1 when directory `fd` has a subdirectory `sub` holding a queue/: then
 * it is an AFL++ sync dir's instance. Nothing is followed. */
static int has_queue(int fd, const char *sub)
{
    int sfd = openat(fd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sfd < 0)
        return 0;
    struct stat st;
    int ok = fstatat(sfd, "queue", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
    close(sfd);
    return ok;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists the visible regular files of the open dir `fd` (taken over) into
 * `s`. Dot files and dirs (.state, .synced, ...) are skipped silently;
 * symlinks, special files and files over GB_MAX_INPUT are skipped and
 * counted. Subdirectories that look like sync-dir instances go into
 * *subs (names, malloc'd) when subs is not NULL. */
static int list_dir(cmin_set_t *s, int fd, const char *path, char ***subs, size_t *nsubs,
                    gb_err_t *e)
{
    if (add_dir(s, fd, path, e) != 0)
        return -1;
    int dfd = dup(fd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return gb_err_sys(e, "cannot read directory %s", path);
    }
    size_t cap = 0;
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (errno = 0, de = readdir(d)) != NULL) {
        struct stat st;
        if (de->d_name[0] == '.')
            continue;
        if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            s->skipped++; /* gone since readdir: a live queue */
            continue;
        }
        if (S_ISDIR(st.st_mode) && subs && has_queue(fd, de->d_name)) {
            if (gb_grow(subs, &cap, *nsubs + 1, sizeof **subs, 8) != 0 ||
                !((*subs)[*nsubs] = gb_strdup(de->d_name)))
                rc = gb_err_set(e, "out of memory listing %s", path);
            else
                (*nsubs)++;
        } else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size <= GB_MAX_INPUT) {
            rc = add_input(s, de->d_name, (uint64_t)st.st_size, e);
        } else {
            s->skipped++;
        }
    }
    if (rc == 0 && errno != 0)
        rc = gb_err_sys(e, "cannot read directory %s", path);
    closedir(d);
    return rc;
}

/* Lists one -i argument: a directory of inputs, or an AFL++ sync dir
 * (no files of its own, instances with a queue/): then every
 * SYNC/<instance>/queue in name order. */
int cmin_list_arg(cmin_set_t *s, const char *path, gb_err_t *e)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOTDIR ? gb_err_set(e, "input %s is not a directory", path)
                                : gb_err_sys(e, "cannot open input directory %s", path);
    size_t before = s->n, skipped = s->skipped, nsubs = 0, top = s->ndirs;
    char **subs = NULL;
    int rc = list_dir(s, fd, path, &subs, &nsubs, e);
    if (rc == 0 && s->n == before && nsubs > 0) {
        qsort(subs, nsubs, sizeof *subs, name_cmp);
        for (size_t i = 0; i < nsubs && rc == 0; i++) {
            char q[4096];
            snprintf(q, sizeof q, "%s/%s/queue", path, subs[i]);
            int ifd =
                openat(s->dirs[top].fd, subs[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            int qfd = ifd >= 0
                          ? openat(ifd, "queue", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                          : -1;
            if (ifd >= 0)
                close(ifd);
            if (qfd < 0)
                continue; /* replaced since the listing */
            rc = list_dir(s, qfd, q, NULL, NULL, e);
        }
    }
    for (size_t i = 0; i < nsubs; i++)
        gb_free(subs[i]);
    gb_free(subs);
    if (rc == 0 && s->n == before)
        rc = s->skipped > skipped
                 ? gb_err_set(e,
                              "no input files in %s (%zu entries skipped: symlinks, "
                              "special files or files over %u bytes)",
                              path, s->skipped - skipped, GB_MAX_INPUT)
                 : gb_err_set(e, "no input files in %s", path);
    return rc;
}

int cmin_in_cmp(const void *a, const void *b)
{
    const cmin_in_t *x = a, *y = b;
    if (x->dir != y->dir)
        return x->dir < y->dir ? -1 : 1;
    return strcmp(x->name, y->name);
}
