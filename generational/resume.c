/* SPDX-License-Identifier: Apache-2.0 */
/* Resume: the queue is the worklist's durable form. An append-only journal
 * (OUT/NAME/.expanded, one "q ID" or "c ID" line per finished expansion)
 * says what no longer needs expanding. On --resume every stored input is
 * run again on the cov build to rebuild coverage and the seen-set, and the
 * unexpanded ones go back on the worklist; counters continue from the old
 * fuzzer_stats. A kill -9 loses at most the expansion in flight. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search_int.h"

static void journal_path(const gb_search_t *s, char *buf, size_t n)
{
    snprintf(buf, n, "%s/.expanded", gb_campaign_dir(s->camp));
}

int gb_journal_expanded(gb_search_t *s, const gb_item_t *it, gb_err_t *e)
{
    char line[32];
    int n;
    if (it->queue_id >= 0)
        n = snprintf(line, sizeof line, "q %lld\n", (long long)it->queue_id);
    else if (it->crash_id >= 0)
        n = snprintf(line, sizeof line, "c %lld\n", (long long)it->crash_id);
    else
        return 0; /* neither stored nor resumable: nothing to record */
    if (s->journal_fd < 0) {
        char path[4200];
        journal_path(s, path, sizeof path);
        s->journal_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (s->journal_fd < 0)
            return gb_err_sys(e, "cannot open %s", path);
    }
    /* One write of a short line with O_APPEND: a reader sees it whole or
     * not at all, and a torn last line (power loss) is ignored on resume. */
    while (write(s->journal_fd, line, (size_t)n) != n)
        if (!gb_wait_for_space(s, errno))
            return gb_err_sys(e, "cannot append to the expansion journal");
    return 0;
}

/* Marks journaled ids in two bitmaps (index = id). */
static int read_journal(gb_search_t *s, uint8_t **q, uint8_t **c, uint32_t nq, uint32_t nc)
{
    *q = gb_calloc(nq / 8 + 1, 1);
    *c = gb_calloc(nc / 8 + 1, 1);
    if (!*q || !*c)
        return -1;
    char path[4200];
    journal_path(s, path, sizeof path);
    uint8_t *data;
    size_t len;
    if (gb_read_file(path, 1u << 30, &data, &len, NULL) != 0)
        return 0; /* no journal: nothing was expanded */
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && data[j] != '\n')
            j++;
        if (j == len)
            break; /* torn last line */
        char kind = (char)data[i];
        unsigned long id = strtoul((const char *)data + i + 2, NULL, 10);
        if (kind == 'q' && id < nq)
            (*q)[id / 8] |= (uint8_t)(1u << (id % 8));
        else if (kind == 'c' && id < nc)
            (*c)[id / 8] |= (uint8_t)(1u << (id % 8));
        i = j + 1;
    }
    gb_free(data);
    return 0;
}

/* The bound a stored child was made with: "pos:J" in its name means j. */
static size_t bound_from_name(const char *name)
{
    const char *p = strstr(name, ",pos:");
    return p ? (size_t)strtoull(p + 5, NULL, 10) + 1 : 0;
}

/* Re-runs one stored input; puts it back on the worklist unless done. */
static int restore_one(gb_search_t *s, const char *dir, const gb_entry_t *en, int is_crash,
                       int done, gb_err_t *e)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, en->name);
    uint8_t *data;
    size_t len;
    if (gb_read_file(path, GB_MAX_INPUT, &data, &len, e) != 0)
        return -1;
    gb_hset_add(&s->seen, gb_hash64(data, len, 0));
    gb_item_t *it = gb_item_new(data, len, s->seq++);
    gb_free(data);
    if (!it)
        return gb_err_set(e, "out of memory");
    int kind = gb_search_rerun(s, it, is_crash, e);
    if (kind < 0 || done || kind == 0) {
        gb_item_free(it);
        return kind < 0 ? -1 : 0;
    }
    it->bound = bound_from_name(en->name);
    if (is_crash)
        it->crash_id = en->id;
    else
        it->queue_id = en->id;
    if (gb_worklist_push(&s->work, it) != 0) {
        gb_item_free(it);
        return gb_err_set(e, "out of memory");
    }
    return 0;
}

static int restore_dir(gb_search_t *s, const char *dir, int is_crash, const uint8_t *done,
                       uint32_t ndone, gb_err_t *e)
{
    gb_entry_t *en;
    size_t n;
    if (gb_entries_list(dir, &en, &n, e) != 0)
        return -1;
    int r = 0;
    for (size_t i = 0; i < n && r == 0; i++) {
        int d = en[i].id < ndone && (done[en[i].id / 8] & (1u << (en[i].id % 8)));
        r = restore_one(s, dir, &en[i], is_crash, d, e);
    }
    gb_entries_free(en, n);
    return r;
}

/* Counters carried over from the previous session's fuzzer_stats. */
static void restore_counters(gb_search_t *s)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/fuzzer_stats", gb_campaign_dir(s->camp));
    uint8_t *data;
    size_t len;
    if (gb_read_file(path, 1u << 20, &data, &len, NULL) != 0)
        return;
    char *text = gb_malloc(len + 1);
    if (text) {
        memcpy(text, data, len);
        text[len] = '\0';
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            char key[64];
            unsigned long long v;
            if (sscanf(line, "%63s : %llu", key, &v) != 2)
                continue;
            if (!strcmp(key, "execs_done"))
                s->prev.execs = v;
            else if (!strcmp(key, "traces_done"))
                s->prev.traces = v;
            else if (!strcmp(key, "inputs_expanded"))
                s->prev.expanded = v;
            else if (!strcmp(key, "run_time"))
                s->prev_run_s = v;
        }
    }
    gb_free(text);
    gb_free(data);
}

int gb_resume_load(gb_search_t *s, gb_err_t *e)
{
    restore_counters(s);
    uint32_t nq = gb_campaign_queue_count(s->camp) + 1, nc = 1u << 20;
    uint8_t *q = NULL, *c = NULL;
    int r = read_journal(s, &q, &c, nq, nc) != 0 ? gb_err_set(e, "out of memory") : 0;
    if (r == 0)
        r = restore_dir(s, gb_campaign_queue_dir(s->camp), 0, q, nq, e);
    if (r == 0)
        r = restore_dir(s, gb_campaign_crash_dir(s->camp), 1, c, nc, e);
    gb_free(q);
    gb_free(c);
    return r;
}
