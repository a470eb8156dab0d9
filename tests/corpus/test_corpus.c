/* SPDX-License-Identifier: Apache-2.0 */
/* corpus/: campaign layout, names and atomicity, refusal to overwrite,
 * seeds, fuzzer_stats and plot_data formats, allocation failure.
 * Usage: test_corpus WORKDIR (a fresh directory is made inside it). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "corpus.h"

static char root[4096];

static void pathf(char *buf, size_t n, const char *fmt, const char *a)
{
    snprintf(buf, n, fmt, root, a);
}

static char *read_text(const char *path)
{
    uint8_t *d = NULL;
    size_t n = 0;
    gb_err_t e;
    if (gb_read_file(path, 1 << 20, &d, &n, &e) != 0)
        return NULL;
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, d, n);
        s[n] = '\0';
    }
    gb_free(d);
    return s;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Sorted, newline-joined entry names of a directory ("" when empty). */
static char *list_dir(const char *dir)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, alphasort);
    static char out[8192];
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, "..")) {
            strncat(out, ents[i]->d_name, sizeof out - strlen(out) - 2);
            strcat(out, "\n");
        }
        free(ents[i]);
    }
    if (n >= 0)
        free(ents);
    return out;
}

/* Hash of every name and content under dir (one level of subdirs). */
static uint64_t hash_tree(const char *dir)
{
    uint64_t h = gb_hash64(dir, 0, 1);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char p[8192];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        uint64_t x = gb_hash64(de->d_name, strlen(de->d_name), 2);
        if (is_dir(p)) {
            x ^= hash_tree(p);
        } else {
            uint8_t *data;
            size_t n;
            gb_err_t e;
            if (gb_read_file(p, 1 << 24, &data, &n, &e) == 0) {
                x ^= gb_hash64(data, n, 3);
                gb_free(data);
            }
        }
        h += x * 0x9E3779B97F4A7C15ull; /* order-independent */
    }
    closedir(d);
    return h;
}

