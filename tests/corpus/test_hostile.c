/* SPDX-License-Identifier: Apache-2.0 */
/* corpus/ in a directory others can write to (issue 34): a symlink planted
 * at fuzzer_stats, plot_data, .expanded or in place of queue/ is never
 * written through; a seed named with a line break is skipped with one
 * warning; a damaged fuzzer_stats number is ignored, never wrapped.
 * Usage: test_hostile WORKDIR. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "corpus.h"

static char root[1024];

static void put(const char *path, const char *text)
{
    CHECK_MSG(check_write_file(path, text, strlen(text)) == 0, "cannot write %s", path);
}

/* 1 if `path` holds exactly `text`. */
static int holds(const char *path, const char *text)
{
    char buf[256] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    return n == strlen(text) && memcmp(buf, text, n) == 0;
}

static void sh(const char *cmd)
{
    CHECK_MSG(system(cmd) == 0, "failed: %s", cmd);
}

/* Planted symlinks to a victim outside the campaign: not written through. */
static void test_planted_links(void)
{
    char out[4200], victim[4200], p[4400], cmd[9000];
    snprintf(out, sizeof out, "%s/out", root);
    snprintf(victim, sizeof victim, "%s/victim", root);
    put(victim, "keep");
    gb_campaign_t *c;
    gb_err_t e;
    CHECK_MSG(gb_campaign_open(out, "w", &c, &e) == 0, "open: %s", e.msg);
    if (!c)
        return;
    const char *names[] = {"fuzzer_stats", "plot_data", ".expanded"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/w/%s", out, names[i]);
        CHECK(symlink(victim, p) == 0);
    }
    gb_stat_t st[] = {{.key = "run_time", .value = "7"}};
    gb_campaign_write_stats(c, st, 1, &e);
    gb_plot_row_t row = {.relative_time = 1};
    gb_campaign_plot(c, &row, &e);
    gb_journal_t *j;
    if (gb_journal_open(c, &j, &e) == 0) {
        gb_journal_append(j, GB_STORED_QUEUE, 3, &e);
        gb_journal_close(j);
    }
    CHECK_MSG(holds(victim, "keep"), "a symlink planted in OUT/NAME was written through");
    gb_campaign_close(c);

    /* queue/ itself a symlink to a directory outside: refused, nothing
     * saved there. */
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s/elsewhere' '%s/o2/w' && ln -s '%s/elsewhere' '%s/o2/w/queue'", root,
             root, root, root);
    sh(cmd);
    snprintf(p, sizeof p, "%s/o2", root);
    c = NULL;
    if (gb_campaign_open(p, "w", &c, &e) == 0) {
        gb_campaign_add_queue(c, (const uint8_t *)"x", 1, "orig:x", NULL, &e);
        gb_campaign_close(c);
    }
    snprintf(p, sizeof p, "%s/elsewhere/id:000000,orig:x", root);
    struct stat sb;
    CHECK_MSG(lstat(p, &sb) != 0, "an input was saved through a symlinked queue/");
}

static int nskipped;
static int skipped_one_line = 1;

static void on_skip(void *ctx, const char *path, const char *why)
{
    (void)ctx;
    nskipped++;
    if (strpbrk(path, "\n\r") || strpbrk(why, "\n\r"))
        skipped_one_line = 0;
}

static void test_seed_names(void)
{
    char dir[4200], p[4400];
    snprintf(dir, sizeof dir, "%s/seeds", root);
    CHECK(mkdir(dir, 0755) == 0);
    snprintf(p, sizeof p, "%s/good", dir);
    put(p, "a");
    snprintf(p, sizeof p, "%s/bad\nname", dir);
    put(p, "b");
    gb_seed_t *s = NULL;
    size_t n = 0;
    gb_err_t e;
    CHECK_MSG(gb_seeds_load(dir, on_skip, NULL, &s, &n, &e) == 0, "load: %s", e.msg);
    CHECK_MSG(n == 1 && s && strcmp(s[0].name, "good") == 0, "want only 'good', got %zu seeds", n);
    CHECK_MSG(nskipped == 1 && skipped_one_line, "skipped %d (one line: %d)", nskipped,
              skipped_one_line);
    for (size_t i = 0; i < n; i++)
        CHECK_MSG(!strpbrk(s[i].name, "\n\r"), "a seed name with a line break: %s", s[i].name);
    gb_seeds_free(s, n);
}

static void test_stats_strict(void)
{
    static const char *const keys[] = {"run_time", "execs_done", "paths_total", "cycles_done",
                                       "saved_crashes"};
    static const char text[] = "run_time          : -5\n"
                               "execs_done        : 12abc\n"
                               "paths_total       : 99999999999999999999999\n"
                               "cycles_done       : 18446744073709551615\n"
                               "saved_crashes     :   42  \r\n";
    uint64_t v[5] = {1, 2, 3, 4, 5};
    int found = gb_campaign_parse_stats((const uint8_t *)text, sizeof text - 1, keys, v, 5);
    CHECK_MSG(v[0] == 1, "run_time -5 read as %llu", (unsigned long long)v[0]);
    CHECK_MSG(v[1] == 2, "execs_done 12abc read as %llu", (unsigned long long)v[1]);
    CHECK_MSG(v[2] == 3, "paths_total past 2^64 read as %llu", (unsigned long long)v[2]);
    CHECK_MSG(v[3] == UINT64_MAX, "cycles_done 2^64-1 read as %llu", (unsigned long long)v[3]);
    CHECK_MSG(v[4] == 42, "saved_crashes read as %llu", (unsigned long long)v[4]);
    CHECK_MSG(found == 2, "found %d, want 2", found);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return fprintf(stderr, "usage: test_hostile WORKDIR\n"), 2;
    if ((size_t)snprintf(root, sizeof root, "%s/hostile", argv[1]) >= sizeof root)
        return 2;
    char cmd[8400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", root, root);
    sh(cmd);
    test_planted_links();
    test_seed_names();
    test_stats_strict();
    return check_exit("corpus.hostile");
}
