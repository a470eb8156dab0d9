/* SPDX-License-Identifier: Apache-2.0 */
/* fuzzer_stats and plot_data of a campaign directory, in AFL++ 4.04c's
 * formats: the stats file is replaced atomically, plot rows are appended
 * one write each. Also reads an earlier session's fuzzer_stats (resume). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corpus.h"

#define STAT_KEY_WIDTH 18 /* AFL++ pads fuzzer_stats keys to this column */

static const char PLOT_HEADER[] =
    "# relative_time, cycles_done, cur_item, corpus_count, pending_total, pending_favs, "
    "map_size, saved_crashes, saved_hangs, max_depth, execs_per_sec, total_execs, "
    "edges_found\n";

static const char *stat_value(const gb_stat_t *s) { return s->text ? s->text : s->value; }

static int valid_stat(const gb_stat_t *s, gb_err_t *e)
{
    if (!s->key || !*s->key || strpbrk(s->key, ":\n\r"))
        return gb_err_set(e, "bad fuzzer_stats key '%s'", s->key ? s->key : "");
    if ((!s->text && strnlen(s->value, sizeof s->value) == sizeof s->value) ||
        strpbrk(stat_value(s), "\n\r"))
        return gb_err_set(e, "bad fuzzer_stats value for %s", s->key);
    return 0;
}

int gb_campaign_write_stats(gb_campaign_t *c, const gb_stat_t *stats, size_t n, gb_err_t *e)
{
    size_t cap = 1;
    for (size_t i = 0; i < n; i++) {
        if (valid_stat(&stats[i], e) != 0)
            return -1;
        size_t k = strlen(stats[i].key);
        cap += (k > STAT_KEY_WIDTH ? k : STAT_KEY_WIDTH) + 2 + strlen(stat_value(&stats[i])) + 1;
    }
    char *buf = gb_malloc(cap);
    if (!buf)
        return gb_err_set(e, "out of memory writing fuzzer_stats");
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%-*s: %s\n", STAT_KEY_WIDTH, stats[i].key,
                                stat_value(&stats[i]));
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/fuzzer_stats", gb_campaign_dir(c));
    int rc = gb_write_atomic(path, gb_campaign_tmpdir(c), buf, len, e);
    gb_free(buf);
    return rc;
}

static int write_once(int fd, const char *s, size_t n)
{
    ssize_t w;
    do
        w = write(fd, s, n);
    while (w < 0 && errno == EINTR);
    return w == (ssize_t)n ? 0 : -1;
}

int gb_campaign_plot(gb_campaign_t *c, const gb_plot_row_t *r, gb_err_t *e)
{
    char path[PATH_MAX], row[512];
    snprintf(path, sizeof path, "%s/plot_data", gb_campaign_dir(c));
    /* Same field formats as AFL++ 4.04c's plot_data rows. */
    int n = snprintf(row, sizeof row,
                     "%llu, %llu, %llu, %llu, %llu, %llu, %0.02f%%, %llu, %llu, %llu, %0.02f, "
                     "%llu, %llu\n",
                     (unsigned long long)r->relative_time, (unsigned long long)r->cycles_done,
                     (unsigned long long)r->cur_item, (unsigned long long)r->corpus_count,
                     (unsigned long long)r->pending_total, (unsigned long long)r->pending_favs,
                     r->map_size, (unsigned long long)r->saved_crashes,
                     (unsigned long long)r->saved_hangs, (unsigned long long)r->max_depth,
                     r->execs_per_sec, (unsigned long long)r->total_execs,
                     (unsigned long long)r->edges_found);
    if (n < 0 || (size_t)n >= sizeof row)
        return gb_err_set(e, "plot_data row too long");
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return gb_err_sys(e, "cannot open %s", path);
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0)
        rc = gb_err_sys(e, "cannot stat %s", path);
    else if (st.st_size == 0 && write_once(fd, PLOT_HEADER, sizeof PLOT_HEADER - 1) != 0)
        rc = gb_err_sys(e, "cannot write %s", path);
    /* One write per row: O_APPEND keeps it whole for a reader tailing it. */
    if (rc == 0 && write_once(fd, row, (size_t)n) != 0)
        rc = gb_err_sys(e, "cannot write %s", path);
    close(fd);
    return rc;
}

/* The first of the "key : value" lines of `text` whose key is `key`, or
 * NULL. */
static char *stat_line(const char *text, const char *key)
{
    size_t k = strlen(key);
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
        if (strncmp(line, key, k) == 0 && (line[k] == ' ' || line[k] == ':'))
            return (char *)line;
    return NULL;
}

/* Looks `key` up among the "key : value" lines of `text`. */
static int stat_lookup(const char *text, const char *key, uint64_t *v)
{
    const char *line = stat_line(text, key);
    unsigned long long x;
    if (!line || sscanf(line + strlen(key), " : %llu", &x) != 1)
        return 0;
    *v = x;
    return 1;
}

int gb_campaign_parse_stats(const uint8_t *data, size_t len, const char *const *keys,
                            uint64_t *vals, size_t n)
{
    char *text = gb_malloc(len + 1);
    if (!text)
        return 0;
    memcpy(text, data, len);
    text[len] = '\0';
    int found = 0;
    for (size_t i = 0; i < n; i++)
        found += stat_lookup(text, keys[i], &vals[i]);
    gb_free(text);
    return found;
}

int gb_campaign_read_stats(const gb_campaign_t *c, const char *const *keys, uint64_t *vals,
                           size_t n)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/fuzzer_stats", gb_campaign_dir(c));
    uint8_t *data;
    size_t len;
    if (gb_read_file(path, GB_STATS_MAX, &data, &len, NULL) != 0)
        return 0;
    int found = gb_campaign_parse_stats(data, len, keys, vals, n);
    gb_free(data);
    return found;
}

int gb_stats_raise(const char *dir, const char *key, uint64_t v, gb_err_t *e)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/fuzzer_stats", dir) >= (int)sizeof path)
        return gb_err_set(e, "path too long: %s/fuzzer_stats", dir);
    uint8_t *data;
    size_t len;
    if (gb_read_file(path, GB_STATS_MAX, &data, &len, e) != 0)
        return -1;
    char *t = gb_malloc(len + 1), *out = NULL;
    int rc = 0;
    if (!t) {
        rc = gb_err_set(e, "out of memory");
        goto done;
    }
    memcpy(t, data, len);
    t[len] = '\0';
    uint64_t old;
    if (memchr(t, '\0', len) || !stat_lookup(t, key, &old) || old >= v)
        goto done; /* not a stats file of ours, no such number, or high enough */
    char *line = stat_line(t, key); /* the one stat_lookup read */
    char *colon = strchr(line, ':'), *eol = strchr(line, '\n');
    if (!eol)
        eol = t + len;
    char num[32];
    int w = snprintf(num, sizeof num, " %llu", (unsigned long long)v);
    size_t head = (size_t)(colon + 1 - t), tail = len - (size_t)(eol - t);
    if (!(out = gb_malloc(head + (size_t)w + tail))) {
        rc = gb_err_set(e, "out of memory");
        goto done;
    }
    memcpy(out, t, head);
    memcpy(out + head, num, (size_t)w);
    memcpy(out + head + (size_t)w, eol, tail);
    rc = gb_write_atomic(path, dir, out, head + (size_t)w + tail, e) != 0 ? -1 : 1;
done:
    gb_free(out);
    gb_free(t);
    gb_free(data);
    return rc;
}