static void test_layout_and_names(void)
{
    char out[4200], p[4300];
    pathf(out, sizeof out, "%s/%s", "out1");
    gb_err_t e = {""};
    gb_campaign_t *c = NULL;
    CHECK_MSG(gb_campaign_open(out, "glassbox-1", &c, &e) == 0, "open: %s", e.msg);
    if (!c)
        return;
    const char *subs[] = {"queue", "crashes", "hangs", ".tmp"};
    for (size_t i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/glassbox-1/%s", out, subs[i]);
        CHECK_MSG(is_dir(p), "%s missing", p);
    }
    snprintf(p, sizeof p, "%s/glassbox-1", out);
    CHECK_MSG(strcmp(gb_campaign_dir(c), p) == 0, "dir %s", gb_campaign_dir(c));
    snprintf(p, sizeof p, "%s/glassbox-1/.tmp", out);
    CHECK_MSG(strcmp(gb_campaign_tmpdir(c), p) == 0, "tmpdir %s", gb_campaign_tmpdir(c));

    const char *descs[] = {"orig:seed1", "orig:seed2", "src:000000,op:gen,pos:12,+cov",
                           "src:000001,op:gen,pos:0", "orig:empty"};
    for (uint32_t i = 0; i < 5; i++) {
        uint32_t id = 99;
        size_t len = i == 4 ? 0 : strlen(descs[i]);
        CHECK_MSG(gb_campaign_add_queue(c, (const uint8_t *)descs[i], len, descs[i], &id, &e) == 0,
              "add %u: %s", i, e.msg);
        CHECK_MSG(id == i, "id %u for entry %u", id, i);
    }
    uint32_t id = 99;
    CHECK_MSG(gb_campaign_add_queue(c, (const uint8_t *)"x", 1, "a/b", &id, &e) == -1, "slash");
    CHECK_MSG(gb_campaign_add_queue(c, (const uint8_t *)"x", 1, "", &id, &e) == -1, "empty desc");
    static uint8_t big[GB_MAX_INPUT + 1];
    CHECK_MSG(gb_campaign_add_queue(c, big, sizeof big, "big", &id, &e) == -1, "oversized input");
    CHECK_MSG(gb_campaign_add_queue(c, big, GB_MAX_INPUT, "max", &id, &e) == 0 && id == 5,
          "max-size input: id %u %s", id, e.msg);
    CHECK_MSG(gb_campaign_queue_count(c) == 6, "count %u", gb_campaign_queue_count(c));

    snprintf(p, sizeof p, "%s/glassbox-1/queue", out);
    const char *want = "id:000000,orig:seed1\nid:000001,orig:seed2\n"
                       "id:000002,src:000000,op:gen,pos:12,+cov\nid:000003,src:000001,op:gen,pos:0\n"
                       "id:000004,orig:empty\nid:000005,max\n";
    CHECK_MSG(strcmp(list_dir(p), want) == 0, "queue holds:\n%s", list_dir(p));
    snprintf(p, sizeof p, "%s/glassbox-1/queue/id:000002,src:000000,op:gen,pos:12,+cov", out);
    char *txt = read_text(p);
    CHECK_MSG(txt && strcmp(txt, descs[2]) == 0, "content of entry 2");
    free(txt);

    CHECK_MSG(gb_campaign_add_crash(c, (const uint8_t *)"boom", 4, 6, "src:000001,op:gen", &id, &e) ==
              0 && id == 0, "crash: %s", e.msg);
    CHECK_MSG(gb_campaign_add_crash(c, (const uint8_t *)"bang", 4, 11, "src:000002,op:gen", &id, &e) ==
              0 && id == 1, "crash 2: %s", e.msg);
    CHECK_MSG(gb_campaign_add_crash(c, (const uint8_t *)"x", 1, 100, "s", &id, &e) == -1, "sig 100");
    CHECK_MSG(gb_campaign_add_hang(c, (const uint8_t *)"zz", 2, "src:000003,op:gen", &id, &e) == 0 &&
              id == 0, "hang: %s", e.msg);
    snprintf(p, sizeof p, "%s/glassbox-1/crashes", out);
    CHECK_MSG(strcmp(list_dir(p), "README.txt\nid:000000,sig:06,src:000001,op:gen\n"
                              "id:000001,sig:11,src:000002,op:gen\n") == 0,
          "crashes holds:\n%s", list_dir(p));
    snprintf(p, sizeof p, "%s/glassbox-1/hangs", out);
    CHECK_MSG(strcmp(list_dir(p), "id:000000,src:000003,op:gen\n") == 0, "hangs:\n%s", list_dir(p));
    snprintf(p, sizeof p, "%s/glassbox-1/.tmp", out);
    CHECK_MSG(strcmp(list_dir(p), "") == 0, "temp files left:\n%s", list_dir(p));
    gb_campaign_close(c);
}

static void test_refusals(void)
{
    char out[4200], p[4300];
    pathf(out, sizeof out, "%s/%s", "out1");
    snprintf(p, sizeof p, "%s/glassbox-1", out);
    uint64_t before = hash_tree(p);
    gb_err_t e = {""};
    gb_campaign_t *c = NULL;
    CHECK_MSG(gb_campaign_open(out, "glassbox-1", &c, &e) == -1 && c == NULL, "reopened");
    CHECK_MSG(strstr(e.msg, "glassbox-1/queue is not empty; refusing to overwrite") != NULL, "msg: %s",
          e.msg);
    CHECK_MSG(hash_tree(p) == before && before != 0, "files changed by a refused open");

    const char *bad[] = {"", "a/b", "..", "a b", "x.y"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_MSG(gb_campaign_open(out, bad[i], &c, &e) == -1, "name '%s' accepted", bad[i]);
        CHECK_MSG(strstr(e.msg, "bad campaign name") != NULL, "msg: %s", e.msg);
    }

    /* Root passes permission checks, so use paths that fail for anyone: a
     * directory under a regular file, a regular file as OUT, and /proc. */
    char file[4200], under[4300];
    pathf(file, sizeof file, "%s/%s", "a-file");
    check_write_file(file, "x", 1);
    snprintf(under, sizeof under, "%s/sub", file);
    CHECK_MSG(gb_campaign_open(under, "n", &c, &e) == -1 && !strchr(e.msg, '\n'), "under a file");
    CHECK_MSG(strstr(e.msg, file) != NULL, "msg names the path: %s", e.msg);
    CHECK_MSG(gb_campaign_open(file, "n", &c, &e) == -1 && strstr(e.msg, "not a directory"), "%s",
          e.msg);
    CHECK_MSG(gb_campaign_open("/proc/glassbox-test-out", "n", &c, &e) == -1, "/proc accepted");
}

