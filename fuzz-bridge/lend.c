/* SPDX-License-Identifier: Apache-2.0 */
/* Core lending between a worker and an extra afl-fuzz (lend.h): the
 * policy, and the counts of own finds it is fed with. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "corpus.h" /* fuzzer_stats */
#include "fuzz_bridge.h"
#include "gb_files.h"

void gb_lend_init(gb_lend_t *l, unsigned idle_s, unsigned slice0_s, unsigned slice_max_s,
                  time_t now, uint64_t wfinds, uint64_t afinds)
{
    memset(l, 0, sizeof *l);
    l->idle_s = idle_s ? idle_s : 1;
    l->slice0_s = slice0_s ? slice0_s : l->idle_s;
    l->slice_max_s = slice_max_s > l->slice0_s ? slice_max_s : l->slice0_s;
    l->side = GB_LEND_WORKER;
    l->since = l->last_find = now;
    l->wfinds = wfinds;
    l->afinds = afinds;
}

/* The next lent turn: the first length after a worker turn that found
 * something (or the first time), else twice the last, capped. */
static unsigned next_slice(const gb_lend_t *l)
{
    if (l->found || l->slice_s == 0)
        return l->slice0_s;
    return l->slice_s > l->slice_max_s / 2 ? l->slice_max_s : l->slice_s * 2;
}

int gb_lend_step(gb_lend_t *l, time_t now, uint64_t wfinds, uint64_t afinds)
{
    int wnew = wfinds > l->wfinds, anew = afinds > l->afinds;
    l->wfinds = wfinds;
    l->afinds = afinds;
    if (l->side == GB_LEND_WORKER) {
        if (wnew) {
            l->found = 1;
            l->last_find = now;
        }
        if (now - l->last_find < (time_t)l->idle_s)
            return 0;
        l->slice_s = next_slice(l);
        l->side = GB_LEND_AFL;
        l->turns++;
    } else {
        if (anew)
            l->last_find = now;
        if (now - l->since < (time_t)l->slice_s && now - l->last_find < (time_t)l->idle_s)
            return 0;
        l->side = GB_LEND_WORKER;
        l->found = 0;
    }
    l->since = l->last_find = now;
    return 1;
}

/* An own find's name: "id:", no ",orig:" (a seed) and no ",sync:" (a
 * peer's input). */
static int own_find(const char *name)
{
    return strncmp(name, "id:", 3) == 0 && !strstr(name, ",orig:") && !strstr(name, ",sync:");
}

/* Own finds in SYNC/NAME/SUB; -1 when it cannot be opened. */
static long count_in(const char *sync, const char *name, const char *sub)
{
    char rel[NAME_MAX + 16];
    if ((size_t)snprintf(rel, sizeof rel, "%s/%s", name, sub) >= sizeof rel)
        return -1;
    int fd = gb_dir_open(sync, rel, 0, NULL);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    long n = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;)
        n += own_find(de->d_name);
    closedir(d);
    return n;
}

long gb_lend_afl_finds(const char *sync, const char *name)
{
    long q = count_in(sync, name, "queue");
    if (q < 0)
        return -1;
    long c = count_in(sync, name, "crashes");
    return q + (c > 0 ? c : 0);
}

long gb_lend_worker_finds(const char *sync, const char *name)
{
    int fd = gb_dir_open(sync, name, 0, NULL);
    if (fd < 0)
        return -1;
    uint8_t *data = NULL;
    size_t len = 0;
    int rc = gb_read_file_at(fd, "fuzzer_stats", GB_STATS_MAX, &data, &len, NULL);
    close(fd);
    if (rc != 0)
        return -1;
    static const char *const keys[] = {"own_finds", "saved_crashes"};
    uint64_t v[2] = {0, 0};
    int found = gb_campaign_parse_stats(data, len, keys, v, 2);
    gb_free(data);
    /* saved_crashes is read only to know the file is whole: a crash with a
     * new block is already an own find, and one without is a new set of
     * blocks at most, which on a bug most inputs reach comes every second. */
    return found == 2 && v[0] < (uint64_t)LONG_MAX ? (long)v[0] : -1;
}
