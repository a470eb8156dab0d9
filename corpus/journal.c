/* SPDX-License-Identifier: Apache-2.0 */
/* The expansion journal OUT/NAME/.expanded: one "q ID" or "c ID" line per
 * finished expansion of queue entry or crash ID, appended with one write
 * each (O_APPEND), so a reader sees a line whole or not at all; a torn last
 * line (power loss) is ignored. "Q ID" or "C ID" says an expansion began,
 * and "x" that the one begun stopped unfinished without the process dying:
 * a begun expansion that is neither finished nor stopped is the one the
 * process died in. On --resume it says which stored inputs no longer need
 * expanding, and which one killed the last session (docs/campaign.md). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corpus.h"
#include "corpus_int.h"
#include "gb_files.h"

/* Ids above this are ignored when reading: a bitmap of 2^26 ids is 8 MiB,
 * more than any campaign's queue, and bounds a corrupt journal's cost. */
#define JOURNAL_MAX_ID (1u << 26)

typedef struct idbits {
    uint8_t *bits;
    uint32_t n; /* ids < n are represented */
} idbits_t;

struct gb_journal {
    char path[PATH_MAX];
    int dir_fd; /* the campaign dir (a dup), -1 for a journal read from text */
    int fd;     /* -1 until the first append */
    idbits_t done[2]; /* [GB_STORED_QUEUE], [GB_STORED_CRASH] */
    int open;         /* an expansion began and neither finished nor stopped */
    gb_stored_t open_kind;
    uint32_t open_id;
};

static int kind_index(gb_stored_t kind) { return kind == GB_STORED_CRASH; }

static int bits_set(idbits_t *b, uint32_t id)
{
    if (id >= JOURNAL_MAX_ID)
        return 0;
    if (id >= b->n) {
        uint32_t n = b->n ? b->n : 1024;
        while (n <= id)
            n *= 2;
        uint8_t *nb = gb_realloc(b->bits, n / 8);
        if (!nb)
            return -1;
        memset(nb + b->n / 8, 0, (n - b->n) / 8);
        b->bits = nb;
        b->n = n;
    }
    b->bits[id / 8] |= (uint8_t)(1u << (id % 8));
    return 0;
}

/* Reads one whole line: marks a finished expansion, or follows the one
 * begun ("Q ID", "C ID") until it finishes or stops ("x"). */
static int parse_line(gb_journal_t *j, const char *line, size_t len)
{
    char kind;
    unsigned long id;
    int used = 0;
    if (len == 1 && line[0] == 'x') {
        j->open = 0;
        return 0;
    }
    if (sscanf(line, "%c %lu%n", &kind, &id, &used) != 2 || (size_t)used != len)
        return 0;
    uint32_t id32 = id > UINT32_MAX ? UINT32_MAX : (uint32_t)id;
    gb_stored_t where = kind == 'c' || kind == 'C' ? GB_STORED_CRASH : GB_STORED_QUEUE;
    if (kind == 'Q' || kind == 'C') {
        j->open = 1;
        j->open_kind = where;
        j->open_id = id32;
        return 0;
    }
    if (kind != 'q' && kind != 'c')
        return 0;
    if (j->open && j->open_kind == where && j->open_id == id32)
        j->open = 0;
    return bits_set(&j->done[kind_index(where)], id32);
}

/* Marks every whole line of the journal text. */
static int parse(gb_journal_t *j, const uint8_t *data, size_t len)
{
    for (size_t i = 0; i < len;) {
        const uint8_t *nl = memchr(data + i, '\n', len - i);
        if (!nl)
            break; /* torn last line */
        size_t end = (size_t)(nl - data);
        char line[32] = {0};
        memcpy(line, data + i, end - i < sizeof line - 1 ? end - i : sizeof line - 1);
        if (parse_line(j, line, end - i) != 0)
            return -1;
        i = end + 1;
    }
    return 0;
}

/* A journal named `path` (appends go there), marked from `data`. */
static int journal_new(const char *path, const uint8_t *data, size_t len, gb_journal_t **out,
                       gb_err_t *e)
{
    *out = NULL;
    gb_journal_t *j = gb_calloc(1, sizeof *j);
    if (!j)
        return gb_err_set(e, "out of memory");
    j->fd = j->dir_fd = -1;
    snprintf(j->path, sizeof j->path, "%s", path);
    if (parse(j, data, len) != 0) {
        gb_journal_close(j);
        return gb_err_set(e, "out of memory reading %s", path[0] ? path : "a journal");
    }
    *out = j;
    return 0;
}

