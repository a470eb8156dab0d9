/* SPDX-License-Identifier: Apache-2.0 */
/* Exchange with the other instances of a sync directory, the way AFL++
 * instances trade: every other SYNC/<peer>/queue is read from a per-peer
 * cursor (the next id, persisted in OUT/NAME/.synced/<peer>); renumbering
 * (AFL++ resuming) resets the cursor. Also a libFuzzer corpus directory
 * (flat, SHA-1 names): what the search keeps is written there, and new
 * files there are read like a peer's entries. Peers are untrusted: no
 * symlink is followed, only regular files are read, sizes are capped. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bridge_int.h"
#include "corpus.h"
#include "gb_files.h"

/* A peer instance and how far we have read it. */
typedef struct peer {
    char *name;
    uint32_t next_id; /* first queue id not yet read */
    char *last_name;  /* name of entry next_id - 1, to notice renumbering */
} peer_t;

struct gb_peers {
    gb_peers_opts_t o;
    peer_t *v;
    size_t n;
    gb_hset_t lf_names; /* libFuzzer corpus names already handled */
    gb_hset_t warned;   /* names already warned about (opts.warn) */
    int claims_fd;      /* SYNC/.glassbox-claims, -1 until the first claim */
};

int gb_peers_new(const gb_peers_opts_t *o, gb_peers_t **out, gb_err_t *e)
{
    *out = gb_calloc(1, sizeof **out);
    if (!*out)
        return gb_err_set(e, "out of memory");
    (*out)->o = *o;
    (*out)->claims_fd = -1;
    if (!o->max_input)
        (*out)->o.max_input = GB_MAX_INPUT;
    int lfd = o->libfuzzer_dir ? gb_dir_open(o->libfuzzer_dir, NULL, 1, e) : -2;
    if (lfd == -1) {
        gb_peers_free(*out);
        *out = NULL;
        return -1;
    }
    if (lfd >= 0)
        close(lfd);
    return 0;
}

void gb_peers_free(gb_peers_t *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++) {
        gb_free(p->v[i].name);
        gb_free(p->v[i].last_name);
    }
    gb_free(p->v);
    gb_hset_free(&p->lf_names);
    gb_hset_free(&p->warned);
    if (p->claims_fd >= 0)
        close(p->claims_fd);
    gb_free(p);
}

int gb_peers_active(const gb_peers_t *p) { return p->n > 0 || p->o.libfuzzer_dir != NULL; }

/* 1 if `name` can go into a queue file name ("sync:NAME,src:..."): no
 * byte below 0x20 and no DEL (a line break would end the name). */
static int name_ok(const char *name)
{
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            return 0;
    return 1;
}

/* Tells opts.warn, once per name, that `what` named `name` is skipped. */
static void warn_name(gb_peers_t *p, const char *what, const char *name)
{
    if (!p->o.warn || gb_hset_add(&p->warned, gb_hash64(name, strlen(name), 1)) != 1)
        return;
    char shown[120], msg[300];
    size_t i = 0;
    for (; name[i] && i < sizeof shown - 1; i++) {
        unsigned char c = (unsigned char)name[i];
        shown[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    shown[i] = '\0';
    snprintf(msg, sizeof msg, "%s '%s' skipped: its name holds a line break or a control byte",
             what, shown);
    p->o.warn(p->o.warn_ctx, msg);
}

int gb_peers_cursor_parse(const uint8_t *data, size_t len, uint32_t *next_id, char **last_name)
{
    char buf[GB_CURSOR_MAX + 1];
    if (len > GB_CURSOR_MAX)
        len = GB_CURSOR_MAX;
    memcpy(buf, data, len);
    buf[len] = '\0';
    char *nl = strchr(buf, '\n');
    *next_id = (uint32_t)strtoul(buf, NULL, 10);
    *last_name = NULL;
    if (nl && nl[1]) {
        char *end = strchr(nl + 1, '\n');
        if (end)
            *end = '\0';
        if (!(*last_name = gb_strdup(nl + 1)))
            return -1;
    }
    return 0;
}

/* The cursor file: "<next id>\n<name of entry next-1>\n". */
static void load_cursor(const gb_peers_t *p, peer_t *q)
{
    uint8_t *data;
    size_t len;
    int dfd = gb_dir_open(p->o.state_dir, ".synced", 0, NULL);
    int rc = dfd >= 0 ? gb_read_file_at(dfd, q->name, GB_CURSOR_MAX, &data, &len, NULL) : -1;
    if (dfd >= 0)
        close(dfd);
    if (rc != 0)
        return;
    char *last;
    if (gb_peers_cursor_parse(data, len, &q->next_id, &last) == 0 && last) {
        gb_free(q->last_name);
        q->last_name = last;
    }
    gb_free(data);
}

/* Our own directory, written by descriptor: .synced and the staging dir
 * are opened without following a symlink a peer may have planted. */
static int save_cursor(const gb_peers_t *p, const peer_t *q, gb_err_t *e)
{
    char body[PATH_MAX];
    int n = snprintf(body, sizeof body, "%u\n%s\n", q->next_id, q->last_name ? q->last_name : "");
    if (n < 0 || (size_t)n >= sizeof body)
        return gb_err_set(e, "cursor of %s too long", q->name);
    int dfd = gb_dir_open(p->o.state_dir, ".synced", 1, e);
    if (dfd < 0)
        return -1;
    int tfd = p->o.tmp_dir ? gb_dir_open(p->o.tmp_dir, NULL, 0, NULL) : -1;
    int rc = gb_file_write_at(dfd, q->name, tfd, body, (size_t)n, e);
    if (tfd >= 0)
        close(tfd);
    close(dfd);
    return rc;
}

static peer_t *peer_get(gb_peers_t *p, const char *name)
{
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->v[i].name, name) == 0)
            return &p->v[i];
    peer_t *nv = gb_realloc(p->v, (p->n + 1) * sizeof *nv);
    if (!nv)
        return NULL;
    p->v = nv;
    peer_t *q = &p->v[p->n];
    memset(q, 0, sizeof *q);
    if (!(q->name = gb_strdup(name)))
        return NULL;
    p->n++;
    load_cursor(p, q);
    return q;
}

