/* SPDX-License-Identifier: Apache-2.0 */
/* The campaign directory OUT/NAME in AFL++ instance layout: queue/, crashes/,
 * hangs/, fuzzer_stats, plot_data. Saved inputs are staged in .tmp/ and
 * hard-linked into place, so a peer never sees a partial file and an
 * existing file is never replaced. */
#include <dirent.h>
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

static const char CRASH_README[] =
    "Crashes found by Glassbox, one input per file.\n"
    "\n"
    "Names are id:NNNNNN,sig:SS,<origin>: SS is the signal that ended the target\n"
    "(06 = SIGABRT, which is how a sanitizer report ends with abort_on_error=1;\n"
    "11 = SIGSEGV), <origin> says which input and operation produced it.\n"
    "\n"
    "To replay one, run the target on it exactly as the campaign ran it, e.g.\n"
    "  ./target crashes/id:000000,sig:06,...      (target takes a file path)\n"
    "  ./target < crashes/id:000000,sig:06,...    (target reads stdin)\n"
    "\n"
    "To see where it fails, replay it on the ASan/UBSan build ('glassbox build'\n"
    "makes NAME.asan) with a stack printed for aborts too:\n"
    "  ASAN_OPTIONS=handle_abort=1:detect_leaks=0 " GB_CRASH_REPLAY_ASAN " crashes/id:...\n"
    "or let Glassbox do it for every crash at once, one line each:\n"
    "  " GB_CRASH_REPLAY " crashes/id:* -- " GB_CRASH_REPLAY_ASAN "\n"
    "and group them into distinct bugs, each with a report, a small input\n"
    "and a repro.sh (docs/triage.md):\n"
    "  glassbox triage -i crashes -o triage -- ./NAME.asan\n";

struct gb_campaign {
    char *dir, *tmpdir, *queue, *crashes, *hangs;
    /* The same directories, opened once without following a symlink below
     * OUT: every file of the campaign is written by descriptor. */
    int dir_fd, tmp_fd, queue_fd, crash_fd, hang_fd;
    uint32_t next_queue, next_crash, next_hang;
    int readme_done;
    char last_queue[256]; /* the name of the latest queue entry */
};

/* Joins dir and name into a fresh string (NULL when out of memory). */
static char *path_join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = gb_malloc(a + b + 2);
    if (p) {
        memcpy(p, dir, a);
        p[a] = '/';
        memcpy(p + a + 1, name, b + 1);
    }
    return p;
}

int gb_campaign_name_ok(const char *name)
{
    if (!name || !*name)
        return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-'))
            return 0;
    return 1;
}

/* Number of entries in `dir` (other than . and ..); 0 when it does not
 * exist; -1 on error. */
static int dir_entries(const char *dir, gb_err_t *e)
{
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : gb_err_sys(e, "cannot read %s", dir);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

/* One past the highest "id:NNNNNN" in `dir`, so crash and hang numbering
 * continues after whatever an earlier, aborted run left there. */
static uint32_t next_free_id(const char *dir)
{
    DIR *d = opendir(dir);
    uint32_t next = 0;
    if (!d)
        return 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        uint32_t id;
        if (gb_entry_id(de->d_name, &id) && id + 1 > next)
            next = id + 1;
    }
    closedir(d);
    return next;
}

static void close_fd(int fd)
{
    if (fd >= 0)
        close(fd);
}

static void campaign_free(gb_campaign_t *c)
{
    if (!c)
        return;
    close_fd(c->dir_fd);
    close_fd(c->tmp_fd);
    close_fd(c->queue_fd);
    close_fd(c->crash_fd);
    close_fd(c->hang_fd);
    gb_free(c->dir);
    gb_free(c->tmpdir);
    gb_free(c->queue);
    gb_free(c->crashes);
    gb_free(c->hangs);
    gb_free(c);
}

