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
#include "live.h"

#define MAX_KEYS 128

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
    v->note = NULL;
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
    fprintf(v->out, "     traces done : %s, inputs expanded %s (median %s ms), pending %s\n",
            get(st, "traces_done"), get(st, "inputs_expanded"), get(st, "expansion_ms_median"),
            get(st, "pending_total"));
    fprintf(v->out, "  blocks covered : %s%s%s (%s of the map)\n", G, get(st, "blocks_covered"), N,
            get(st, "bitmap_cvg"));
    fprintf(v->out, "    corpus count : %s (%s imported from peers)\n", get(st, "corpus_count"),
            get(st, "sync_imported"));
    char first[96] = "";
    if (num(st, "saved_crashes") && num(st, "first_crash_ms")) {
        char d[48];
        duration(d, sizeof d, num(st, "first_crash_ms") / 1000);
        snprintf(first, sizeof first, " (the first after %s)", d);
    }
    fprintf(v->out, "   saved crashes : %s%s%s%s, hangs %s\n", num(st, "saved_crashes") ? R : "",
            get(st, "saved_crashes"), N, first, get(st, "saved_hangs"));
    if (strcmp(get(st, "crash_buckets"), "-") != 0)
        fprintf(v->out, "   distinct bugs : %s%s%s (live triage)\n",
                num(st, "crash_buckets") ? R : "", get(st, "crash_buckets"), N);
    fprintf(v->out, "\n %s-- solver --%s\n", B, N);
    fprintf(v->out, "         queries : %s (z3 calls %s, %s ms in z3)\n", get(st, "queries_total"),
            get(st, "queries_z3"), get(st, "solver_time_ms"));
    fprintf(v->out, "        outcomes : sat %s, unsat %s, timeout %s, optimistic %s\n",
            get(st, "queries_sat"), get(st, "queries_unsat"), get(st, "queries_timeout"),
            get(st, "queries_optimistic"));
    fprintf(v->out, "        children : %s (duplicate %s, repaired %s)\n",
            get(st, "children_generated"), get(st, "children_duplicate"),
            get(st, "children_repaired"));
    fprintf(v->out, "   flips skipped : %s backed off, %s by the static CFG, %s timed out\n",
            get(st, "flips_backoff"), get(st, "flips_skipped_cfg"), get(st, "flips_timed_out"));
    fprintf(v->out, "          search : %s (retry rounds %s; %s traces made progress no block "
                    "shows)\n",
            get(st, "search_state"), get(st, "retry_rounds"), get(st, "traces_progress"));
    fflush(v->out);
}

