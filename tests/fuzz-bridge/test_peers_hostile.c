/* SPDX-License-Identifier: Apache-2.0 */
/* The sync directory's holes of issue 34: a symlink planted in place of
 * SYNC/.glassbox-claims or of OUT/NAME/.synced never gets a file created
 * outside the sync dir; a peer directory or a libFuzzer corpus file whose
 * name holds a line break is skipped with one warning, and the sync goes
 * on with the other peers. Usage: test_peers_hostile WORKDIR. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fuzz_bridge.h"

static char root[1024];

typedef struct got {
    int n, bad_desc, warnings;
} got_t;

static gb_take_t take(void *ctx, const uint8_t *data, size_t len, const char *desc, gb_err_t *e)
{
    (void)data, (void)len, (void)e;
    got_t *g = ctx;
    g->n++;
    g->bad_desc += strpbrk(desc, "\n\r") != NULL;
    return GB_TAKE_OK;
}

static void on_warn(void *ctx, const char *msg)
{
    got_t *g = ctx;
    g->warnings++;
    CHECK_MSG(!strpbrk(msg, "\n\r"), "a warning of more than one line: %s", msg);
}

static void sh(const char *cmd)
{
    CHECK_MSG(system(cmd) == 0, "failed: %s", cmd);
}

static void put(const char *path, const char *text)
{
    CHECK_MSG(check_write_file(path, text, strlen(text)) == 0, "cannot write %s", path);
}

/* Number of entries in `dir` other than . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *de; d && (de = readdir(d));)
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

static gb_peers_t *peers_new(const char *sync, const char *lf, got_t *g)
{
    static char state[1200], tmp[1300];
    snprintf(state, sizeof state, "%s/me", sync);
    snprintf(tmp, sizeof tmp, "%s/me/.tmp", sync);
    gb_peers_opts_t o = {.sync_dir = sync, .name = "me", .state_dir = state, .tmp_dir = tmp,
                         .libfuzzer_dir = lf, .warn = on_warn, .warn_ctx = g};
    gb_peers_t *p = NULL;
    gb_err_t e;
    CHECK_MSG(gb_peers_new(&o, &p, &e) == 0, "gb_peers_new: %s", e.msg);
    return p;
}

int main(int argc, char **argv)
{
    if (argc != 2 ||
        (size_t)snprintf(root, sizeof root, "%s/peers-hostile", argv[1]) >= sizeof root)
        return fprintf(stderr, "usage: test_peers_hostile WORKDIR\n"), 2;
    char sync[1100], outside[1100], lf[1100], cmd[12000], p[1300];
    snprintf(sync, sizeof sync, "%s/sync", root);
    snprintf(outside, sizeof outside, "%s/outside", root);
    snprintf(lf, sizeof lf, "%s/lf", root);
    snprintf(cmd, sizeof cmd,
             "rm -rf '%s' && mkdir -p '%s/me/.tmp' '%s/honest/queue' '%s' '%s' && "
             "ln -s '%s' '%s/.glassbox-claims' && ln -s '%s' '%s/me/.synced'",
             root, sync, sync, outside, lf, outside, sync, outside, sync);
    sh(cmd);
    snprintf(p, sizeof p, "%s/honest/queue/id:000000,orig:a", sync);
    put(p, "honest");
    snprintf(p, sizeof p, "%s/evil\npeer", sync);
    CHECK(mkdir(p, 0755) == 0);
    snprintf(p, sizeof p, "%s/evil\npeer/queue", sync);
    CHECK(mkdir(p, 0755) == 0);
    snprintf(p, sizeof p, "%s/evil\npeer/queue/id:000000,orig:b", sync);
    put(p, "evil");
    snprintf(p, sizeof p, "%s/bad\nsha", lf);
    put(p, "lf-evil");

    got_t g = {0};
    gb_peers_t *peers = peers_new(sync, lf, &g);
    if (!peers)
        return check_exit("fuzz-bridge.peers_hostile");
    gb_err_t e;
    gb_peers_sync(peers, take, &g, &e);
    gb_peers_sync(peers, take, &g, &e); /* the second sync warns no more */
    CHECK_MSG(g.bad_desc == 0, "%d input(s) offered under a name with a line break", g.bad_desc);
    CHECK_MSG(g.n == 1, "want the honest peer's one input, got %d", g.n);
    CHECK_MSG(g.warnings == 2, "want one warning for the peer dir and one for the file, got %d",
              g.warnings);

    /* Claims through a symlinked claims dir: refused, nothing outside. */
    int r = gb_peers_claim(peers, (const uint8_t *)"x", 1, &e);
    CHECK_MSG(r < 0, "a claim through a symlinked .glassbox-claims returned %d", r);
    CHECK_MSG(entries(outside) == 0, "%d file(s) created outside the sync dir", entries(outside));
    gb_peers_free(peers);
    return check_exit("fuzz-bridge.peers_hostile");
}