static void test_previous_crashes(void)
{
    char out[4200], p[4400];
    pathf(out, sizeof out, "%s/%s", "out2");
    snprintf(p, sizeof p, "%s/n/crashes", out);
    gb_err_t e = {""};
    CHECK_MSG(gb_mkdirs(p, &e) == 0, "%s", e.msg);
    snprintf(p, sizeof p, "%s/n/crashes/id:000003,sig:11,old", out);
    check_write_file(p, "old", 3);
    gb_campaign_t *c = NULL;
    CHECK_MSG(gb_campaign_open(out, "n", &c, &e) == 0, "open over old crashes: %s", e.msg);
    uint32_t id = 0;
    CHECK_MSG(c && gb_campaign_add_crash(c, (const uint8_t *)"new", 3, 6, "d", &id, &e) == 0 &&
              id == 4, "crash id continues: %u", id);
    char *txt = read_text(p);
    CHECK_MSG(txt && strcmp(txt, "old") == 0, "old crash untouched");
    free(txt);
    /* Someone else put a file where the next queue entry goes: refused, the
     * file kept, the id not consumed. */
    snprintf(p, sizeof p, "%s/n/queue/id:000000,d", out);
    check_write_file(p, "theirs", 6);
    CHECK_MSG(c && gb_campaign_add_queue(c, (const uint8_t *)"mine", 4, "d", &id, &e) == -1 &&
              strstr(e.msg, "refusing to overwrite"), "overwrote: %s", e.msg);
    txt = read_text(p);
    CHECK_MSG(txt && strcmp(txt, "theirs") == 0, "existing entry replaced");
    free(txt);
    CHECK_MSG(c && gb_campaign_queue_count(c) == 0, "id consumed by a failed add");
    snprintf(p, sizeof p, "%s/n/.tmp", out);
    CHECK_MSG(strcmp(list_dir(p), "") == 0, "stage left behind:\n%s", list_dir(p));
    gb_campaign_close(c);
}