static void line(const gb_statview_t *v, const stats_t *st, int final)
{
    char bugs[160] = "";
    if (strcmp(get(st, "crash_buckets"), "-") != 0)
        snprintf(bugs, sizeof bugs, " (bugs %s)", get(st, "crash_buckets"));
    fprintf(v->out,
            "[%s] %s%ss execs %s (%s/s) traces %s queue %s pending %s crashes %s%s hangs %s "
            "blocks %s | queries %s: sat %s unsat %s timeout %s opt %s z3 %s\n",
            get(st, "afl_banner"), final ? "done " : "", get(st, "run_time"),
            get(st, "execs_done"), get(st, "execs_per_sec"), get(st, "traces_done"),
            get(st, "corpus_count"), get(st, "pending_total"), get(st, "saved_crashes"), bugs,
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

/* AFL++ rewrites fuzzer_stats about once a minute but plot_data every few
 * seconds: its last row is fresher (a new main showed 0 execs for its
 * first minute). Columns as in corpus/stats.c's header. */
static void fresher_from_plot(const char *inst_dir, stats_t *st)
{
    char path[4300];
    uint8_t *data;
    size_t len;
    snprintf(path, sizeof path, "%s/plot_data", inst_dir);
    if (gb_read_file(path, 1u << 26, &data, &len, NULL) != 0)
        return;
    size_t end = len;
    while (end > 0 && (data[end - 1] == '\n' || data[end - 1] == '\r'))
        end--;
    size_t start = end;
    while (start > 0 && data[start - 1] != '\n')
        start--;
    char row[512];
    size_t n = end - start < sizeof row - 1 ? end - start : sizeof row - 1;
    memcpy(row, data + start, n);
    row[n] = '\0';
    gb_free(data);
    unsigned long long t, cyc, cur, corpus, pend, favs, crashes, hangs, depth, execs, edges;
    double map, eps;
    if (row[0] == '#' ||
        sscanf(row, "%llu, %llu, %llu, %llu, %llu, %llu, %lf%%, %llu, %llu, %llu, %lf, %llu, %llu",
               &t, &cyc, &cur, &corpus, &pend, &favs, &map, &crashes, &hangs, &depth, &eps,
               &execs, &edges) != 13 ||
        execs <= num(st, "execs_done"))
        return;
    const struct {
        const char *key;
        unsigned long long v;
    } upd[] = {{"run_time", t}, {"execs_done", execs}, {"corpus_count", corpus},
               {"saved_crashes", crashes}};
    for (size_t i = 0; i < sizeof upd / sizeof upd[0]; i++)
        for (int k = 0; k < st->n; k++)
            if (!strcmp(st->kv[k].key, upd[i].key))
                snprintf(st->kv[k].val, sizeof st->kv[k].val, "%llu", upd[i].v);
}

/* What the table showed, for the footnotes under it. */
typedef struct seen {
    int gb, afl, starting;
} seen_t;

/* AFL++ 4.04c without its UI writes fuzzer_stats once before it fuzzes
 * (run_time 0, the calibration's execs) and then about once a minute; a
 * live instance whose figures are still that first write (and no fresher
 * plot_data row) is "starting": its run time is known, its execs are not. */
static int afl_starting(const stats_t *st, int gb, int live)
{
    return !gb && live && num(st, "run_time") == 0;
}

static void sync_row(const gb_statview_t *v, const char *name, const stats_t *st,
                     unsigned long long now, seen_t *seen)
{
    unsigned long long lf = num(st, "last_find"), run = num(st, "run_time");
    unsigned long long start = num(st, "start_time");
    int gb = strncmp(get(st, "afl_version"), "glassbox", 8) == 0, live = alive(st);
    int starting = afl_starting(st, gb, live);
    /* Our own rate: AFL++ writes "inf" before its first second. */
    char eps[32] = "-", last[32] = "none", execs[32];
    snprintf(execs, sizeof execs, "%s", starting ? "-" : get(st, "execs_done"));
    if (starting && start && now > start)
        run = now - start;
    else if (run)
        snprintf(eps, sizeof eps, "%.1f", (double)num(st, "execs_done") / (double)run);
    /* A find before this session started (a resumed campaign) is not
     * shown as older than the run. */
    if (lf && now >= lf)
        snprintf(last, sizeof last, lf >= start ? "%llus" : "before", now - lf);
    fprintf(v->out, " %-14.14s %-8s %-8s %8llus %12s %9s %7s %7s %9s", name,
            gb ? "glassbox" : "afl++", starting ? "starting" : live ? "live" : "dead", run, execs,
            eps, get(st, "corpus_count"), get(st, "saved_crashes"), last);
    if (gb)
        fprintf(v->out, "  queries %s: sat %s unsat %s timeout %s", get(st, "queries_total"),
                get(st, "queries_sat"), get(st, "queries_unsat"), get(st, "queries_timeout"));
    fputc('\n', v->out);
    seen->gb |= gb;
    seen->afl |= !gb;
    seen->starting |= starting;
}

/* An AFL++ instance that has written its setup files but no fuzzer_stats
 * yet (it is calibrating its seeds): a row that says so, without numbers. */
static void starting_row(const gb_statview_t *v, const char *sync_dir, const char *name,
                         int final, seen_t *seen)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s/fuzzer_setup", sync_dir, name);
    if (access(path, F_OK) != 0)
        return;
    /* at the end, one that never reported did not start */
    fprintf(v->out, " %-14.14s %-8s %-8s %9s %12s %9s %7s %7s %9s\n", name, "afl++",
            final ? "dead" : "starting", "-", "-", "-", "-", "-", "-");
    seen->afl = 1;
    seen->starting |= !final;
}

/* What differs between the rows, said once under the table. */
static void footnotes(const gb_statview_t *v, const seen_t *seen)
{
    if (seen->starting)
        fprintf(v->out, " starting: afl-fuzz has not reported since it started (4.04c without its "
                        "UI writes fuzzer_stats about once a minute); its execs show then\n");
    if (seen->gb && seen->afl)
        fprintf(v->out, " corpus: queue/ entries; AFL++ keeps inputs with new edges, Glassbox "
                        "also every child its solver made, queued for expansion\n");
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
    fprintf(v->out, " %-14s %-8s %-8s %9s %12s %9s %7u %7u\n", "libfuzzer", "libfuzz", "-", "-",
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
    fprintf(v->out, " %-14s %-8s %-8s %9s %12s %9s %7s %7s %9s\n", "instance", "engine", "state",
            "run time", "execs", "execs/s", "corpus", "crashes", "last find");
    unsigned long long now = (unsigned long long)time(NULL);
    seen_t seen = {0};
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        char path[4200];
        stats_t st;
        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s/fuzzer_stats", sync_dir, de->d_name);
        if (stats_read(path, &st) != 0) {
            starting_row(v, sync_dir, de->d_name, final, &seen);
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", sync_dir, de->d_name);
        fresher_from_plot(path, &st);
        sync_row(v, de->d_name, &st, now, &seen);
    }
    closedir(d);
    libfuzzer_row(v, sync_dir);
    footnotes(v, &seen);
    char triage[4300];
    snprintf(triage, sizeof triage, "%s/triage", sync_dir);
    long bugs = gb_live_buckets(triage);
    if (bugs >= 0)
        fprintf(v->out, " distinct bugs: %ld (every engine's crashes, bucketed in %s)\n", bugs,
                triage);
    if (v->note)
        fprintf(v->out, " note: %s\n", v->note);
    fflush(v->out);
}