/* The peer renumbered its queue (AFL++ -i - / AFL_AUTORESUME) when the
 * entry before our cursor is gone or has another name: start over. */
static void check_renumbered(peer_t *q, const gb_entry_t *en, size_t n)
{
    if (q->next_id == 0 || !q->last_name)
        return;
    for (size_t i = 0; i < n; i++)
        if (en[i].id == q->next_id - 1 && strcmp(en[i].name, q->last_name) == 0)
            return;
    q->next_id = 0;
}

/* Reads `name` in `dirfd` and hands it over. A file that is not a regular
 * file of at most max_input bytes (a symlink, a directory, a FIFO, too
 * large, gone) is skipped: AFL++ skips large files too. The functions
 * below return a gb_take_t for the sync as a whole: FATAL (-1, with `e`)
 * also when they fail themselves. */
static gb_take_t hand_over(const gb_peers_t *p, int dirfd, const char *name, const char *desc,
                           gb_peer_input_fn fn, void *ctx, gb_err_t *e)
{
    uint8_t *data;
    size_t len;
    if (gb_read_file_at(dirfd, name, p->o.max_input, &data, &len, NULL) != 0)
        return GB_TAKE_OK;
    gb_take_t r = fn(ctx, data, len, desc, e);
    gb_free(data);
    return r;
}

