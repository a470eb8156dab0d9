/* SPDX-License-Identifier: Apache-2.0 */
/* Files others can reach, written and opened by descriptor, never through
 * a symlink (gb_files.h). Every writer of the tree goes through here;
 * tests/base/test_files.c holds the promises, scripts/check-writes keeps
 * stray open()/fopen() for writing out of the other folders. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gb_files.h"

static const char *kind_of(mode_t m)
{
    return S_ISLNK(m)    ? "a symbolic link"
           : S_ISDIR(m)  ? "a directory"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

/* 0 if `name` in `dirfd` is absent or a regular file, else -1 with `e`
 * naming what it is. */
static int target_ok(int dirfd, const char *name, gb_err_t *e)
{
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? 0 : gb_err_sys(e, "cannot stat %s", name);
    if (S_ISREG(st.st_mode))
        return 0;
    return gb_err_set(e, "%s is %s: refused (only a regular file is replaced)", name,
                      kind_of(st.st_mode));
}

static int name_ok(const char *name, gb_err_t *e)
{
    if (!name || !*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
        return gb_err_set(e, "bad file name '%s'", name ? name : "");
    return 0;
}

/* Makes `path` and its parents (a root the user named: followed). */
int gb_mkdirs(const char *path, gb_err_t *e)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return gb_err_set(e, "bad directory path '%s'", path);
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return gb_err_sys(e, "cannot create directory %s", buf);
        buf[i] = c;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return gb_err_set(e, "%s is not a directory", path);
    return 0;
}

int gb_dir_openat(int dirfd, const char *name, int create, gb_err_t *e)
{
    if (name_ok(name, e) != 0)
        return -1;
    if (create && mkdirat(dirfd, name, 0755) != 0 && errno != EEXIST)
        return gb_err_sys(e, "cannot create directory %s", name);
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0)
        return fd;
    struct stat st;
    int err = errno;
    if (err == ELOOP ||
        (err == ENOTDIR && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
         S_ISLNK(st.st_mode)))
        return gb_err_set(e, "%s is a symbolic link: not followed", name);
    if (err == ENOTDIR)
        return gb_err_set(e, "%s is not a directory", name);
    errno = err;
    return gb_err_sys(e, "cannot open directory %s", name);
}

int gb_dir_open(const char *root, const char *rel, int create, gb_err_t *e)
{
    if (create && gb_mkdirs(root, e) != 0)
        return -1;
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return gb_err_sys(e, "cannot open directory %s", root);
    if (!rel || !*rel)
        return fd;
    char buf[4096];
    if (strlen(rel) >= sizeof buf) {
        close(fd);
        return gb_err_set(e, "path too long: %s", rel);
    }
    strcpy(buf, rel);
    char *save = NULL;
    for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        int sub = gb_dir_openat(fd, c, create, e);
        close(fd);
        if (sub < 0)
            return -1;
        fd = sub;
    }
    return fd;
}

/* A fresh name for a staged file: unique in the process and across
 * processes, and hidden from peers that read only "id:" or visible names. */
static void tmp_name(char *out, size_t n)
{
    static atomic_ulong counter;
    snprintf(out, n, ".gb-tmp.%ld.%lu", (long)getpid(), atomic_fetch_add(&counter, 1));
}

static int write_all(int fd, const uint8_t *p, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int gb_file_open_at(int dirfd, const char *name, int how, gb_err_t *e)
{
    int base = how & ~GB_OPEN_READ;
    if (name_ok(name, e) != 0 || (base != GB_OPEN_NEW && target_ok(dirfd, name, e) != 0))
        return -1;
    int flags = O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
    flags |= (how & GB_OPEN_READ) ? O_RDWR : O_WRONLY;
    flags |= base == GB_OPEN_NEW ? O_EXCL : base == GB_OPEN_APPEND ? O_APPEND : 0;
    int fd = openat(dirfd, name, flags, 0644);
    if (fd < 0)
        return errno == ELOOP ? gb_err_set(e, "%s is a symbolic link: not followed", name)
               : errno == ENXIO
                   ? gb_err_set(e, "%s is a FIFO: refused (only a regular file is written)", name)
                   : gb_err_sys(e, "cannot open %s", name);
    struct stat st = {0};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return gb_err_set(e, "%s is %s: refused (only a regular file is written)", name,
                          kind_of(st.st_mode));
    }
    int fl = fcntl(fd, F_GETFL);
    if ((fl >= 0 && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) ||
        (base == GB_OPEN_TRUNC && ftruncate(fd, 0) != 0)) {
        gb_err_sys(e, "cannot prepare %s", name);
        close(fd);
        return -1;
    }
    return fd;
}

