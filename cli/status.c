/* SPDX-License-Identifier: Apache-2.0 */
/* Status views. Everything shown comes from fuzzer_stats files, so the
 * same code shows Glassbox and AFL++ instances, live or finished. */
#include "status.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gb_base.h"

#define MAX_KEYS 64

typedef struct kv {
    char key[32];
    char val[128];
} kv_t;

typedef struct stats {
    kv_t kv[MAX_KEYS];
    int n;
} stats_t;

/* Parses "key : value" lines; 0 if the file was readable. */
static int stats_read(const char *path, stats_t *st)
{
    uint8_t *data;
    size_t len;
    st->n = 0;
    if (gb_read_file(path, 1u << 16, &data, &len, NULL) != 0)
        return -1;
    const char *p = (const char *)data, *end = p + len;
    while (p < end && st->n < MAX_KEYS) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end, *colon = memchr(p, ':', (size_t)(le - p));
        if (colon) {
            kv_t *k = &st->kv[st->n++];
            int kl = (int)(colon - p), vl = (int)(le - colon - 1);
            while (kl > 0 && p[kl - 1] == ' ')
                kl--;
            const char *v = colon + 1;
            while (vl > 0 && *v == ' ')
                v++, vl--;
            snprintf(k->key, sizeof k->key, "%.*s", kl, p);
            snprintf(k->val, sizeof k->val, "%.*s", vl, v);
        }
        p = le + 1;
    }
    gb_free(data);
    return 0;
}

static const char *get(const stats_t *st, const char *key)
{
    for (int i = 0; i < st->n; i++)
        if (strcmp(st->kv[i].key, key) == 0)
            return st->kv[i].val;
    return "-";
}

static unsigned long long num(const stats_t *st, const char *key)
{
    return strtoull(get(st, key), NULL, 10);
}

void gb_status_init(gb_statview_t *v, FILE *out)
{
    const char *term = getenv("TERM"), *nc = getenv("NO_COLOR");
    v->out = out;
    v->screen = isatty(fileno(out)) && term && strcmp(term, "dumb") != 0;
    v->color = v->screen && !(nc && *nc);
}

static const char *c(const gb_statview_t *v, const char *code) { return v->color ? code : ""; }

static void duration(char *buf, size_t n, unsigned long long s)
{
    snprintf(buf, n, "%llu d, %llu h, %llu min, %llu s", s / 86400, s / 3600 % 24, s / 60 % 60,
             s % 60);
}

static void screen(const gb_statview_t *v, const stats_t *st, int final)
{
    char run[64], last[64];
    unsigned long long now = (unsigned long long)time(NULL), lf = num(st, "last_find");
    duration(run, sizeof run, num(st, "run_time"));
    duration(last, sizeof last, lf && now > lf ? now - lf : 0);
    const char *B = c(v, "\033[1m"), *G = c(v, "\033[32m"), *R = c(v, "\033[31m"),
               *N = c(v, "\033[0m");
    fprintf(v->out, "\033[H\033[2J");
    fprintf(v->out, "%s glassbox %s%s (%s)%s\n\n", B, get(st, "afl_banner"),
            final ? " - finished" : "", get(st, "afl_version"), N);
    fprintf(v->out, " %s-- progress --%s\n", B, N);
    fprintf(v->out, "        run time : %s\n", run);
    fprintf(v->out, "  last new block : %s ago\n", last);
    fprintf(v->out, "      execs done : %s (%s/s)\n", get(st, "execs_done"), get(st, "execs_per_sec"));
    fprintf(v->out, "     traces done : %s, inputs expanded %s, pending %s\n",
            get(st, "traces_done"), get(st, "inputs_expanded"), get(st, "pending_total"));
    fprintf(v->out, "  blocks covered : %s%s%s (%s of the map)\n", G, get(st, "blocks_covered"), N,
            get(st, "bitmap_cvg"));
    fprintf(v->out, "    corpus count : %s (%s imported from peers)\n", get(st, "corpus_count"),
            get(st, "sync_imported"));
    fprintf(v->out, "   saved crashes : %s%s%s (first after %s ms), hangs %s\n",
            num(st, "saved_crashes") ? R : "", get(st, "saved_crashes"), N,
            get(st, "first_crash_ms"), get(st, "saved_hangs"));
    fprintf(v->out, "\n %s-- solver --%s\n", B, N);
    fprintf(v->out, "         queries : %s (z3 calls %s, %s ms in z3)\n", get(st, "queries_total"),
            get(st, "queries_z3"), get(st, "solver_time_ms"));
    fprintf(v->out, "        outcomes : sat %s, unsat %s, timeout %s, optimistic %s\n",
            get(st, "queries_sat"), get(st, "queries_unsat"), get(st, "queries_timeout"),
            get(st, "queries_optimistic"));
    fprintf(v->out, "        children : %s (duplicate %s, repaired %s)\n",
            get(st, "children_generated"), get(st, "children_duplicate"),
            get(st, "children_repaired"));
    fprintf(v->out, "   flips skipped : %s backed off, %s by the static CFG\n",
            get(st, "flips_backoff"), get(st, "flips_skipped_cfg"));
    fflush(v->out);
}