static int campaign_alloc(const char *out, const char *name, gb_campaign_t **cp, gb_err_t *e)
{
    gb_campaign_t *c = gb_calloc(1, sizeof *c);
    if (!c)
        return gb_err_set(e, "out of memory opening %s/%s", out, name);
    c->dir_fd = c->tmp_fd = c->queue_fd = c->crash_fd = c->hang_fd = -1;
    c->dir = path_join(out, name);
    if (c->dir) {
        c->tmpdir = path_join(c->dir, ".tmp");
        c->queue = path_join(c->dir, "queue");
        c->crashes = path_join(c->dir, "crashes");
        c->hangs = path_join(c->dir, "hangs");
    }
    if (!c->dir || !c->tmpdir || !c->queue || !c->crashes || !c->hangs) {
        campaign_free(c);
        return gb_err_set(e, "out of memory opening %s/%s", out, name);
    }
    *cp = c;
    return 0;
}

/* Creates and deletes a file in .tmp: mkdir can succeed where writing a
 * file does not (a full disk, a read-only remount), and root passes every
 * permission check, so only trying tells. */
static int probe_writable(gb_campaign_t *c, gb_err_t *e)
{
    char probe[64];
    snprintf(probe, sizeof probe, ".probe.%ld", (long)getpid());
    gb_file_remove_at(c->tmp_fd, probe); /* left by a killed process of our pid */
    int fd = gb_file_open_at(c->tmp_fd, probe, GB_OPEN_NEW, NULL);
    int ok = fd >= 0 && write(fd, "x", 1) == 1;
    int err = errno;
    if (fd >= 0)
        close(fd);
    gb_file_remove_at(c->tmp_fd, probe);
    errno = err;
    return ok ? 0 : gb_err_sys(e, "output directory %s is not writable", c->dir);
}

/* Opens (creating) the campaign's directories below OUT by descriptor. A
 * symlink in place of NAME, queue/, crashes/, hangs/ or .tmp/ is refused. */
static int open_dirs(gb_campaign_t *c, const char *out, const char *name, gb_err_t *e)
{
    gb_err_t sub = {{0}};
    if ((c->dir_fd = gb_dir_open(out, name, 1, &sub)) < 0 ||
        (c->queue_fd = gb_dir_openat(c->dir_fd, "queue", 1, &sub)) < 0 ||
        (c->crash_fd = gb_dir_openat(c->dir_fd, "crashes", 1, &sub)) < 0 ||
        (c->hang_fd = gb_dir_openat(c->dir_fd, "hangs", 1, &sub)) < 0 ||
        (c->tmp_fd = gb_dir_openat(c->dir_fd, ".tmp", 1, &sub)) < 0)
        return gb_err_set(e, "output directory %s: %s", c->dir, sub.msg);
    return 0;
}

static int campaign_make_dirs(gb_campaign_t *c, const char *out, const char *name,
                              unsigned flags, gb_err_t *e)
{
    struct stat st;
    if (stat(out, &st) == 0 && !S_ISDIR(st.st_mode))
        return gb_err_set(e, "output directory %s is not a directory", out);
    if ((flags & GB_CAMPAIGN_RESUME) && stat(c->queue, &st) != 0)
        return gb_err_set(e, "cannot resume: %s does not exist (start the campaign without "
                             "--resume, or check -o and -n)", c->queue);
    int n = dir_entries(c->queue, e);
    if (n < 0)
        return -1;
    if (n > 0 && !(flags & GB_CAMPAIGN_RESUME))
        return gb_err_set(e,
                          "%s is not empty; refusing to overwrite a previous campaign "
                          "(use --resume to continue it, or a new -o or -n)",
                          c->queue);
    if (open_dirs(c, out, name, e) != 0)
        return -1;
    return probe_writable(c, e);
}

int gb_campaign_open(const char *out, const char *name, gb_campaign_t **cp, gb_err_t *e)
{
    return gb_campaign_open_flags(out, name, 0, cp, e);
}

int gb_campaign_open_flags(const char *out, const char *name, unsigned flags,
                           gb_campaign_t **cp, gb_err_t *e)
{
    *cp = NULL;
    if (!out || !*out)
        return gb_err_set(e, "no output directory given");
    if (!gb_campaign_name_ok(name))
        return gb_err_set(e, "bad campaign name '%s': use letters, digits, '_' and '-'",
                          name ? name : "");
    if (strlen(out) + strlen(name) + 64 > PATH_MAX)
        return gb_err_set(e, "output path too long: %s/%s", out, name);
    gb_campaign_t *c = NULL;
    if (campaign_alloc(out, name, &c, e) != 0)
        return -1;
    if (campaign_make_dirs(c, out, name, flags, e) != 0) {
        campaign_free(c);
        return -1;
    }
    c->next_queue = next_free_id(c->queue);
    c->next_crash = next_free_id(c->crashes);
    c->next_hang = next_free_id(c->hangs);
    *cp = c;
    return 0;
}