/* Writes the data to a fresh staged file in `tmpfd`; its name in `tmp`. */
static int stage_data(int tmpfd, char *tmp, size_t tmpsz, const void *data, size_t len,
                      gb_err_t *e)
{
    tmp_name(tmp, tmpsz);
    int fd = gb_file_open_at(tmpfd, tmp, GB_OPEN_NEW, e);
    if (fd < 0)
        return -1;
    if (write_all(fd, data, len) != 0 || fsync(fd) != 0) {
        gb_err_sys(e, "cannot write %s", tmp);
        close(fd);
        unlinkat(tmpfd, tmp, 0);
        return -1;
    }
    if (close(fd) != 0) {
        gb_err_sys(e, "cannot close %s", tmp);
        unlinkat(tmpfd, tmp, 0);
        return -1;
    }
    return 0;
}

/* Checks `name` (and, with `replace`, what is there now) and stages the
 * data in `tmpfd` (-1: dirfd, which *tmpfd then says), its name in `tmp`. */
static int stage_for(int dirfd, const char *name, int replace, int *tmpfd, char tmp[64],
                     const void *data, size_t len, gb_err_t *e)
{
    if (*tmpfd < 0)
        *tmpfd = dirfd;
    if (name_ok(name, e) != 0 || (replace && target_ok(dirfd, name, e) != 0))
        return -1;
    return stage_data(*tmpfd, tmp, 64, data, len, e);
}

int gb_file_write_at(int dirfd, const char *name, int tmpfd, const void *data, size_t len,
                     gb_err_t *e)
{
    char tmp[64];
    if (stage_for(dirfd, name, 1, &tmpfd, tmp, data, len, e) != 0)
        return -1;
    /* The target may have changed since target_ok; renameat replaces a
     * symlink itself, never what it points to, so the worst a race can do
     * is have its planted link replaced. */
    if (renameat(tmpfd, tmp, dirfd, name) != 0) {
        gb_err_sys(e, "cannot rename %s to %s", tmp, name);
        unlinkat(tmpfd, tmp, 0);
        return -1;
    }
    return 0;
}

int gb_file_publish_at(int dirfd, const char *name, int tmpfd, const void *data, size_t len,
                       gb_err_t *e)
{
    char tmp[64];
    if (stage_for(dirfd, name, 0, &tmpfd, tmp, data, len, e) != 0)
        return -1;
    int rc = linkat(tmpfd, tmp, dirfd, name, 0), err = errno;
    if (rc != 0 && err == EEXIST) {
        unlinkat(tmpfd, tmp, 0);
        return 1;
    }
    if (rc != 0 && (err == EPERM || err == EOPNOTSUPP || err == EMLINK)) {
        /* No hard links on this file system: renameat2 without replace. */
        rc = renameat2(tmpfd, tmp, dirfd, name, RENAME_NOREPLACE);
        err = errno;
        if (rc != 0 && err == EEXIST) {
            unlinkat(tmpfd, tmp, 0);
            return 1;
        }
        if (rc == 0)
            return 0;
    }
    unlinkat(tmpfd, tmp, 0);
    if (rc != 0) {
        errno = err;
        return gb_err_sys(e, "cannot publish %s", name);
    }
    return 0;
}