static void test_stats_and_plot(void)
{
    char out[4200], p[4400];
    pathf(out, sizeof out, "%s/%s", "out3");
    gb_err_t e = {""};
    gb_campaign_t *c = NULL;
    CHECK_MSG(gb_campaign_open(out, "main", &c, &e) == 0, "%s", e.msg);
    if (!c)
        return;
    gb_stat_t st[4] = {{"start_time", "1700000000", NULL}, {"execs_done", "456", NULL},
                       {"afl_banner", "glassbox t", NULL}, {"a_very_long_key_nm", "9", NULL}};
    CHECK_MSG(gb_campaign_write_stats(c, st, 4, &e) == 0, "%s", e.msg);
    snprintf(p, sizeof p, "%s/main/fuzzer_stats", out);
    char *txt = read_text(p);
    CHECK_MSG(txt && strcmp(txt, "start_time        : 1700000000\nexecs_done        : 456\n"
                             "afl_banner        : glassbox t\na_very_long_key_nm: 9\n") == 0,
          "fuzzer_stats:\n%s", txt ? txt : "(none)");
    /* Parse it back as tools do: key = text before ':' trimmed. */
    int line = 0;
    for (char *s = txt ? strtok(txt, "\n") : NULL; s; s = strtok(NULL, "\n"), line++) {
        char key[64], val[64];
        CHECK_MSG(sscanf(s, "%63s : %63[^\n]", key, val) == 2 || sscanf(s, "%63[^:]: %63[^\n]", key,
                                                                    val) == 2, "line %s", s);
        CHECK_MSG(line < 4 && strcmp(key, st[line].key) == 0 && strcmp(val, st[line].value) == 0,
              "line %d parsed %s=%s", line, key, val);
    }
    free(txt);
    CHECK_MSG(gb_campaign_write_stats(c, st, 1, &e) == 0, "%s", e.msg);
    txt = read_text(p);
    CHECK_MSG(txt && strcmp(txt, "start_time        : 1700000000\n") == 0, "rewritten whole");
    free(txt);
    gb_stat_t badst = {"bad:key", "1", NULL};
    CHECK_MSG(gb_campaign_write_stats(c, &badst, 1, &e) == -1, "key with ':'");
    /* A long value (the command line) is written whole, a newline refused. */
    char longv[300];
    memset(longv, 'x', sizeof longv - 1);
    longv[sizeof longv - 1] = '\0';
    gb_stat_t longst = {"command_line", "", longv};
    CHECK_MSG(gb_campaign_write_stats(c, &longst, 1, &e) == 0, "%s", e.msg);
    txt = read_text(p);
    CHECK_MSG(txt && strlen(txt) == 20 + sizeof longv - 1 + 1 && strstr(txt, longv),
              "a 299-character value was not written whole: %zu bytes", txt ? strlen(txt) : 0);
    free(txt);
    longst.text = "two\nlines";
    CHECK_MSG(gb_campaign_write_stats(c, &longst, 1, &e) == -1, "a value with a newline");

    /* gb_stats_raise: one number raised in place, only upwards, the other
     * lines byte for byte (the last without its newline), a missing key
     * left alone. */
    gb_stat_t three[3] = {{"execs_done", "456", NULL}, {"crash_buckets", "2", NULL},
                          {"crashes_seen", "9", NULL}};
    CHECK_MSG(gb_campaign_write_stats(c, three, 3, &e) == 0, "%s", e.msg);
    char dir[4300];
    snprintf(dir, sizeof dir, "%s/main", out);
    snprintf(p, sizeof p, "%s/main/fuzzer_stats", out);
    CHECK_MSG(gb_stats_raise(dir, "crash_buckets", 12, &e) == 1, "raise: %s", e.msg);
    txt = read_text(p);
    CHECK_MSG(txt && strcmp(txt, "execs_done        : 456\ncrash_buckets     : 12\n"
                                 "crashes_seen      : 9\n") == 0,
              "raised:\n%s", txt ? txt : "(none)");
    free(txt);
    CHECK_MSG(gb_stats_raise(dir, "crash_buckets", 3, &e) == 0, "lowered");
    CHECK_MSG(gb_stats_raise(dir, "crash_bucket", 30, &e) == 0, "a key's prefix matched");
    CHECK_MSG(gb_stats_raise(dir, "saved_hangs", 30, &e) == 0, "a missing key added");
    CHECK_MSG(gb_stats_raise(dir, "crashes_seen", 10, &e) == 1, "last line: %s", e.msg);
    txt = read_text(p);
    CHECK_MSG(txt && strcmp(txt, "execs_done        : 456\ncrash_buckets     : 12\n"
                                 "crashes_seen      : 10\n") == 0,
              "after the refusals:\n%s", txt ? txt : "(none)");
    free(txt);
    check_write_file(p, "crash_buckets : 1", 17);
    CHECK_MSG(gb_stats_raise(dir, "crash_buckets", 4, &e) == 1, "no newline: %s", e.msg);
    txt = read_text(p);
    CHECK_MSG(txt && strcmp(txt, "crash_buckets : 4") == 0, "no newline:\n%s", txt ? txt : "");
    free(txt);
    char gone[4400];
    snprintf(gone, sizeof gone, "%s/nobody", out);
    CHECK_MSG(gb_stats_raise(gone, "crash_buckets", 4, &e) == -1, "a missing file");

    gb_plot_row_t r1 = {1, 2, 3, 4, 5, 6, 12.345, 7, 8, 9, 100.5, 10, 11};
    gb_plot_row_t r2 = {61, 0, 0, 40, 0, 0, 0.0, 0, 0, 1, 1234.567, 99999, 123};
    CHECK_MSG(gb_campaign_plot(c, &r1, &e) == 0 && gb_campaign_plot(c, &r2, &e) == 0, "%s", e.msg);
    snprintf(p, sizeof p, "%s/main/plot_data", out);
    txt = read_text(p);
    const char *want =
        "# relative_time, cycles_done, cur_item, corpus_count, pending_total, pending_favs, "
        "map_size, saved_crashes, saved_hangs, max_depth, execs_per_sec, total_execs, "
        "edges_found\n"
        "1, 2, 3, 4, 5, 6, 12.35%, 7, 8, 9, 100.50, 10, 11\n"
        "61, 0, 0, 40, 0, 0, 0.00%, 0, 0, 1, 1234.57, 99999, 123\n";
    CHECK_MSG(txt && strcmp(txt, want) == 0, "plot_data:\n%s", txt ? txt : "(none)");
    free(txt);
    snprintf(p, sizeof p, "%s/main/.tmp", out);
    CHECK_MSG(strcmp(list_dir(p), "") == 0, "temp files left:\n%s", list_dir(p));
    gb_campaign_close(c);
}

