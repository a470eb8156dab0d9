/* SPDX-License-Identifier: Apache-2.0 */
/* Import from peers in the sync directory, the way AFL++ instances trade:
 * every other OUT/<peer>/queue is read from a per-peer cursor (the next id,
 * persisted in OUT/NAME/.synced/<peer>), each new input runs on the cov
 * build, is scored and joins the worklist. Renumbering (AFL++ resuming)
 * resets the cursor; content hashes keep re-reads from running twice. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "search_int.h"

static gb_peer_t *peer_get(gb_search_t *s, const char *name)
{
    for (size_t i = 0; i < s->npeers; i++)
        if (strcmp(s->peers[i].name, name) == 0)
            return &s->peers[i];
    gb_peer_t *np = gb_realloc(s->peers, (s->npeers + 1) * sizeof *np);
    if (!np)
        return NULL;
    s->peers = np;
    gb_peer_t *p = &s->peers[s->npeers];
    memset(p, 0, sizeof *p);
    if (!(p->name = gb_strdup(name)))
        return NULL;
    s->npeers++;
    gb_sync_load_cursor(s, p);
    return p;
}

static void cursor_path(const gb_search_t *s, const char *peer, char *buf, size_t n)
{
    snprintf(buf, n, "%s/.synced/%s", gb_campaign_dir(s->camp), peer);
}

/* The cursor file: "<next id>\n<name of entry next-1>\n". */
void gb_sync_load_cursor(gb_search_t *s, gb_peer_t *p)
{
    char path[4200];
    cursor_path(s, p->name, path, sizeof path);
    uint8_t *data;
    size_t len;
    if (gb_read_file(path, 4096, &data, &len, NULL) != 0)
        return;
    char buf[4097];
    memcpy(buf, data, len);
    buf[len] = '\0';
    gb_free(data);
    char *nl = strchr(buf, '\n');
    p->next_id = (uint32_t)strtoul(buf, NULL, 10);
    if (nl && nl[1]) {
        char *end = strchr(nl + 1, '\n');
        if (end)
            *end = '\0';
        gb_free(p->last_name);
        p->last_name = gb_strdup(nl + 1);
    }
}

static int save_cursor(gb_search_t *s, const gb_peer_t *p, gb_err_t *e)
{
    char dir[4200], path[4300], body[4200];
    snprintf(dir, sizeof dir, "%s/.synced", gb_campaign_dir(s->camp));
    if (gb_mkdirs(dir, e) != 0)
        return -1;
    cursor_path(s, p->name, path, sizeof path);
    int n = snprintf(body, sizeof body, "%u\n%s\n", p->next_id, p->last_name ? p->last_name : "");
    return gb_write_atomic(path, gb_campaign_tmpdir(s->camp), body, (size_t)n, e);
}

/* The peer renumbered its queue (AFL++ -i - / AFL_AUTORESUME) when the
 * entry before our cursor is gone or has another name: start over. */
static void check_renumbered(gb_peer_t *p, const gb_entry_t *en, size_t n)
{
    if (p->next_id == 0 || !p->last_name)
        return;
    for (size_t i = 0; i < n; i++)
        if (en[i].id == p->next_id - 1 && strcmp(en[i].name, p->last_name) == 0)
            return;
    p->next_id = 0;
}

int gb_sync_import(gb_search_t *s, const char *path, const char *desc, gb_err_t *e)
{
    uint8_t *data;
    size_t len;
    if (gb_read_file(path, GB_MAX_INPUT, &data, &len, NULL) != 0)
        return 0; /* too large (AFL++ skips those too), or gone: not ours to worry */
    int fresh = gb_hset_add(&s->seen, gb_hash64(data, len, 0));
    if (fresh <= 0) {
        gb_free(data);
        return fresh < 0 ? gb_err_set(e, "out of memory") : 0;
    }
    gb_item_t *it = gb_item_new(data, len, s->seq++);
    gb_free(data);
    if (!it)
        return gb_err_set(e, "out of memory");
    s->st.imported++;
    int kind = gb_search_run_check(s, it, desc, e);
    if (kind > 0 && gb_search_keep(s, it, kind, desc, e) == 0)
        return 0;
    gb_item_free(it);
    return kind < 0 ? -1 : 0;
}

