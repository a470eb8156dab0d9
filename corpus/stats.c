/* SPDX-License-Identifier: Apache-2.0 */
/* fuzzer_stats and plot_data of a campaign directory, in AFL++ 4.04c's
 * formats, and Glassbox's own expansions.tsv: the stats file is replaced
 * atomically, rows are appended one write each. Also reads an earlier
 * session's fuzzer_stats (resume). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corpus.h"
#include "corpus_int.h"
#include "gb_files.h"

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

/* fuzzer_stats, plot_data and expansions.tsv are ours alone: a symlink planted in their
 * place is removed (the link, never what it points to), so the campaign
 * goes on with a file of its own. A FIFO or a directory there stays, and
 * the write refuses it. */
static void unplant(int dfd, const char *name)
{
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        gb_file_remove_at(dfd, name);
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
    gb_err_t sub = {{0}};
    int dfd = gb_campaign_dirfd(c);
    unplant(dfd, "fuzzer_stats");
    int rc = gb_file_write_at(dfd, "fuzzer_stats", gb_campaign_tmpfd(c), buf, len, &sub);
    gb_free(buf);
    if (rc != 0) {
        int err = errno;
        gb_err_set(e, "%s/fuzzer_stats: %s", gb_campaign_dir(c), sub.msg);
        errno = err;
    }
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

/* Appends one row to the instance's file `name`, with one write (O_APPEND
 * keeps it whole for a reader tailing it); a new or empty file gets
 * `header` first. */
int gb_campaign_append_row(gb_campaign_t *c, const char *name, const char *header,
                           const char *row, size_t n, gb_err_t *e)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", gb_campaign_dir(c), name);
    gb_err_t sub = {{0}};
    unplant(gb_campaign_dirfd(c), name);
    int fd = gb_file_open_at(gb_campaign_dirfd(c), name, GB_OPEN_APPEND, &sub);
    if (fd < 0) {
        int err = errno;
        gb_err_set(e, "%s: %s", path, sub.msg);
        errno = err;
        return -1;
    }
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0)
        rc = gb_err_sys(e, "cannot stat %s", path);
    else if (st.st_size == 0 && write_once(fd, header, strlen(header)) != 0)
        rc = gb_err_sys(e, "cannot write %s", path);
    if (rc == 0 && write_once(fd, row, n) != 0)
        rc = gb_err_sys(e, "cannot write %s", path);
    close(fd);
    return rc;
}

int gb_campaign_plot(gb_campaign_t *c, const gb_plot_row_t *r, gb_err_t *e)
{
    char row[512];
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
    return gb_campaign_append_row(c, "plot_data", PLOT_HEADER, row, (size_t)n, e);
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

/* Reads the value of a "key : value" line from `p` (just past the key):
 * spaces, ':', spaces, decimal digits that fit in 64 bits, spaces, end of
 * line. 1 with *v, 0 for anything else ("-5" is no number of ours). */
static int parse_value(const char *p, uint64_t *v)
{
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p++ != ':')
        return 0;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p < '0' || *p > '9')
        return 0;
    uint64_t x = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (x > (UINT64_MAX - d) / 10)
            return 0; /* past 2^64 - 1 */
        x = x * 10 + d;
    }
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    if (*p != '\n' && *p != '\0')
        return 0;
    *v = x;
    return 1;
}

/* Looks `key` up among the "key : value" lines of `text`: 1 with *v, 0
 * without such a line, -1 when its value is not a number. */
static int stat_lookup(const char *text, const char *key, uint64_t *v)
{
    const char *line = stat_line(text, key);
    if (!line)
        return 0;
    return parse_value(line + strlen(key), v) ? 1 : -1;
}

/* The numbers of `keys` in `text`; the names of bad ones into `bad`. */
static int lookup_all(const char *text, const char *const *keys, uint64_t *vals, size_t n,
                      gb_err_t *bad)
{
    int found = 0;
    char names[200] = "";
    for (size_t i = 0; i < n; i++) {
        int r = stat_lookup(text, keys[i], &vals[i]);
        found += r == 1;
        if (r < 0 && strlen(names) + strlen(keys[i]) + 3 < sizeof names)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     names[0] ? ", " : "", keys[i]);
    }
    if (names[0] && bad)
        gb_err_set(bad, "fuzzer_stats: ignored a value that is not a number for %s", names);
    return found;
}

int gb_campaign_parse_stats(const uint8_t *data, size_t len, const char *const *keys,
                            uint64_t *vals, size_t n)
{
    char *text = gb_malloc(len + 1);
    if (!text)
        return 0;
    memcpy(text, data, len);
    text[len] = '\0';
    int found = lookup_all(text, keys, vals, n, NULL);
    gb_free(text);
    return found;
}

int gb_campaign_read_stats_checked(const gb_campaign_t *c, const char *const *keys,
                                   uint64_t *vals, size_t n, gb_err_t *bad)
{
    uint8_t *data;
    size_t len;
    if (gb_read_file_at(gb_campaign_dirfd(c), "fuzzer_stats", GB_STATS_MAX, &data, &len, NULL) !=
        0)
        return 0;
    char *text = gb_malloc(len + 1);
    int found = 0;
    if (text) {
        memcpy(text, data, len);
        text[len] = '\0';
        found = lookup_all(text, keys, vals, n, bad);
        gb_free(text);
    }
    gb_free(data);
    return found;
}

int gb_campaign_read_stats(const gb_campaign_t *c, const char *const *keys, uint64_t *vals,
                           size_t n)
{
    return gb_campaign_read_stats_checked(c, keys, vals, n, NULL);
}

int gb_stats_raise(const char *dir, const char *key, uint64_t v, gb_err_t *e)
{
    uint8_t *data;
    size_t len;
    int dfd = gb_dir_open(dir, NULL, 0, e);
    if (dfd < 0)
        return -1;
    if (gb_read_file_at(dfd, "fuzzer_stats", GB_STATS_MAX, &data, &len, e) != 0) {
        close(dfd);
        return -1;
    }
    char *t = gb_malloc(len + 1), *out = NULL;
    int rc = 0;
    if (!t) {
        rc = gb_err_set(e, "out of memory");
        goto done;
    }
    memcpy(t, data, len);
    t[len] = '\0';
    uint64_t old;
    if (memchr(t, '\0', len) || stat_lookup(t, key, &old) != 1 || old >= v)
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
    rc = gb_file_write_at(dfd, "fuzzer_stats", -1, out, head + (size_t)w + tail, e) != 0 ? -1 : 1;
done:
    close(dfd);
    gb_free(out);
    gb_free(t);
    gb_free(data);
    return rc;
}