/* What gb_seeds_load skipped, one "PATH: WHY" line each. */
static char skipped[8192];

static void record_skip(void *ctx, const char *path, const char *why)
{
    (void)ctx;
    size_t n = strlen(skipped);
    snprintf(skipped + n, sizeof skipped - n, "%s: %s\n", path, why);
}

static int load(const char *dir, gb_seed_t **s, size_t *n, gb_err_t *e)
{
    skipped[0] = '\0';
    return gb_seeds_load(dir, record_skip, NULL, s, n, e);
}

static void test_seeds_basic(void)
{
    char dir[4200], p[4400];
    gb_seed_t *s = NULL;
    size_t n = 9;
    gb_err_t e = {""};
    pathf(dir, sizeof dir, "%s/%s", "no-such-seeds");
    CHECK_MSG(load(dir, &s, &n, &e) == -1 && strstr(e.msg, dir) && s == NULL && n == 0,
              "missing dir: %s", e.msg);
    pathf(dir, sizeof dir, "%s/%s", "seeds");
    gb_mkdirs(dir, &e);
    snprintf(p, sizeof p, "%s/.hidden", dir);
    check_write_file(p, "h", 1);
    snprintf(p, sizeof p, "%s/subdir", dir);
    gb_mkdirs(p, &e);
    CHECK_MSG(load(dir, &s, &n, &e) == -1 && strstr(e.msg, "no seed files in") && !*skipped,
              "empty: %s", e.msg);
    const char *names[] = {"b", "a", "c"}, *data[] = {"bb", "a", ""};
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        check_write_file(p, data[i], strlen(data[i]));
    }
    CHECK_MSG(load(dir, &s, &n, &e) == 0 && n == 3, "load: %s (n %zu)", e.msg, n);
    if (n == 3 && s) {
        CHECK_MSG(!strcmp(s[0].name, "a") && !strcmp(s[1].name, "b") && !strcmp(s[2].name, "c"),
                  "sorted");
        CHECK_MSG(s[0].len == 1 && s[0].data[0] == 'a' && s[1].len == 2 && s[2].len == 0, "data");
    }
    gb_seeds_free(s, n);
    static uint8_t big[2 * GB_MAX_INPUT];
    snprintf(p, sizeof p, "%s/huge", dir);
    check_write_file(p, big, GB_MAX_INPUT);
    CHECK_MSG(load(dir, &s, &n, &e) == 0 && n == 4 && !*skipped, "max-size seed: %s", e.msg);
    gb_seeds_free(s, n);
    check_write_file(p, big, GB_MAX_INPUT + 1);
    CHECK_MSG(load(dir, &s, &n, &e) == 0 && n == 3, "too large not skipped: %s", e.msg);
    CHECK_MSG(strstr(skipped, p) && strstr(skipped, "too large"), "too large: '%s'", skipped);
    gb_seeds_free(s, n);
    unlink(p);
}

