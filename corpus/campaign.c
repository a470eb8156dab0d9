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

static int valid_name(const char *name)
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

static void campaign_free(gb_campaign_t *c)
{
    if (!c)
        return;
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
    char probe[PATH_MAX];
    snprintf(probe, sizeof probe, "%s/.probe.%ld", c->tmpdir, (long)getpid());
    int fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || write(fd, "x", 1) != 1) {
        gb_err_sys(e, "output directory %s is not writable", c->dir);
        if (fd >= 0)
            close(fd);
        unlink(probe);
        return -1;
    }
    close(fd);
    unlink(probe);
    return 0;
}

static int campaign_make_dirs(gb_campaign_t *c, const char *out, unsigned flags, gb_err_t *e)
{
    struct stat st;
    if (stat(out, &st) == 0 && !S_ISDIR(st.st_mode))
        return gb_err_set(e, "output directory %s is not a directory", out);
    if ((flags & GB_CAMPAIGN_RESUME) && stat(c->queue, &st) != 0)
        return gb_err_set(e, "cannot resume: %s does not exist (start the campaign without "
                             "--resume, or check -o and -n)", c->queue);
    if (gb_mkdirs(out, e) != 0 || gb_mkdirs(c->dir, e) != 0)
        return -1;
    int n = dir_entries(c->queue, e);
    if (n < 0)
        return -1;
    if (n > 0 && !(flags & GB_CAMPAIGN_RESUME))
        return gb_err_set(e,
                          "%s is not empty; refusing to overwrite a previous campaign "
                          "(use --resume to continue it, or a new -o or -n)",
                          c->queue);
    if (gb_mkdirs(c->queue, e) != 0 || gb_mkdirs(c->crashes, e) != 0 ||
        gb_mkdirs(c->hangs, e) != 0 || gb_mkdirs(c->tmpdir, e) != 0)
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
    if (!valid_name(name))
        return gb_err_set(e, "bad campaign name '%s': use letters, digits, '_' and '-'",
                          name ? name : "");
    if (strlen(out) + strlen(name) + 64 > PATH_MAX)
        return gb_err_set(e, "output path too long: %s/%s", out, name);
    gb_campaign_t *c = NULL;
    if (campaign_alloc(out, name, &c, e) != 0)
        return -1;
    if (campaign_make_dirs(c, out, flags, e) != 0) {
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

uint32_t gb_campaign_queue_count(const gb_campaign_t *c) { return c->next_queue; }

/* Writes the data to a staging file (atomically, via gb_write_atomic) and
 * hard-links it to `dest`: link() fails rather than replace a file. */
static int publish(gb_campaign_t *c, const char *dest, const void *data, size_t len, gb_err_t *e)
{
    char stage[PATH_MAX];
    snprintf(stage, sizeof stage, "%s/stage.%ld", c->tmpdir, (long)getpid());
    if (gb_write_atomic(stage, c->tmpdir, data, len, e) != 0)
        return -1;
    int rc = link(stage, dest), err = errno;
    if (rc != 0 && err != EEXIST && access(dest, F_OK) != 0) {
        /* A file system without hard links: nothing is at dest (checked
         * just above, and we are its only writer), so rename is safe. */
        rc = rename(stage, dest);
        err = errno;
    }
    unlink(stage);
    if (rc == 0)
        return 0;
    if (err == EEXIST || access(dest, F_OK) == 0)
        return gb_err_set(e, "%s already exists; refusing to overwrite a saved input", dest);
    errno = err;
    return gb_err_sys(e, "cannot save %s", dest);
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

/* Saves one input under `subdir` as `name`; the caller bumps its id. */
static int save_input(gb_campaign_t *c, const char *subdir, const char *name, const uint8_t *data,
                      size_t len, gb_err_t *e)
{
    if (len > GB_MAX_INPUT)
        return gb_err_set(e, "input of %zu bytes is larger than %u; peers would ignore it", len,
                          GB_MAX_INPUT);
    if (!data && len)
        return gb_err_set(e, "no data for %s", name);
    char dest[PATH_MAX];
    if ((size_t)snprintf(dest, sizeof dest, "%s/%s", subdir, name) >= sizeof dest)
        return gb_err_set(e, "path too long: %s/%s", subdir, name);
    return publish(c, dest, data ? (const void *)data : "", len, e);
}

int gb_campaign_add_queue(gb_campaign_t *c, const uint8_t *data, size_t len, const char *desc,
                          uint32_t *id, gb_err_t *e)
{
    char name[256];
    if (valid_desc(desc, e) != 0)
        return -1;
    snprintf(name, sizeof name, "id:%06u,%s", c->next_queue, desc);
    if (save_input(c, c->queue, name, data, len, e) != 0)
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
    int dirfd = open(c->queue, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0)
        return gb_err_sys(e, "cannot open %s", c->queue);
    int rc = gb_read_file_at(dirfd, name, GB_MAX_INPUT, data, len, e);
    close(dirfd);
    return rc;
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
    if (save_input(c, c->crashes, name, data, len, e) != 0)
        return -1;
    if (id)
        *id = c->next_crash;
    c->next_crash++;
    if (!c->readme_done) {
        /* Best effort: a README left by an earlier run stays as it is. */
        gb_err_t ignored;
        save_input(c, c->crashes, "README.txt", (const uint8_t *)CRASH_README,
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
    if (save_input(c, c->hangs, name, data, len, e) != 0)
        return -1;
    if (id)
        *id = c->next_hang;
    c->next_hang++;
    return 0;
}