static int import_one(gb_search_t *s, gb_peer_t *p, const char *dir, const gb_entry_t *en,
                      gb_err_t *e)
{
    char path[4400], desc[200];
    snprintf(path, sizeof path, "%s/%s", dir, en->name);
    snprintf(desc, sizeof desc, "sync:%.40s,src:%06u", p->name, en->id);
    return gb_sync_import(s, path, desc, e);
}

static int sync_peer(gb_search_t *s, const char *name, gb_err_t *e)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s/queue", s->o.out, name);
    gb_entry_t *en;
    size_t n;
    if (gb_entries_list(dir, &en, &n, NULL) != 0 || n == 0)
        return 0;
    gb_peer_t *p = peer_get(s, name);
    int r = p ? 0 : gb_err_set(e, "out of memory");
    if (p)
        check_renumbered(p, en, n);
    uint32_t before = p ? p->next_id : 0;
    for (size_t i = 0; i < n && r == 0 && !s->stop; i++) {
        if (en[i].id < p->next_id)
            continue;
        r = import_one(s, p, dir, &en[i], e);
        p->next_id = en[i].id + 1;
        gb_free(p->last_name);
        p->last_name = gb_strdup(en[i].name);
    }
    if (r == 0 && p && p->next_id != before)
        r = save_cursor(s, p, e);
    gb_entries_free(en, n);
    return r;
}

int gb_sync_run(gb_search_t *s, gb_err_t *e)
{
    s->last_sync_ms = gb_time_ms();
    DIR *d = opendir(s->o.out);
    if (!d)
        return gb_lf_import(s, e);
    struct dirent *de;
    int r = 0;
    while (r == 0 && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || strcmp(de->d_name, s->o.name) == 0)
            continue;
        r = sync_peer(s, de->d_name, e);
    }
    closedir(d);
    return r == 0 ? gb_lf_import(s, e) : r;
}

void gb_sync_free(gb_search_t *s)
{
    for (size_t i = 0; i < s->npeers; i++) {
        gb_free(s->peers[i].name);
        gb_free(s->peers[i].last_name);
    }
    gb_free(s->peers);
    s->peers = NULL;
    s->npeers = 0;
}

/* Claims `it` for expansion by this worker: SYNC/.glassbox-claims/<hash>
 * made with O_EXCL holds the claimant's name. Workers of one sync dir
 * import each other's queues, so the same content reaches several of them;
 * only the first to claim it expands it. Returns 1 if ours (new, or ours
 * from before a resume), 0 if another worker's, -1 on error. */
int gb_claim(gb_search_t *s, const gb_item_t *it, gb_err_t *e)
{
    char dir[4200], path[4300];
    snprintf(dir, sizeof dir, "%s/.glassbox-claims", s->o.out);
    if (!s->claims_ready) {
        if (gb_mkdirs(dir, e) != 0)
            return -1;
        s->claims_ready = 1;
    }
    snprintf(path, sizeof path, "%s/%016llx", dir,
             (unsigned long long)gb_hash64(it->data, it->len, 0));
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
        size_t n = strlen(s->o.name);
        int ok = write(fd, s->o.name, n) == (ssize_t)n;
        close(fd);
        return ok ? 1 : gb_err_sys(e, "cannot write %s", path);
    }
    if (errno != EEXIST)
        return gb_err_sys(e, "cannot create %s", path);
    uint8_t *owner;
    size_t len;
    if (gb_read_file(path, 256, &owner, &len, NULL) != 0)
        return 0;
    int mine = len == strlen(s->o.name) && memcmp(owner, s->o.name, len) == 0;
    gb_free(owner);
    return mine;
}