/* A 2 MiB file, a dangling symlink, a folder linking back to its parent:
 * each skipped with a reason; the subfolders' seeds are loaded with
 * '/'-free names; a tree with nothing usable is an error. */
static void test_seeds_tree(void)
{
    char dir[4200], p[4400], q[4400];
    gb_seed_t *s = NULL;
    size_t n = 0;
    gb_err_t e = {""};
    pathf(dir, sizeof dir, "%s/%s", "seed-tree");
    snprintf(p, sizeof p, "%s/sub/deeper", dir);
    gb_mkdirs(p, &e);
    static uint8_t big[2u << 20];
    snprintf(p, sizeof p, "%s/big", dir);
    check_write_file(p, big, sizeof big);
    snprintf(p, sizeof p, "%s/dangling", dir);
    CHECK(symlink("no-such-target", p) == 0);
    CHECK_MSG(load(dir, &s, &n, &e) == -1 && strstr(e.msg, "no usable seed in"),
              "nothing usable: %s", e.msg);
    snprintf(p, sizeof p, "%s/sub/deeper/x", dir);
    check_write_file(p, "x", 1);
    snprintf(p, sizeof p, "%s/top", dir);
    check_write_file(p, "t", 1);
    snprintf(p, sizeof p, "%s/sub/.hidden/h", dir);
    gb_mkdirs(p, &e); /* a hidden folder: not walked */
    snprintf(p, sizeof p, "%s/sub/up", dir);
    CHECK(symlink("..", p) == 0);
    CHECK_MSG(load(dir, &s, &n, &e) == 0 && n == 2, "tree: %s (n %zu)", e.msg, n);
    if (n == 2 && s)
        CHECK_MSG(!strcmp(s[0].name, "sub_deeper_x") && s[0].len == 1 && !strcmp(s[1].name, "top"),
                  "names: %s %s", s[0].name, s[1].name);
    gb_seeds_free(s, n);
    snprintf(p, sizeof p, "%s/big: too large (2097152 bytes", dir);
    snprintf(q, sizeof q, "%s/dangling: a symbolic link to nothing", dir);
    CHECK_MSG(strstr(skipped, p) && strstr(skipped, q), "skipped:\n%s", skipped);
    snprintf(p, sizeof p, "%s/sub/up: a folder that links back", dir);
    CHECK_MSG(strstr(skipped, p), "loop not skipped:\n%s", skipped);
    int lines = 0;
    for (const char *c = skipped; *c; c++)
        lines += *c == '\n';
    CHECK_MSG(lines == 3, "want 3 skipped, got:\n%s", skipped);
}

/* Each call below under failing allocation: an error, never a crash. */
static void test_alloc_failure(void)
{
    char out[4200], dir[4200];
    pathf(out, sizeof out, "%s/%s", "out-alloc");
    pathf(dir, sizeof dir, "%s/%s", "seeds");
    int errors = 0;
    for (long k = 0; k < 30; k++) {
        char name[32];
        snprintf(name, sizeof name, "c%ld", k);
        gb_err_t e = {""};
        gb_campaign_t *c = NULL;
        gb_alloc_fail_after(k);
        if (gb_campaign_open(out, name, &c, &e) != 0) {
            errors++;
            CHECK_MSG(e.msg[0] != '\0', "open failed without a message");
        } else {
            gb_stat_t st = {"execs_done", "1", NULL};
            uint32_t id;
            errors += gb_campaign_add_queue(c, (const uint8_t *)"x", 1, "d", &id, &e) != 0;
            errors += gb_campaign_write_stats(c, &st, 1, &e) != 0;
            gb_campaign_close(c);
        }
        gb_seed_t *s = NULL;
        size_t n = 0;
        if (gb_seeds_load(dir, NULL, NULL, &s, &n, &e) != 0)
            errors++;
        else
            gb_seeds_free(s, n);
        gb_alloc_fail_after(-1);
    }
    CHECK_MSG(errors > 0, "allocation failure was never reported");
}