int gb_journal_open(const gb_campaign_t *c, gb_journal_t **out, gb_err_t *e)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/.expanded", gb_campaign_dir(c));
    uint8_t *data = NULL;
    size_t len = 0;
    if (gb_read_file_at(gb_campaign_dirfd(c), ".expanded", 1u << 30, &data, &len, NULL) != 0)
        len = 0; /* none yet: nothing was expanded */
    int rc = journal_new(path, data, len, out, e);
    gb_free(data);
    if (rc == 0 && ((*out)->dir_fd = fcntl(gb_campaign_dirfd(c), F_DUPFD_CLOEXEC, 0)) < 0) {
        gb_journal_close(*out);
        *out = NULL;
        return gb_err_sys(e, "cannot duplicate a descriptor of %s", gb_campaign_dir(c));
    }
    return rc;
}

int gb_journal_from_text(const uint8_t *data, size_t len, gb_journal_t **j, gb_err_t *e)
{
    return journal_new("", data, len, j, e);
}

int gb_journal_done(const gb_journal_t *j, gb_stored_t kind, uint32_t id)
{
    const idbits_t *b = &j->done[kind_index(kind)];
    return id < b->n && (b->bits[id / 8] >> (id % 8) & 1);
}

/* Appends one line with one write; on failure -1 with errno kept and no
 * partial line left behind. */
static int append_line(gb_journal_t *j, const char *line, size_t n, gb_err_t *e)
{
    if (!j->path[0] || j->dir_fd < 0)
        return gb_err_set(e, "a journal read from text has no file to append to");
    if (j->fd < 0) {
        gb_err_t sub = {{0}};
        struct stat st;
        /* Ours alone: a symlink planted in its place is removed, never
         * followed (what it pointed to was not read as the journal). */
        if (fstatat(j->dir_fd, ".expanded", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
            gb_file_remove_at(j->dir_fd, ".expanded");
        j->fd = gb_file_open_at(j->dir_fd, ".expanded", GB_OPEN_APPEND, &sub);
        if (j->fd < 0) {
            int err = errno;
            gb_err_set(e, "%s: %s", j->path, sub.msg);
            errno = err;
            return -1;
        }
    }
    off_t end = lseek(j->fd, 0, SEEK_END);
    ssize_t w = write(j->fd, line, n);
    if (w == (ssize_t)n) {
        if (parse_line(j, line, n - 1) == 0)
            return 0;
        errno = ENOMEM; /* not a full disk: the caller must not wait for space */
        return gb_err_set(e, "out of memory");
    }
    int err = w < 0 ? errno : ENOSPC; /* a short write: the disk filled up */
    if (w > 0 && end >= 0 && ftruncate(j->fd, end) != 0)
        err = errno; /* a partial line stays; parse() skips it as malformed */
    gb_err_sys(e, "cannot append to %s", j->path);
    errno = err; /* the caller tells a full disk from other failures */
    return -1;
}

int gb_journal_append(gb_journal_t *j, gb_stored_t kind, uint32_t id, gb_err_t *e)
{
    char line[32];
    int n = snprintf(line, sizeof line, "%c %u\n", kind == GB_STORED_CRASH ? 'c' : 'q', id);
    return append_line(j, line, (size_t)n, e);
}

int gb_journal_begin(gb_journal_t *j, gb_stored_t kind, uint32_t id, gb_err_t *e)
{
    char line[32];
    int n = snprintf(line, sizeof line, "%c %u\n", kind == GB_STORED_CRASH ? 'C' : 'Q', id);
    return append_line(j, line, (size_t)n, e);
}

int gb_journal_stop(gb_journal_t *j, gb_err_t *e)
{
    return append_line(j, "x\n", 2, e);
}

int gb_journal_died_in(const gb_journal_t *j, gb_stored_t *kind, uint32_t *id)
{
    if (!j->open)
        return 0;
    *kind = j->open_kind;
    *id = j->open_id;
    return 1;
}

void gb_journal_close(gb_journal_t *j)
{
    if (!j)
        return;
    if (j->fd >= 0)
        close(j->fd);
    if (j->dir_fd >= 0)
        close(j->dir_fd);
    gb_free(j->done[0].bits);
    gb_free(j->done[1].bits);
    gb_free(j);
}