int gb_wfile_open(gb_wfile_t *st, int dirfd, const char *name, gb_err_t *e)
{
    memset(st, 0, sizeof *st);
    st->dirfd = -1;
    if (name_ok(name, e) != 0)
        return -1;
    if (strlen(name) >= sizeof st->name)
        return gb_err_set(e, "file name too long: %s", name);
    strcpy(st->name, name);
    if (target_ok(dirfd, name, e) != 0)
        return -1;
    st->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
    if (st->dirfd < 0)
        return gb_err_sys(e, "cannot duplicate a directory descriptor");
    tmp_name(st->tmp, sizeof st->tmp);
    int fd = gb_file_open_at(st->dirfd, st->tmp, GB_OPEN_NEW, e);
    if (fd >= 0 && !(st->f = fdopen(fd, "w"))) {
        gb_err_sys(e, "cannot open %s", st->tmp);
        close(fd);
    }
    if (!st->f) {
        if (fd >= 0)
            unlinkat(st->dirfd, st->tmp, 0);
        close(st->dirfd);
        st->dirfd = -1;
        return -1;
    }
    return 0;
}

void gb_wfile_abort(gb_wfile_t *st)
{
    if (st->f) {
        fclose(st->f);
        st->f = NULL;
    }
    if (st->dirfd >= 0) {
        unlinkat(st->dirfd, st->tmp, 0);
        close(st->dirfd);
        st->dirfd = -1;
    }
}

int gb_wfile_commit(gb_wfile_t *st, gb_err_t *e)
{
    if (!st->f)
        return gb_err_set(e, "%s: nothing staged", st->name);
    int bad = fflush(st->f) != 0 || ferror(st->f) || fsync(fileno(st->f)) != 0;
    int closed = fclose(st->f);
    st->f = NULL;
    if (bad || closed != 0) {
        gb_err_sys(e, "cannot write %s", st->name);
        gb_wfile_abort(st);
        return -1;
    }
    if (target_ok(st->dirfd, st->name, e) != 0) {
        gb_wfile_abort(st);
        return -1;
    }
    if (renameat(st->dirfd, st->tmp, st->dirfd, st->name) != 0) {
        gb_err_sys(e, "cannot rename %s to %s", st->tmp, st->name);
        gb_wfile_abort(st);
        return -1;
    }
    close(st->dirfd);
    st->dirfd = -1;
    return 0;
}

const char *gb_path_split(const char *path, char *dir, size_t dirsz, gb_err_t *e)
{
    size_t n = path ? strlen(path) : 0;
    if (n == 0 || path[n - 1] == '/')
        return gb_err_set(e, "'%s' names no file", path ? path : ""), NULL;
    const char *slash = strrchr(path, '/');
    size_t dn = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
    if (dn >= dirsz)
        return gb_err_set(e, "path too long: %s", path), NULL;
    if (!slash)
        memcpy(dir, ".", 2);
    else {
        memcpy(dir, slash == path ? "/" : path, dn);
        dir[dn] = '\0';
    }
    return slash ? slash + 1 : path;
}

/* The directory of a path the user named, opened as given (followed);
 * its last component goes to *base. A descriptor or -1 with `e`. */
static int open_parent(const char *path, const char **base, gb_err_t *e)
{
    char dir[4096];
    *base = gb_path_split(path, dir, sizeof dir, e);
    if (!*base)
        return -1;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return dfd >= 0 ? dfd : gb_err_sys(e, "cannot open directory %s", dir);
}

int gb_write_path(const char *path, const void *data, size_t len, gb_err_t *e)
{
    return gb_write_atomic(path, NULL, data, len, e);
}

int gb_write_atomic(const char *path, const char *tmpdir, const void *data, size_t len,
                    gb_err_t *e)
{
    const char *base;
    int dfd = open_parent(path, &base, e);
    if (dfd < 0)
        return -1;
    int tfd = tmpdir ? open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (tmpdir && tfd < 0) {
        gb_err_sys(e, "cannot open directory %s", tmpdir);
        close(dfd);
        return -1;
    }
    gb_err_t sub = {{0}};
    int rc = gb_file_write_at(dfd, base, tfd, data, len, &sub);
    close(dfd);
    if (tfd >= 0)
        close(tfd);
    return rc == 0 ? 0 : gb_err_set(e, "%s: %s", path, sub.msg);
}

FILE *gb_fopen_path(const char *path, int how, gb_err_t *e)
{
    const char *base;
    int dfd = open_parent(path, &base, e);
    if (dfd < 0)
        return NULL;
    gb_err_t sub = {{0}};
    int fd = gb_file_open_at(dfd, base, how, &sub);
    close(dfd);
    FILE *f = fd >= 0 ? fdopen(fd, how == GB_OPEN_APPEND ? "a" : "w") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        gb_err_set(e, "%s: %s", path, fd >= 0 ? "cannot open" : sub.msg);
    }
    return f;
}