/* Opens `name` in `dirfd` as a directory without following a symlink. */
static int open_dir_at(int dirfd, const char *name)
{
    return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* A peer counts (gb_peers_active) from its first queue entry on: an
 * instance that never queued anything may be a leftover directory. */
static gb_take_t read_queue(gb_peers_t *p, const char *name, int qfd, gb_peer_input_fn fn,
                            void *ctx, gb_err_t *e)
{
    gb_entry_t *en;
    size_t n;
    if (gb_entries_list_at(qfd, &en, &n, NULL) != 0 || n == 0)
        return GB_TAKE_OK;
    peer_t *q = peer_get(p, name);
    if (!q) {
        gb_entries_free(en, n);
        return gb_err_set(e, "out of memory");
    }
    check_renumbered(q, en, n);
    uint32_t before = q->next_id;
    gb_take_t r = GB_TAKE_OK;
    for (size_t i = 0; i < n && r == GB_TAKE_OK; i++) {
        if (en[i].id < q->next_id)
            continue;
        char desc[200];
        snprintf(desc, sizeof desc, "sync:%.40s,src:%06u", q->name, en[i].id);
        r = hand_over(p, qfd, en[i].name, desc, fn, ctx, e);
        if (r != GB_TAKE_OK)
            break; /* not taken: the cursor stays before it */
        q->next_id = en[i].id + 1;
        gb_free(q->last_name);
        q->last_name = gb_strdup(en[i].name);
    }
    if (r != GB_TAKE_FATAL && q->next_id != before && save_cursor(p, q, e) != 0)
        r = GB_TAKE_FATAL;
    gb_entries_free(en, n);
    return r;
}

static gb_take_t sync_peer(gb_peers_t *p, int syncfd, const char *name, gb_peer_input_fn fn,
                           void *ctx, gb_err_t *e)
{
    int pfd = open_dir_at(syncfd, name);
    int qfd = pfd >= 0 ? open_dir_at(pfd, "queue") : -1;
    if (pfd >= 0)
        close(pfd);
    if (qfd < 0)
        return GB_TAKE_OK; /* not an instance, or a symlink: not ours to read */
    gb_take_t r = read_queue(p, name, qfd, fn, ctx, e);
    close(qfd);
    return r;
}

static gb_take_t lf_import(gb_peers_t *p, gb_peer_input_fn fn, void *ctx, gb_err_t *e)
{
    int dfd = open(p->o.libfuzzer_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return errno == ENOENT ? GB_TAKE_OK : gb_err_sys(e, "cannot read %s", p->o.libfuzzer_dir);
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return gb_err_sys(e, "cannot read %s", p->o.libfuzzer_dir);
    }
    struct dirent *de;
    gb_take_t r = GB_TAKE_OK;
    while (r == GB_TAKE_OK && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        uint64_t h = gb_hash64(de->d_name, strlen(de->d_name), 0);
        if (gb_hset_has(&p->lf_names, h))
            continue;
        if (!name_ok(de->d_name)) {
            warn_name(p, "libFuzzer corpus file", de->d_name);
            continue;
        }
        char desc[64];
        snprintf(desc, sizeof desc, "sync:libfuzzer,sha1:%.12s", de->d_name);
        r = hand_over(p, dirfd(d), de->d_name, desc, fn, ctx, e);
        if (r == GB_TAKE_OK && gb_hset_add(&p->lf_names, h) < 0)
            r = gb_err_set(e, "out of memory");
    }
    closedir(d);
    return r;
}

int gb_peers_sync(gb_peers_t *p, gb_peer_input_fn fn, void *ctx, gb_err_t *e)
{
    int syncfd = open(p->o.sync_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = syncfd >= 0 ? fdopendir(syncfd) : NULL;
    if (!d && syncfd >= 0)
        close(syncfd);
    gb_take_t r = GB_TAKE_OK;
    struct dirent *de;
    while (d && r == GB_TAKE_OK && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || strcmp(de->d_name, p->o.name) == 0)
            continue;
        if (!name_ok(de->d_name)) {
            warn_name(p, "peer directory", de->d_name);
            continue;
        }
        r = sync_peer(p, dirfd(d), de->d_name, fn, ctx, e);
    }
    if (d)
        closedir(d);
    if (r == GB_TAKE_OK && p->o.libfuzzer_dir)
        r = lf_import(p, fn, ctx, e);
    return r == GB_TAKE_FATAL ? -1 : 0;
}

/* Writes the input as DIR/<sha1> unless it is there: staged in our tmp dir
 * (same file system: a rename libFuzzer never sees half-done), else in DIR
 * under a dot name. */
int gb_peers_kept(gb_peers_t *p, const uint8_t *data, size_t len, gb_err_t *e)
{
    if (!p->o.libfuzzer_dir)
        return 0;
    char sha[41];
    gb_sha1_hex(data, len, sha);
    gb_hset_add(&p->lf_names, gb_hash64(sha, 40, 0));
    int dfd = gb_dir_open(p->o.libfuzzer_dir, NULL, 0, e);
    if (dfd < 0)
        return -1;
    struct stat st;
    if (fstatat(dfd, sha, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        close(dfd); /* there already: nothing to stage */
        return 0;
    }
    /* Published, never replacing: a name there already (ours, libFuzzer's,
     * or something planted) is left as it is. */
    int tfd = p->o.tmp_dir ? gb_dir_open(p->o.tmp_dir, NULL, 0, NULL) : -1;
    int rc = tfd >= 0 ? gb_file_publish_at(dfd, sha, tfd, data, len, NULL) : -1;
    if (rc < 0)
        rc = gb_file_publish_at(dfd, sha, -1, data, len, e);
    if (tfd >= 0)
        close(tfd);
    close(dfd);
    return rc < 0 ? -1 : 0;
}

/* SYNC/.glassbox-claims/<hash> made with O_EXCL holds the claimant's name.
 * Workers of one sync dir import each other's queues, so the same content
 * reaches several of them; only the first to claim it expands it. */
int gb_peers_claim(gb_peers_t *p, const uint8_t *data, size_t len, gb_err_t *e)
{
    if (p->claims_fd < 0) {
        /* Opened once, by descriptor: a symlink planted in its place is
         * refused, so no claim file lands outside the sync dir. */
        gb_err_t sub = {{0}};
        p->claims_fd = gb_dir_open(p->o.sync_dir, ".glassbox-claims", 1, &sub);
        if (p->claims_fd < 0)
            return gb_err_set(e, "%s/.glassbox-claims: %s", p->o.sync_dir, sub.msg);
    }
    char name[32];
    snprintf(name, sizeof name, "%016llx", (unsigned long long)gb_hash64(data, len, 0));
    size_t n = strlen(p->o.name);
    /* Published whole under its name (a link never replaces): a reader
     * never sees a claim without its owner. */
    int rc = gb_file_publish_at(p->claims_fd, name, -1, p->o.name, n, e);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return 1;
    uint8_t *owner;
    size_t olen;
    if (gb_read_file_at(p->claims_fd, name, 256, &owner, &olen, NULL) != 0)
        return 0;
    int mine = olen == n && memcmp(owner, p->o.name, n) == 0;
    gb_free(owner);
    return mine;
}