static void line(const gb_statview_t *v, const stats_t *st, int final)
{
    fprintf(v->out,
            "[%s] %s%ss execs %s (%s/s) traces %s queue %s pending %s crashes %s hangs %s "
            "blocks %s | queries %s: sat %s unsat %s timeout %s opt %s z3 %s\n",
            get(st, "afl_banner"), final ? "done " : "", get(st, "run_time"),
            get(st, "execs_done"), get(st, "execs_per_sec"), get(st, "traces_done"),
            get(st, "corpus_count"), get(st, "pending_total"), get(st, "saved_crashes"),
            get(st, "saved_hangs"), get(st, "blocks_covered"), get(st, "queries_total"),
            get(st, "queries_sat"), get(st, "queries_unsat"), get(st, "queries_timeout"),
            get(st, "queries_optimistic"), get(st, "queries_z3"));
    fflush(v->out);
}

void gb_status_show(gb_statview_t *v, const char *campaign_dir, int final)
{
    char path[4200];
    stats_t st;
    snprintf(path, sizeof path, "%s/fuzzer_stats", campaign_dir);
    if (stats_read(path, &st) != 0)
        return;
    if (v->screen)
        screen(v, &st, final);
    else
        line(v, &st, final);
}

static int alive(const stats_t *st)
{
    long pid = strtol(get(st, "fuzzer_pid"), NULL, 10);
    return pid > 0 && kill((pid_t)pid, 0) == 0;
}

static void sync_row(const gb_statview_t *v, const char *name, const stats_t *st,
                     unsigned long long now)
{
    unsigned long long lf = num(st, "last_find");
    int gb = strncmp(get(st, "afl_version"), "glassbox", 8) == 0;
    fprintf(v->out, " %-14.14s %-8s %-5s %8llus %12s %9s %7s %7s %8llus",
            name, gb ? "glassbox" : "afl++", alive(st) ? "live" : "dead", num(st, "run_time"),
            get(st, "execs_done"), get(st, "execs_per_sec"), get(st, "corpus_count"),
            get(st, "saved_crashes"), lf && now > lf ? now - lf : 0);
    if (gb)
        fprintf(v->out, "  queries %s: sat %s unsat %s timeout %s", get(st, "queries_total"),
                get(st, "queries_sat"), get(st, "queries_unsat"), get(st, "queries_timeout"));
    fputc('\n', v->out);
}

static unsigned count_files(const char *dir)
{
    DIR *d = opendir(dir);
    unsigned n = 0;
    for (struct dirent *de; d && (de = readdir(d)) != NULL;)
        n += de->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* libFuzzer writes no stats file: its corpus and artifacts tell. */
static void libfuzzer_row(const gb_statview_t *v, const char *sync_dir)
{
    char corpus[4200], crashes[4200];
    snprintf(corpus, sizeof corpus, "%s/libfuzzer", sync_dir);
    snprintf(crashes, sizeof crashes, "%s/libfuzzer-crashes", sync_dir);
    DIR *d = opendir(corpus);
    if (!d)
        return;
    closedir(d);
    fprintf(v->out, " %-14s %-8s %-5s %9s %12s %9s %7u %7u\n", "libfuzzer", "libfuzz", "-", "-",
            "-", "-", count_files(corpus), count_files(crashes));
}

void gb_status_show_sync(gb_statview_t *v, const char *sync_dir, int final)
{
    DIR *d = opendir(sync_dir);
    if (!d)
        return;
    if (v->screen)
        fprintf(v->out, "\033[H\033[2J%s glassbox campaign in %s%s%s\n\n", c(v, "\033[1m"),
                sync_dir, final ? " - finished" : "", c(v, "\033[0m"));
    else
        fprintf(v->out, "== %s%s\n", sync_dir, final ? " (finished)" : "");
    fprintf(v->out, " %-14s %-8s %-5s %9s %12s %9s %7s %7s %9s\n", "instance", "engine", "state",
            "run time", "execs", "execs/s", "corpus", "crashes", "last find");
    unsigned long long now = (unsigned long long)time(NULL);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        char path[4200];
        stats_t st;
        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s/fuzzer_stats", sync_dir, de->d_name);
        if (stats_read(path, &st) == 0)
            sync_row(v, de->d_name, &st, now);
    }
    closedir(d);
    libfuzzer_row(v, sync_dir);
    fflush(v->out);
}
