/* SPDX-License-Identifier: Apache-2.0 */
/* Seed loading: every visible regular file of a directory, sorted by name,
 * each at most GB_MAX_INPUT bytes (what AFL++ would still sync). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus.h"

static int seed_cmp(const void *a, const void *b)
{
    return strcmp(((const gb_seed_t *)a)->name, ((const gb_seed_t *)b)->name);
}

/* Appends one file to the array, growing it by doubling. */
static int seed_push(gb_seed_t **v, size_t *n, size_t *cap, const char *dir, const char *name,
                     gb_err_t *e)
{
    if (gb_grow(v, cap, *n + 1, sizeof **v, 16) != 0)
        return gb_err_set(e, "out of memory loading seeds from %s", dir);
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
        return gb_err_set(e, "seed path too long: %s/%s", dir, name);
    gb_seed_t *s = &(*v)[*n];
    memset(s, 0, sizeof *s);
    s->name = gb_strdup(name);
    if (!s->name)
        return gb_err_set(e, "out of memory loading seeds from %s", dir);
    if (gb_read_file(path, GB_MAX_INPUT, &s->data, &s->len, e) != 0) {
        gb_free(s->name);
        return -1;
    }
    (*n)++;
    return 0;
}

/* 1 if `dir/name` is a regular file (following symlinks), 0 if it is
 * something else to skip, -1 on error. */
static int is_seed_file(const char *dir, const char *name, gb_err_t *e)
{
    char path[4096];
    struct stat st;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
        return gb_err_set(e, "seed path too long: %s/%s", dir, name);
    if (stat(path, &st) != 0)
        return gb_err_sys(e, "cannot stat %s", path);
    if (!S_ISREG(st.st_mode))
        return 0;
    if ((uint64_t)st.st_size > GB_MAX_INPUT)
        return gb_err_set(e, "seed %s is too large (%lld bytes, limit %u)", path,
                          (long long)st.st_size, GB_MAX_INPUT);
    return 1;
}

int gb_seeds_load(const char *dir, gb_seed_t **seeds, size_t *n, gb_err_t *e)
{
    *seeds = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return gb_err_sys(e, "cannot open seed directory %s", dir);
    gb_seed_t *v = NULL;
    size_t cnt = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    errno = 0;
    while (rc == 0 && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        int k = is_seed_file(dir, de->d_name, e);
        if (k < 0)
            rc = -1;
        else if (k > 0)
            rc = seed_push(&v, &cnt, &cap, dir, de->d_name, e);
        errno = 0;
    }
    if (rc == 0 && errno != 0)
        rc = gb_err_sys(e, "cannot read seed directory %s", dir);
    closedir(d);
    if (rc == 0 && cnt == 0)
        rc = gb_err_set(e, "no seed files in %s", dir);
    if (rc != 0) {
        gb_seeds_free(v, cnt);
        return -1;
    }
    qsort(v, cnt, sizeof *v, seed_cmp);
    *seeds = v;
    *n = cnt;
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
