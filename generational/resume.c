/* SPDX-License-Identifier: Apache-2.0 */
/* Resume: the queue is the worklist's durable form, and the expansion
 * journal (corpus/) says which stored inputs no longer need expanding. On
 * --resume every stored input is run again on the cov build to rebuild
 * coverage and the seen-set, and the unexpanded ones go back on the
 * worklist; counters continue from the old fuzzer_stats. A kill -9 loses
 * at most the expansion in flight. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search_int.h"

/* The bound a stored child was made with: "pos:J" in its name means j. */
static size_t bound_from_name(const char *name)
{
    const char *p = strstr(name, ",pos:");
    return p ? (size_t)strtoull(p + 5, NULL, 10) + 1 : 0;
}

/* Re-runs one stored input; puts it back on the worklist unless done. An
 * entry that is not a regular file of at most GB_MAX_INPUT bytes (a FIFO
 * or a symlink planted there, a file grown too large) is skipped and
 * counted in *skipped, its reason kept in `why`: the directory is shared. */
static int restore_one(gb_search_t *s, int dirfd, const gb_entry_t *en, gb_stored_t where,
                       size_t *skipped, gb_err_t *why, gb_err_t *e)
{
    uint8_t *data;
    size_t len;
    gb_err_t sub = {{0}};
    if (gb_read_file_at(dirfd, en->name, GB_MAX_INPUT, &data, &len, &sub) != 0) {
        if ((*skipped)++ == 0)
            *why = sub;
        return 0;
    }
    gb_run_fresh(&s->run, data, len, 0); /* a child equal to it is a duplicate */
    gb_item_t *it = gb_item_new(data, len, s->seq++);
    gb_free(data);
    if (!it)
        return gb_err_set(e, "out of memory");
    int is_crash = where == GB_STORED_CRASH;
    gb_run_kind_t kind = gb_run_again(s, it, is_crash, e);
    if (kind <= GB_KIND_HUNG || gb_journal_done(s->journal, where, en->id)) {
        gb_item_free(it);
        return kind == GB_KIND_FATAL ? -1 : 0;
    }
    it->bound = bound_from_name(en->name);
    if (is_crash) {
        it->crash_id = en->id;
    } else {
        it->queue_id = en->id;
        it->file = gb_strdup(en->name); /* NULL: it keeps its bytes */
    }
    if (gb_worklist_push(&s->work, it) != 0) {
        gb_item_free(it);
        return gb_err_set(e, "out of memory");
    }
    return 0;
}

static int restore_dir(gb_search_t *s, const char *dir, gb_stored_t where, gb_err_t *e)
{
    gb_entry_t *en;
    size_t n, skipped = 0;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* read only */
    if (dfd < 0)
        return gb_err_sys(e, "cannot open %s", dir);
    if (gb_entries_list_at(dfd, &en, &n, e) != 0) {
        close(dfd);
        return -1;
    }
    gb_err_t why = {{0}};
    int r = 0;
    for (size_t i = 0; i < n && r == 0; i++)
        r = restore_one(s, dfd, &en[i], where, &skipped, &why, e);
    gb_entries_free(en, n);
    close(dfd);
    if (skipped) {
        char msg[sizeof why.msg + PATH_MAX + 100];
        snprintf(msg, sizeof msg, "--resume: %zu entr%s of %s skipped, not a readable regular "
                 "file (%s)", skipped, skipped == 1 ? "y" : "ies", dir, why.msg);
        gb_run_warn(s, msg);
    }
    return r;
}

/* The input the last session died expanding (the journal's open begin
 * record) is marked expanded, with one note: expanding it again would most
 * likely end this session the same way, and a campaign that restarts its
 * worker would go round for good. */
static int skip_fatal(gb_search_t *s, gb_err_t *e)
{
    gb_stored_t kind;
    uint32_t id;
    if (!gb_journal_died_in(s->journal, &kind, &id) || gb_journal_done(s->journal, kind, id))
        return 0;
    if (gb_journal_append(s->journal, kind, id, e) != 0)
        return -1;
    char msg[200];
    snprintf(msg, sizeof msg, "--resume: %s id %u was being expanded when the last session "
             "died (Z3's memory ceiling, the OOM killer or a kill -9); marked expanded, not "
             "expanded again", kind == GB_STORED_CRASH ? "crash" : "input", id);
    gb_run_warn(s, msg);
    return 0;
}

int gb_resume_load(gb_search_t *s, gb_err_t *e)
{
    gb_report_restore(s);
    if (skip_fatal(s, e) != 0)
        return -1;
    if (restore_dir(s, gb_campaign_queue_dir(s->camp), GB_STORED_QUEUE, e) != 0)
        return -1;
    return restore_dir(s, gb_campaign_crash_dir(s->camp), GB_STORED_CRASH, e);
}
