/* SPDX-License-Identifier: Apache-2.0 */
/* The crashing inputs under triage's -i paths: AFL++'s and Glassbox's
 * crashes/ (an instance dir, or every instance of a sync dir), libFuzzer's
 * artifacts and plain files. Directories are read one level deep and never
 * through a symbolic link: crash dirs are written by fuzzers and by
 * whoever else shares the machine. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_config.h"
#include "triage.h"

static int add_input(gb_triage_inputs_t *in, const char *path, const char *engine, const char *skip)
{
    if (gb_grow(&in->v, &in->cap, in->n + 1, sizeof *in->v, 64) != 0)
        return -1;
    char *p = gb_strdup(path);
    if (!p)
        return -1;
    in->v[in->n++] = (gb_triage_input_t){p, engine, skip};
    return 0;
}

static int add_str(char ***v, size_t *n, size_t *cap, const char *s)
{
    if (gb_grow(v, cap, *n + 1, sizeof **v, 8) != 0)
        return -1;
    if (!((*v)[*n] = gb_strdup(s)))
        return -1;
    (*n)++;
    return 0;
}

/* Whose naming scheme a file name follows. */
static const char *engine_of(const char *name)
{
    static const char *const lf[] = {"crash-", "leak-", "timeout-", "oom-", "slow-unit-"};
    if (strncmp(name, "id:", 3) == 0 || strncmp(name, "id_", 3) == 0)
        return "afl";
    for (size_t i = 0; i < sizeof lf / sizeof lf[0]; i++)
        if (strncmp(name, lf[i], strlen(lf[i])) == 0)
            return "libfuzzer";
    return "plain";
}

/* Why the entry `name` of the open directory is not an input, or NULL. */
static const char *why_not(int dfd, const char *name)
{
    struct stat st;
    if (name[0] == '.')
        return "hidden file";
    if (strncmp(name, "README", 6) == 0)
        return "not an input (README)";
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return "cannot be read";
    if (S_ISLNK(st.st_mode))
        return "symbolic link (never followed)";
    if (S_ISDIR(st.st_mode))
        return "directory";
    if (!S_ISREG(st.st_mode))
        return "not a regular file";
    if ((uint64_t)st.st_size > GB_MAX_INPUT)
        return "larger than the input size limit";
    return NULL;
}

/* 1 if dir/sub is a directory (not a link to one). */
static int has_subdir(int dfd, const char *sub)
{
    struct stat st;
    return fstatat(dfd, sub, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

/* Every entry of one directory; *found counts the inputs. */
static int scan_dir(gb_triage_inputs_t *in, const char *dir, size_t *found)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return add_str(&in->missing, &in->nmissing, &in->capm, dir);
    }
    int rc = 0;
    struct dirent *de;
    char path[4096];
    while (rc == 0 && (de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >= (int)sizeof path)
            continue;
        const char *skip = why_not(dirfd(d), de->d_name);
        rc = add_input(in, path, engine_of(de->d_name), skip);
        if (!skip)
            (*found)++;
    }
    closedir(d);
    return rc;
}

/* A sync dir: its subdirectories that have a crashes/ (never through a
 * link). 1 if it was one. */
static int scan_sync(gb_triage_inputs_t *in, const char *dir, int dfd, size_t *found, int *rc)
{
    DIR *d = fdopendir(dup(dfd));
    if (!d)
        return 0;
    int any = 0;
    struct dirent *de;
    char sub[4096], crashes[4096];
    while (*rc == 0 && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof sub, "%s/crashes", de->d_name);
        if (!has_subdir(dirfd(d), de->d_name) || !has_subdir(dirfd(d), sub))
            continue;
        if (snprintf(crashes, sizeof crashes, "%s/%s/crashes", dir, de->d_name) >=
            (int)sizeof crashes)
            continue;
        any = 1;
        *rc = scan_dir(in, crashes, found);
    }
    closedir(d);
    return any;
}

static int collect_one(gb_triage_inputs_t *in, const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return add_str(&in->missing, &in->nmissing, &in->capm, path);
    if (S_ISREG(st.st_mode)) {
        const char *base = strrchr(path, '/');
        const char *skip =
            (uint64_t)st.st_size > GB_MAX_INPUT ? "larger than the input size limit" : NULL;
        return add_input(in, path, engine_of(base ? base + 1 : path), skip);
    }
    if (!S_ISDIR(st.st_mode))
        return add_input(in, path, "plain",
                         S_ISLNK(st.st_mode) ? "symbolic link (never followed)"
                                             : "not a regular file");
    int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return add_str(&in->missing, &in->nmissing, &in->capm, path);
    size_t found = 0;
    int rc = 0;
    char sub[4096];
    if (has_subdir(dfd, "crashes")) {
        snprintf(sub, sizeof sub, "%s/crashes", path);
        rc = scan_dir(in, sub, &found);
    } else if (!scan_sync(in, path, dfd, &found, &rc) && rc == 0) {
        rc = scan_dir(in, path, &found);
    }
    close(dfd);
    if (rc == 0 && found == 0)
        rc = add_str(&in->empty, &in->nempty, &in->cape, path);
    return rc;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const gb_triage_input_t *)a)->path, ((const gb_triage_input_t *)b)->path);
}

int gb_triage_collect(const char *const *paths, size_t n, gb_triage_inputs_t *out, gb_err_t *e)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n; i++)
        if (collect_one(out, paths[i]) != 0) {
            gb_triage_inputs_free(out);
            return gb_err_set(e, "out of memory listing inputs");
        }
    if (out->n > 1)
        qsort(out->v, out->n, sizeof *out->v, by_path);
    return 0;
}

void gb_triage_inputs_free(gb_triage_inputs_t *in)
{
    if (!in)
        return;
    for (size_t i = 0; i < in->n; i++)
        gb_free(in->v[i].path);
    for (size_t i = 0; i < in->nmissing; i++)
        gb_free(in->missing[i]);
    for (size_t i = 0; i < in->nempty; i++)
        gb_free(in->empty[i]);
    gb_free(in->v);
    gb_free(in->missing);
    gb_free(in->empty);
    memset(in, 0, sizeof *in);
}
