/* SPDX-License-Identifier: Apache-2.0 */
/* The canary runtime of bench/magma's builds, compiled by plain clang-14
 * (never glassbox-cc or afl-clang-fast) so its tests add no branch a fuzzer
 * or the solver sees. With GB_MAGMA_LOG=FILE set, it appends "reached BUG"
 * the first time a process reaches BUG's site and "triggered BUG" when the
 * condition holds; without it, it writes nothing. A trigger aborts, unless
 * GB_MAGMA_NO_ABORT=1: then the run goes on to whatever the bug does (an
 * ASan report, or nothing), which is what triage.sh buckets. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_magma.h"

#define GB_MAGMA_MAX_BUGS 128 /* Magma's targets have at most a few dozen */

static int gb_magma_fd = -2; /* -2: not looked up yet; -1: no log */
static const char *gb_magma_seen[GB_MAGMA_MAX_BUGS];
static int gb_magma_nseen;

static int gb_magma_log_fd(void)
{
    if (gb_magma_fd == -2) {
        const char *p = getenv("GB_MAGMA_LOG");
        gb_magma_fd = p && *p ? open(p, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    }
    return gb_magma_fd;
}

/* One line in one write: O_APPEND keeps lines of several processes whole. */
static void gb_magma_write(const char *what, const char *bug)
{
    char line[256];
    size_t a = strlen(what), b = strnlen(bug, sizeof line - a - 3);
    memcpy(line, what, a);
    line[a] = ' ';
    memcpy(line + a + 1, bug, b);
    line[a + 1 + b] = '\n';
    ssize_t r = write(gb_magma_fd, line, a + b + 2);
    (void)r; /* a lost line only undercounts; the run must go on */
}

/* "reached" once per bug and process: a canary in a per-row loop would
 * otherwise write a line per row. */
static void gb_magma_reached(const char *bug)
{
    for (int i = 0; i < gb_magma_nseen; i++)
        if (gb_magma_seen[i] == bug || strcmp(gb_magma_seen[i], bug) == 0)
            return;
    if (gb_magma_nseen < GB_MAGMA_MAX_BUGS)
        gb_magma_seen[gb_magma_nseen++] = bug;
    gb_magma_write("reached", bug);
}

void gb_magma_log(int triggered, const char *bug)
{
    if (gb_magma_log_fd() >= 0)
        gb_magma_reached(bug);
    if (!triggered)
        return;
    if (gb_magma_fd >= 0)
        gb_magma_write("triggered", bug);
    const char *keep_going = getenv("GB_MAGMA_NO_ABORT");
    if (keep_going && strcmp(keep_going, "1") == 0)
        return;
    abort();
}

int gb_magma_log_v(int triggered, const char *bug)
{
    gb_magma_log(triggered, bug);
    return triggered;
}