/* The journal's begin records: which expansion a session died in. */
static void journal_text(const char *text, int died, gb_stored_t kind, uint32_t id)
{
    gb_journal_t *j = NULL;
    gb_err_t e;
    CHECK(gb_journal_from_text((const uint8_t *)text, strlen(text), &j, &e) == 0);
    if (!j)
        return;
    gb_stored_t k = GB_STORED_QUEUE;
    uint32_t got = UINT32_MAX;
    int d = gb_journal_died_in(j, &k, &got);
    CHECK_MSG(d == died, "journal \"%s\": died_in %d, want %d", text, d, died);
    if (d && died)
        CHECK_MSG(k == kind && got == id, "journal \"%s\": died in %c %u, want %c %u", text,
                  k == GB_STORED_CRASH ? 'c' : 'q', got, kind == GB_STORED_CRASH ? 'c' : 'q',
                  id);
    gb_journal_close(j);
}

static void test_journal_died(void)
{
    journal_text("", 0, 0, 0);
    journal_text("q 1\nq 2\n", 0, 0, 0);              /* a journal of old: no begin records */
    journal_text("Q 1\nq 1\nQ 2\n", 1, GB_STORED_QUEUE, 2);
    journal_text("Q 1\nq 1\nC 7\n", 1, GB_STORED_CRASH, 7);
    journal_text("Q 4\nx\n", 0, 0, 0);                /* stopped, not dead */
    journal_text("C 4\nq 4\n", 1, GB_STORED_CRASH, 4); /* another input's line */
    journal_text("Q 3\nQ 5", 1, GB_STORED_QUEUE, 3);    /* a torn last line */
    journal_text("Q 3\nQ 5x\n", 1, GB_STORED_QUEUE, 3); /* a malformed one */
    /* on disk: begin, finish, begin, stop, begin: died in the last */
    char dir[4200];
    pathf(dir, sizeof dir, "%s/%s", "journal");
    gb_err_t e;
    gb_campaign_t *c = NULL;
    CHECK(gb_campaign_open(dir, "w", &c, &e) == 0);
    if (!c)
        return;
    gb_journal_t *j = NULL;
    CHECK(gb_journal_open(c, &j, &e) == 0);
    CHECK(j && gb_journal_begin(j, GB_STORED_QUEUE, 1, &e) == 0 &&
          gb_journal_append(j, GB_STORED_QUEUE, 1, &e) == 0 &&
          gb_journal_begin(j, GB_STORED_QUEUE, 2, &e) == 0 && gb_journal_stop(j, &e) == 0 &&
          gb_journal_begin(j, GB_STORED_CRASH, 9, &e) == 0);
    gb_journal_close(j);
    j = NULL;
    CHECK(gb_journal_open(c, &j, &e) == 0);
    gb_stored_t k = GB_STORED_QUEUE;
    uint32_t id = 0;
    CHECK(j && gb_journal_died_in(j, &k, &id) == 1 && k == GB_STORED_CRASH && id == 9);
    CHECK(j && gb_journal_done(j, GB_STORED_QUEUE, 1) && !gb_journal_done(j, GB_STORED_QUEUE, 2));
    gb_journal_close(j);
    gb_campaign_close(c);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_corpus WORKDIR\n");
        return 2;
    }
    snprintf(root, sizeof root, "%s/corpus-%ld", argv[1], (long)getpid());
    gb_err_t e;
    if (gb_mkdirs(root, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        return 2;
    }
    test_layout_and_names();
    test_refusals();
    test_previous_crashes();
    test_stats_and_plot();
    test_seeds_basic();
    test_seeds_tree();
    test_alloc_failure();
    test_journal_died();
    if (check_failures) {
        fprintf(stderr, "test_corpus: %d failure(s); files kept in %s\n", check_failures, root);
        return 1;
    }
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
    printf("test_corpus: ok\n");
    return 0;
}
