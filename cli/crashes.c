/* SPDX-License-Identifier: Apache-2.0 */
/* End-of-run crash summaries for fuzz and campaign, counted from the files
 * on disk (not from counters), so what they say is what a person finds. */
#include "crashes.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corpus.h"
#include "live.h"

static int has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* AFL++'s and Glassbox's crash names; README.txt and dot files are not crashes. */
static int is_afl_crash(const char *name)
{
    return has_prefix(name, "id:") || has_prefix(name, "id_");
}

/* libFuzzer's timeout-, oom- and slow-unit- artifacts are what AFL++ calls hangs. */
static int is_lf_crash(const char *name) { return has_prefix(name, "crash-"); }
static int is_lf_leak(const char *name) { return has_prefix(name, "leak-"); }

/* Regular files in DIR whose names `is_crash` accepts; 0 when DIR is missing. */
static long count_in(const char *dir, int (*is_crash)(const char *))
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    long n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        struct stat st;
        if (is_crash(de->d_name) && fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(st.st_mode))
            n++;
    }
    closedir(d);
    return n;
}

static void add_dir(gb_crashes_t *c, const char *path, const char *glob, long n)
{
    c->total += n;
    if (n <= 0 || c->ndirs >= GB_CRASH_DIRS_MAX)
        return;
    gb_crashdir_t *d = &c->dirs[c->ndirs++];
    snprintf(d->path, sizeof d->path, "%s", path);
    d->glob = glob;
    d->n = n;
}

static void add_instance(gb_crashes_t *c, const char *sync_dir, const char *name)
{
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s/crashes", sync_dir, name) < sizeof path)
        add_dir(c, path, "id:*", count_in(path, is_afl_crash));
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const gb_crashdir_t *)a)->path, ((const gb_crashdir_t *)b)->path);
}

void gb_crashes_scan(const char *sync_dir, const char *name, gb_crashes_t *c)
{
    memset(c, 0, sizeof *c);
    if (name) {
        add_instance(c, sync_dir, name);
        return;
    }
    DIR *d = opendir(sync_dir);
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL)
        if (de->d_name[0] != '.')
            add_instance(c, sync_dir, de->d_name);
    if (d)
        closedir(d);
    qsort(c->dirs, c->ndirs, sizeof c->dirs[0], by_path); /* readdir's order is arbitrary */
    char lf[PATH_MAX];
    if ((size_t)snprintf(lf, sizeof lf, "%s/libfuzzer-crashes", sync_dir) >= sizeof lf)
        return;
    add_dir(c, lf, "crash-*", count_in(lf, is_lf_crash));
    add_dir(c, lf, "leak-*", count_in(lf, is_lf_leak));
}

static void print_count(FILE *out, const gb_crash_summary_t *s, const gb_crashes_t *c)
{
    fprintf(out, "glassbox %s: %ld crash%s saved:", s->cmd, c->total, c->total == 1 ? "" : "es");
    for (size_t i = 0; i < c->ndirs; i++) { /* libFuzzer's dir holds timeouts too: a glob */
        const gb_crashdir_t *d = &c->dirs[i];
        int afl = strcmp(d->glob, "id:*") == 0;
        fprintf(out, "%s %ld in %s/%s", i ? "," : "", d->n, d->path, afl ? "" : d->glob);
    }
    long b = s->triage_dir ? gb_live_buckets(s->triage_dir) : -1;
    if (b >= 0)
        fprintf(out, "; %ld distinct bug%s (live triage: %s/)", b, b == 1 ? "" : "s",
                s->triage_dir);
    fputc('\n', out);
}

/* The replay command crashes/README.txt gives, over every directory. */
static void print_replay(FILE *out, const gb_crash_summary_t *s, const gb_crashes_t *c)
{
    fprintf(out, "glassbox %s: replay them with: " GB_CRASH_REPLAY, s->cmd);
    for (size_t i = 0; i < c->ndirs; i++)
        fprintf(out, " %s/%s", c->dirs[i].path, c->dirs[i].glob);
    fprintf(out, " -- %s", s->asan_bin ? s->asan_bin : GB_CRASH_REPLAY_ASAN);
    if (c->ndirs == 1 && strcmp(c->dirs[0].glob, "id:*") == 0)
        fprintf(out, " (see %s/README.txt)\n", c->dirs[0].path);
    else
        fprintf(out, " (each crashes/README.txt says more)\n");
}

void gb_crashes_print(FILE *out, const gb_crash_summary_t *s, const gb_crashes_t *c)
{
    if (c->total == 0) {
        fprintf(out, "glassbox %s: no crashes saved in %s\n", s->cmd, s->where);
        return;
    }
    print_count(out, s, c);
    if (!s->quiet)
        print_replay(out, s, c);
}

const char *gb_crashes_asan_bin(const char *triage_bin, const char *cov_bin, char *buf,
                                size_t cap)
{
    if (triage_bin)
        return triage_bin;
    size_t n = strlen(cov_bin);
    if (n <= 4 || strcmp(cov_bin + n - 4, ".cov") != 0 || n + 2 > cap)
        return NULL;
    snprintf(buf, cap, "%.*s.asan", (int)(n - 4), cov_bin);
    return access(buf, X_OK) == 0 ? buf : NULL;
}