void gb_campaign_close(gb_campaign_t *c) { campaign_free(c); }

const char *gb_campaign_dir(const gb_campaign_t *c) { return c->dir; }

const char *gb_campaign_queue_dir(const gb_campaign_t *c) { return c->queue; }

const char *gb_campaign_crash_dir(const gb_campaign_t *c) { return c->crashes; }

static int cmp_entry(const void *a, const void *b)
{
    uint32_t x = ((const gb_entry_t *)a)->id, y = ((const gb_entry_t *)b)->id;
    return x < y ? -1 : x > y;
}

/* Strict where sscanf's "id:%6u" was not: that took "id:-1" as 2^32 - 1,
 * whose next id wraps to 0 (a peer's cursor then starts over at every
 * sync and its whole queue is read again), signs and spaces ("id:+5",
 * "id: 5"), and the ids past 999999 that AFL++ writes with seven digits
 * as their first six ("id:1000000" as 100000). */
int gb_entry_id(const char *name, uint32_t *id)
{
    if (strncmp(name, "id:", 3) != 0 || name[3] < '0' || name[3] > '9')
        return 0;
    uint64_t v = 0;
    const char *p = name + 3;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v >= UINT32_MAX)
            return 0;
    }
    if (*p != ',' && *p != '\0')
        return 0;
    *id = (uint32_t)v;
    return 1;
}

int gb_entries_list(const char *dir, gb_entry_t **entries, size_t *n, gb_err_t *e)
{
    *entries = NULL;
    *n = 0;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : gb_err_sys(e, "cannot open directory %s", dir);
    int rc = gb_entries_list_at(fd, entries, n, e);
    close(fd);
    return rc;
}

/* Appends one id: entry; -1 when out of memory. */
static int entry_add(gb_entry_t **entries, size_t *n, size_t *cap, uint32_t id, const char *name)
{
    if (gb_grow(entries, cap, *n + 1, sizeof **entries, 64) != 0)
        return -1;
    if (!((*entries)[*n].name = gb_strdup(name)))
        return -1;
    (*entries)[*n].id = id;
    ++*n;
    return 0;
}

int gb_entries_list_at(int dirfd, gb_entry_t **entries, size_t *n, gb_err_t *e)
{
    *entries = NULL;
    *n = 0;
    int fd = dup(dirfd); /* closedir closes the descriptor fdopendir took */
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return gb_err_sys(e, "cannot list a directory");
    }
    rewinddir(d);
    size_t cap = 0;
    struct dirent *de;
    int r = 0;
    while (r == 0 && (de = readdir(d)) != NULL) {
        uint32_t id;
        if (gb_entry_id(de->d_name, &id))
            r = entry_add(entries, n, &cap, id, de->d_name);
    }
    closedir(d);
    if (r != 0) {
        gb_entries_free(*entries, *n);
        *entries = NULL;
        *n = 0;
        return gb_err_set(e, "out of memory listing a directory");
    }
    if (*n > 1) /* an empty directory leaves *entries NULL, which qsort may not take */
        qsort(*entries, *n, sizeof **entries, cmp_entry);
    return 0;
}

void gb_entries_free(gb_entry_t *entries, size_t n)
{
    for (size_t i = 0; i < n; i++)
        gb_free(entries[i].name);
    gb_free(entries);
}

const char *gb_campaign_tmpdir(const gb_campaign_t *c) { return c->tmpdir; }

int gb_campaign_dirfd(const gb_campaign_t *c) { return c->dir_fd; }