int gb_check_output(const char *what, const char *path, const char *input, gb_err_t *e)
{
    struct stat st, in;
    char dir[4096];
    if (!gb_path_split(path, dir, sizeof dir, e))
        return -1;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return gb_err_sys(e, "%s %s", what, path);
        return 0;
    }
    if (!S_ISREG(st.st_mode))
        return gb_err_set(e, "%s %s is %s: refused (only a regular file is replaced)", what,
                          path, kind_of(st.st_mode));
    if (input && stat(input, &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino)
        return gb_err_set(e, "%s %s is the input file: refused", what, path);
    return 0;
}

int gb_file_move_at(int fromfd, const char *from, int tofd, const char *to, gb_err_t *e)
{
    if (name_ok(from, e) != 0 || name_ok(to, e) != 0)
        return -1;
    struct stat st;
    if (fstatat(fromfd, from, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return gb_err_sys(e, "cannot stat %s", from);
    if (!S_ISREG(st.st_mode))
        return gb_err_set(e, "%s is %s: not moved", from, kind_of(st.st_mode));
    /* RENAME_NOREPLACE: whatever is at `to` (a file, a symlink planted
     * there, a FIFO) stays as it is. */
    if (renameat2(fromfd, from, tofd, to, RENAME_NOREPLACE) == 0)
        return 0;
    return errno == EEXIST ? 1 : gb_err_sys(e, "cannot move %s to %s", from, to);
}

int gb_file_rename_at(int fromfd, const char *from, int todirfd, const char *to, gb_err_t *e)
{
    struct stat st;
    if (name_ok(from, e) != 0 || name_ok(to, e) != 0)
        return -1;
    if (fstatat(fromfd, from, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return gb_err_sys(e, "cannot stat %s", from);
    if (!S_ISREG(st.st_mode))
        return gb_err_set(e, "%s is %s: refused (only a regular file is moved)", from,
                          kind_of(st.st_mode));
    if (target_ok(todirfd, to, e) != 0)
        return -1;
    if (renameat(fromfd, from, todirfd, to) != 0)
        return gb_err_sys(e, "cannot rename %s to %s", from, to);
    return 0;
}

int gb_file_remove_at(int dirfd, const char *name)
{
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
        return -1;
    return unlinkat(dirfd, name, 0) == 0 || errno == ENOENT ? 0 : -1;
}

int gb_dir_make_temp(int dirfd, char *name, size_t namesz, gb_err_t *e)
{
    for (int tries = 0; tries < 100; tries++) {
        tmp_name(name, namesz);
        if (mkdirat(dirfd, name, 0700) == 0)
            return gb_dir_openat(dirfd, name, 0, e);
        if (errno != EEXIST)
            return gb_err_sys(e, "cannot create directory %s", name);
    }
    return gb_err_set(e, "cannot find a free temporary name");
}

void gb_dir_remove_temp(int parent, const char *name, int fd)
{
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    for (struct dirent *de; d && (de = readdir(d));)
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            gb_file_remove_at(fd, de->d_name);
    if (d)
        closedir(d);
    else if (fd >= 0)
        close(fd);
    unlinkat(parent, name, AT_REMOVEDIR);
}

int gb_dir_remove_at(int dirfd, const char *name)
{
    gb_err_t e;
    if (name_ok(name, &e) != 0)
        return -1;
    /* AT_REMOVEDIR fails on a symlink (ENOTDIR): only a directory goes. */
    return unlinkat(dirfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : -1;
}

int gb_remove_path(const char *path)
{
    char dir[4096];
    gb_err_t e;
    const char *base = gb_path_split(path, dir, sizeof dir, &e);
    if (!base)
        return -1;
    int dfd = gb_dir_open(dir, NULL, 0, &e);
    if (dfd < 0)
        return errno == ENOENT ? 0 : -1;
    int rc = gb_file_remove_at(dfd, base);
    close(dfd);
    return rc;
}
