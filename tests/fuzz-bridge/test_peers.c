/* SPDX-License-Identifier: Apache-2.0 */
/* The exchange with peers treats a sync directory as hostile: a symlink in
 * a peer's queue (to a file outside the sync dir), a symlinked peer dir or
 * queue dir, a directory or FIFO in place of a file and an oversized file
 * are never read; regular files are, once, with cursors that survive a new
 * gb_peers_t. Usage: test_peers WORKDIR. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fuzz_bridge.h"

#define SECRET "SECRET-OUTSIDE-THE-SYNC-DIR"

typedef struct got {
    int n, secret, stop_after;
    char descs[16][200];
} got_t;

static gb_take_t take(void *ctx, const uint8_t *data, size_t len, const char *desc, gb_err_t *e)
{
    (void)e;
    got_t *g = ctx;
    if (g->stop_after && g->n >= g->stop_after)
        return GB_TAKE_LATER;
    if (len >= strlen(SECRET) && memmem(data, len, SECRET, strlen(SECRET)))
        g->secret++;
    if (g->n < 16)
        snprintf(g->descs[g->n], sizeof g->descs[0], "%s", desc);
    g->n++;
    return GB_TAKE_OK;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

/* put() for DIR/NAME. */
static void put_in(const char *dir, const char *name, const char *text)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    put(path, text);
}

static void sh(const char *fmt, const char *a, const char *b)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, fmt, a, b);
    if (system(cmd) != 0) {
        fprintf(stderr, "failed: %s\n", cmd);
        exit(2);
    }
}