void gb_campaign_unplant(const gb_campaign_t *c, const char *name)
{
    struct stat st;
    if (fstatat(c->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        gb_file_remove_at(c->dir_fd, name);
}

int gb_campaign_tmpfd(const gb_campaign_t *c) { return c->tmp_fd; }

uint32_t gb_campaign_queue_count(const gb_campaign_t *c) { return c->next_queue; }

/* Stages the data in .tmp and hard-links it to `name` in `dirfd`
 * (gb_file_publish_at): never replacing a file, never through a symlink. */
static int publish(gb_campaign_t *c, int dirfd, const char *subdir, const char *name,
                   const void *data, size_t len, gb_err_t *e)
{
    gb_err_t sub = {{0}};
    int rc = gb_file_publish_at(dirfd, name, c->tmp_fd, data, len, &sub);
    if (rc == 1)
        return gb_err_set(e, "%s/%s already exists; refusing to overwrite a saved input", subdir,
                          name);
    if (rc != 0) {
        int err = errno;
        gb_err_set(e, "cannot save %s/%s: %s", subdir, name, sub.msg);
        errno = err; /* the caller tells a full disk from other failures */
        return -1;
    }
    return 0;
}

static int valid_desc(const char *desc, gb_err_t *e)
{
    if (!desc || !*desc)
        return gb_err_set(e, "empty description for a saved input");
    if (strpbrk(desc, "/\n\r"))
        return gb_err_set(e, "bad description '%s': no '/' or line breaks", desc);
    if (strlen(desc) > 200) /* id:NNNNNN,sig:SS, + desc stays below NAME_MAX */
        return gb_err_set(e, "description too long (%zu bytes, limit 200)", strlen(desc));
    return 0;
}

/* Saves one input under `subdir` (open as `dirfd`) as `name`; the caller
 * bumps its id. */
static int save_input(gb_campaign_t *c, int dirfd, const char *subdir, const char *name,
                      const uint8_t *data, size_t len, gb_err_t *e)
{
    if (len > GB_MAX_INPUT)
        return gb_err_set(e, "input of %zu bytes is larger than %u; peers would ignore it", len,
                          GB_MAX_INPUT);
    if (!data && len)
        return gb_err_set(e, "no data for %s", name);
    return publish(c, dirfd, subdir, name, data ? (const void *)data : "", len, e);
}

int gb_campaign_add_queue(gb_campaign_t *c, const uint8_t *data, size_t len, const char *desc,
                          uint32_t *id, gb_err_t *e)
{
    char name[256];
    if (valid_desc(desc, e) != 0)
        return -1;
    snprintf(name, sizeof name, "id:%06u,%s", c->next_queue, desc);
    if (save_input(c, c->queue_fd, c->queue, name, data, len, e) != 0)
        return -1;
    if (id)
        *id = c->next_queue;
    c->next_queue++;
    memcpy(c->last_queue, name, sizeof name);
    return 0;
}

const char *gb_campaign_last_queue_name(const gb_campaign_t *c)
{
    return c->last_queue;
}

int gb_campaign_read_queue(const gb_campaign_t *c, const char *name, uint8_t **data, size_t *len,
                           gb_err_t *e)
{
    return gb_read_file_at(c->queue_fd, name, GB_MAX_INPUT, data, len, e);
}

int gb_campaign_add_crash(gb_campaign_t *c, const uint8_t *data, size_t len, int sig,
                          const char *desc, uint32_t *id, gb_err_t *e)
{
    char name[256];
    if (valid_desc(desc, e) != 0)
        return -1;
    if (sig < 0 || sig > 99)
        return gb_err_set(e, "bad signal number %d for a crash", sig);
    snprintf(name, sizeof name, "id:%06u,sig:%02d,%s", c->next_crash, sig, desc);
    if (save_input(c, c->crash_fd, c->crashes, name, data, len, e) != 0)
        return -1;
    if (id)
        *id = c->next_crash;
    c->next_crash++;
    if (!c->readme_done) {
        /* Best effort: a README left by an earlier run stays as it is. */
        gb_err_t ignored;
        save_input(c, c->crash_fd, c->crashes, "README.txt", (const uint8_t *)CRASH_README,
                   sizeof CRASH_README - 1, &ignored);
        c->readme_done = 1;
    }
    return 0;
}

int gb_campaign_add_hang(gb_campaign_t *c, const uint8_t *data, size_t len, const char *desc,
                         uint32_t *id, gb_err_t *e)
{
    char name[256];
    if (valid_desc(desc, e) != 0)
        return -1;
    snprintf(name, sizeof name, "id:%06u,%s", c->next_hang, desc);
    if (save_input(c, c->hang_fd, c->hangs, name, data, len, e) != 0)
        return -1;
    if (id)
        *id = c->next_hang;
    c->next_hang++;
    return 0;
}