static int sync_once(const char *sync, got_t *g, size_t max_input)
{
    char state[4096], tmp[4096];
    snprintf(state, sizeof state, "%s/me", sync);
    snprintf(tmp, sizeof tmp, "%s/me/.tmp", sync);
    gb_peers_opts_t o = {.sync_dir = sync, .name = "me", .state_dir = state, .tmp_dir = tmp,
                         .max_input = max_input};
    gb_peers_t *p;
    gb_err_t e;
    if (gb_peers_new(&o, &p, &e) != 0) {
        fprintf(stderr, "gb_peers_new: %s\n", e.msg);
        return -1;
    }
    int rc = gb_peers_sync(p, take, g, &e);
    if (rc != 0)
        fprintf(stderr, "gb_peers_sync: %s\n", e.msg);
    gb_peers_free(p);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return fprintf(stderr, "usage: test_peers WORKDIR\n"), 2;
    char root[1024], sync[2048], outside[2048], q[4096], path[8192];
    snprintf(root, sizeof root, "%s/peers", argv[1]);
    snprintf(sync, sizeof sync, "%s/sync", root);
    snprintf(outside, sizeof outside, "%s/outside", root);
    sh("rm -rf '%s' && mkdir -p '%s'", root, root);
    sh("mkdir -p '%s/me/.tmp' '%s/honest/queue'", sync, sync);
    sh("mkdir -p '%s/evil/queue' '%s/elsewhere/queue'", sync, outside);
    snprintf(path, sizeof path, "%s/secret", outside);
    put(path, SECRET);
    snprintf(path, sizeof path, "%s/elsewhere/queue/id:000000,orig:x", outside);
    put(path, SECRET " via a symlinked peer");

    snprintf(q, sizeof q, "%s/honest/queue", sync);
    put_in(q, "id:000000,orig:a", "first");
    put_in(q, "id:000001,orig:b", "second");
    put_in(q, "not-an-afl-name", "skipped: not an id: name");

    snprintf(q, sizeof q, "%s/evil/queue", sync);
    snprintf(path, sizeof path, "%s/id:000000,link", q);
    CHECK_MSG(symlink("../../../outside/secret", path) == 0, "symlink: %s", strerror(errno));
    snprintf(path, sizeof path, "%s/id:000001,abs-link", q);
    char target[4200];
    snprintf(target, sizeof target, "%s/secret", outside);
    CHECK_MSG(symlink(target, path) == 0, "symlink: %s", strerror(errno));
    snprintf(path, sizeof path, "%s/id:000002,dir", q);
    CHECK_MSG(mkdir(path, 0755) == 0, "mkdir: %s", strerror(errno));
    snprintf(path, sizeof path, "%s/id:000003,fifo", q);
    CHECK_MSG(mkfifo(path, 0644) == 0, "mkfifo: %s", strerror(errno));
    put_in(q, "id:000004,big", "0123456789012345678901234567890123456789 larger than the cap");
    put_in(q, "id:000005,ok", "small");
    /* A peer dir and a queue dir that are symlinks out of the sync dir. */
    snprintf(path, sizeof path, "%s/linked-peer", sync);
    snprintf(target, sizeof target, "%s/elsewhere", outside);
    CHECK_MSG(symlink(target, path) == 0, "symlink: %s", strerror(errno));
    snprintf(path, sizeof path, "%s/linked-queue", sync);
    CHECK_MSG(mkdir(path, 0755) == 0, "mkdir: %s", strerror(errno));
    snprintf(path, sizeof path, "%s/linked-queue/queue", sync);
    snprintf(target, sizeof target, "%s/elsewhere/queue", outside);
    CHECK_MSG(symlink(target, path) == 0, "symlink: %s", strerror(errno));

    got_t g = {0};
    CHECK_MSG(sync_once(sync, &g, 32) == 0, "first sync failed");
    CHECK_MSG(g.secret == 0, "a file outside the sync dir was imported %d times", g.secret);
    CHECK_MSG(g.n == 3, "want 3 inputs (first, second, small), got %d", g.n);
    int honest = 0, ok = 0;
    for (int i = 0; i < g.n && i < 16; i++) {
        honest += strstr(g.descs[i], "sync:honest,src:00000") != NULL;
        ok += strcmp(g.descs[i], "sync:evil,src:000005") == 0;
    }
    CHECK_MSG(honest == 2 && ok == 1, "descs: %s | %s | %s", g.descs[0], g.descs[1], g.descs[2]);

    /* Cursors persist: a new exchange reads only what is new. */
    snprintf(path, sizeof path, "%s/honest/queue/id:000002,orig:c", sync);
    put(path, "third");
    got_t g2 = {0};
    CHECK_MSG(sync_once(sync, &g2, 32) == 0, "second sync failed");
    CHECK_MSG(g2.n == 1 && strcmp(g2.descs[0], "sync:honest,src:000002") == 0,
          "want only the new entry, got %d (%s)", g2.n, g2.descs[0]);

    /* An input the callback does not take is offered again. */
    snprintf(path, sizeof path, "%s/honest/queue/id:000003,orig:d", sync);
    put(path, "fourth");
    got_t g3 = {0};
    got_t refuse = {.stop_after = 1, .n = 1}; /* refuses the first offer */
    CHECK_MSG(sync_once(sync, &refuse, 32) == 0, "refusing sync failed");
    CHECK_MSG(sync_once(sync, &g3, 32) == 0, "third sync failed");
    CHECK_MSG(g3.n == 1 && strcmp(g3.descs[0], "sync:honest,src:000003") == 0,
          "a refused input was not offered again: got %d (%s)", g3.n, g3.descs[0]);

    /* A name sscanf's "id:%6u" took as id 2^32 - 1 ("id:-1") made the
     * cursor wrap to 0: the peer's whole queue came again at every sync. */
    sh("mkdir -p '%s/wrap/queue'%s", sync, "");
    snprintf(q, sizeof q, "%s/wrap/queue", sync);
    put_in(q, "id:000000,orig:w", "wrapped once");
    put_in(q, "id:-1,orig:v", "not an AFL++ name");
    got_t g5 = {0};
    CHECK(sync_once(sync, &g5, 32) == 0 && sync_once(sync, &g5, 32) == 0);
    CHECK_MSG(g5.n == 1, "want the one entry once over two syncs, got %d", g5.n);

    /* A peer whose queue is still empty does not count as one: an instance
     * alone beside a leftover directory still ends when its work is done. */
    char idle[2048];
    snprintf(idle, sizeof idle, "%s/idle", root);
    sh("mkdir -p '%s/me/.tmp' '%s/other/queue'", idle, idle);
    char state[4200], tmp[4200];
    snprintf(state, sizeof state, "%s/me", idle);
    snprintf(tmp, sizeof tmp, "%s/me/.tmp", idle);
    gb_peers_opts_t io = {.sync_dir = idle, .name = "me", .state_dir = state, .tmp_dir = tmp};
    gb_peers_t *ip;
    gb_err_t ie;
    got_t g4 = {0};
    if (gb_peers_new(&io, &ip, &ie) == 0) {
        CHECK(gb_peers_sync(ip, take, &g4, &ie) == 0);
        CHECK_MSG(!gb_peers_active(ip), "an empty peer queue counted as an active peer");
        snprintf(q, sizeof q, "%s/other/queue", idle);
        put_in(q, "id:000000,orig:z", "zeta");
        CHECK(gb_peers_sync(ip, take, &g4, &ie) == 0);
        CHECK_MSG(gb_peers_active(ip) && g4.n == 1, "active %d, %d inputs", gb_peers_active(ip),
                  g4.n);
        gb_peers_free(ip);
    } else
        CHECK_MSG(0, "gb_peers_new: %s", ie.msg);

    if (check_failures)
        fprintf(stderr, "%d check(s) failed\n", check_failures);
    else
        printf("peers: ok\n");
    return check_failures != 0;
}
